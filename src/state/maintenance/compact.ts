/**
 * Compaction as a user action and as Grove's own maintenance (DESIGN §4.6–4.7), one operation of
 * the maintenance runner: run the engine in the worker, append the entry at the leaf the plan was
 * made for (only if the leaf is still there: a stale result writes nothing), then apply the
 * progress guard. Failures and cancellations write nothing and come back as an outcome, never a throw.
 */

import { progressGuard } from "../../core/compaction/progress-guard";
import type { CompactionEntry, CompactionReason } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { newEntryId } from "../../core/session/ids";
import { buildTreeIndex, pathToRoot } from "../../core/session/tree";
import { compactInWorker } from "../../worker/client";
import { describeFailure } from "../app/describe-failure";
import { pushNotice } from "../app/ui-store";
import { chatTarget, isTargetError, summarizerSpec, summarizerTarget, thresholdOf } from "../models/chat-target";
import { entryCountsFor } from "./entry-counts";
import { abortMaintenance } from "./lock";
import { useMaintenanceStore } from "./maintenance-store";
import { nativeJob } from "./native-job";
import { compactionPromptsJob } from "./prompts-job";
import { type MaintenanceDeps, maintenanceDeps, runMaintenance } from "./runner";
import { showSummarizerNotices } from "./summarizer-notices";

export type CompactOptions = {
  reason: CompactionReason;
  instructions?: string;
  /** "Compact up to here": the kept region starts right after this entry. */
  upToEntryId?: EntryId;
  /** The maintenance lock taken ahead for this compaction (maintenance/runner.ts `held`). */
  held?: AbortController;
};

export type CompactResult =
  | { kind: "done"; entry: CompactionEntry; tokensBefore: number; tokensAfter: number }
  | { kind: "nothing_to_compact"; reason: string }
  | { kind: "already_compacted" }
  | { kind: "cancelled" }
  | { kind: "failed"; message: string }
  /** Another maintenance operation (or a reply in this session) is running. */
  | { kind: "busy" }
  /** The conversation moved on while the summary was written: nothing was appended. */
  | { kind: "stale" };

/** Cancels the running maintenance operation (any kind): its request is aborted and nothing is written. */
export function cancelMaintenance(): void {
  abortMaintenance();
}

export function isMaintenanceRunning(): boolean {
  return useMaintenanceStore.getState().op !== null;
}

/** Runs one compaction of the session at its current leaf. */
export async function compactSession(
  sessionId: SessionId,
  opts: CompactOptions,
  deps: MaintenanceDeps = maintenanceDeps(),
): Promise<CompactResult> {
  return runMaintenance(
    sessionId,
    { kind: "compaction", reason: opts.reason },
    async ({ session, entries, settings, signal, progress, fail }): Promise<CompactResult> => {
      if (!session?.leafId) return { kind: "nothing_to_compact", reason: "This chat has no messages yet." };
      const chat = chatTarget(session, settings);
      if (isTargetError(chat)) return fail(describeFailure(chat));
      const summarizer = summarizerTarget(chat, settings);
      const leafId = session.leafId;
      const path = pathToRoot(buildTreeIndex(entries), leafId);

      const entryCounts = await entryCountsFor(path, chat.model.info.encoding, deps.worker);
      const outcome = await compactInWorker(
        {
          path,
          reason: opts.reason,
          instructions: opts.instructions?.trim() || undefined,
          upToEntryId: opts.upToEntryId,
          settings: settings.compaction,
          systemPrompt: chat.systemPrompt,
          targetApi: chat.api,
          contextWindow: chat.model.info.contextWindow,
          encoding: chat.model.info.encoding,
          countScale: chat.calibration?.ratio ?? 1,
          entryCounts,
          summarizer: summarizerSpec(summarizer, settings),
          ...nativeJob(chat, settings.compaction),
          ...compactionPromptsJob(settings.prompts),
        },
        {
          signal,
          worker: deps.worker,
          onProgress: (p) => {
            switch (p.phase) {
              case "preparing":
              case "short-summary":
                progress({ phase: p.phase });
                break;
              case "summarizing":
                progress({ phase: "summarizing", window: p.window, windows: p.windows }, p.text);
                break;
              case "native":
                progress({ phase: "native", method: p.method });
                break;
              case "split-turn-prefix":
                progress({ phase: "split-turn-prefix" }, p.text);
                break;
            }
          },
        },
      );
      showSummarizerNotices(outcome);

      switch (outcome.kind) {
        case "nothing_to_compact":
        case "already_compacted":
        case "cancelled":
          return outcome;
        case "failed":
          return fail(outcome.error);
        case "done":
          break;
      }
      if (signal.aborted) return { kind: "cancelled" };

      const entry: CompactionEntry = {
        ...outcome.entry,
        id: newEntryId(),
        sessionId,
        parentId: leafId,
        createdAt: deps.now(),
      };
      if (!(await deps.db.appendIfLeafIs(sessionId, entry, leafId, deps.now()))) return { kind: "stale" };

      // Never a loop: a compaction that leaves the context near the threshold pauses automatic compaction.
      const threshold = thresholdOf(chat, settings.compaction);
      useMaintenanceStore.setState((s) => {
        const { [sessionId]: _was, ...rest } = s.paused;
        return {
          paused: progressGuard(outcome.tokensAfter, threshold)
            ? { ...rest, [sessionId]: pausedWarning(outcome.tokensAfter, threshold) }
            : rest,
        };
      });
      const warning = useMaintenanceStore.getState().paused[sessionId];
      if (warning) pushNotice("info", warning);
      return { kind: "done", entry, tokensBefore: outcome.tokensBefore, tokensAfter: outcome.tokensAfter };
    },
    deps,
    opts.held,
  );
}

function pausedWarning(tokensAfter: number, threshold: number): string {
  return `Compaction could not make enough room (${tokensAfter.toLocaleString()} tokens left, the automatic threshold is ${threshold.toLocaleString()}). Automatic compaction is paused for this chat until you compact manually or switch models.`;
}

/** A model change or a manual compaction lifts the pause on automatic compaction. */
export function resumeAutoCompaction(sessionId: SessionId): void {
  useMaintenanceStore.setState((s) => {
    const { [sessionId]: _was, ...rest } = s.paused;
    return { paused: rest };
  });
}
