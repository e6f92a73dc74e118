/**
 * Compaction as a user action and as Grove's own maintenance (DESIGN §4.6–4.7), one operation of
 * the maintenance runner: run the engine in the worker, append the entry at the leaf the plan was
 * made for (only if the leaf is still there: a stale result writes nothing), then apply the
 * progress guard. Failures and cancellations write nothing and come back as an outcome, never a throw.
 */

import type { CompactionProgress as CompactionEngineProgress } from "../../core/compaction/compact";
import { progressGuard } from "../../core/compaction/progress-guard";
import type { CompactionEntry, CompactionReason } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { buildTreeIndex, pathToRoot } from "../../core/session/tree";
import type { CompactJob } from "../../worker/api";
import { compactInWorker } from "../../worker/client";
import { pushNotice } from "../app/ui-store";
import { summarizerSpec, thresholdOf } from "../models/chat-target";
import { entryCountsFor } from "./entry-counts";
import { liftPause, useMaintenanceStore } from "./maintenance-store";
import { nativeJob } from "./native-job";
import { compactionPromptsJob } from "./prompts-job";
import {
  type HeldLock,
  type MaintenanceContext,
  type MaintenanceDeps,
  maintenanceDeps,
  runMaintenance,
} from "./runner";

export type CompactOptions = {
  reason: CompactionReason;
  instructions?: string;
  /** "Compact up to here": the kept region starts right after this entry. */
  upToEntryId?: EntryId;
  /** The maintenance lock taken ahead for this compaction (runner.ts `holdAhead`). */
  held?: HeldLock;
  /** Compact only if the chat's leaf is this entry (the tool loop's last step): else `stale`, nothing run. */
  atLeaf?: EntryId;
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

/** Runs one compaction of the session at its current leaf. */
export async function compactSession(
  sessionId: SessionId,
  opts: CompactOptions,
  deps: MaintenanceDeps = maintenanceDeps(),
): Promise<CompactResult> {
  return runMaintenance(
    sessionId,
    { kind: "compaction", reason: opts.reason },
    async (ctx): Promise<CompactResult> => {
      const { session, entries, settings } = ctx;
      if (!session?.leafId) return { kind: "nothing_to_compact", reason: "This chat has no messages yet." };
      if (opts.atLeaf !== undefined && session.leafId !== opts.atLeaf) return { kind: "stale" };
      const models = ctx.models();
      if ("kind" in models) return models;
      const { chat, summarizer } = models;
      const leafId = session.leafId;
      const path = pathToRoot(buildTreeIndex(entries), leafId);
      const entryCounts = await entryCountsFor(path, chat.model.info.encoding, deps.worker);
      const job: CompactJob = {
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
      };
      const outcome = ctx.settle(
        await compactInWorker(
          job,
          ctx.call((p) => showProgress(ctx, p)),
        ),
      );
      if (outcome.kind !== "done") return outcome;
      const entry = await ctx.append(outcome.entry, { parentId: leafId, ifLeafIs: leafId });
      if (!entry) return { kind: "stale" };
      guardProgress(sessionId, outcome.tokensAfter, thresholdOf(chat, settings.compaction));
      return { kind: "done", entry, tokensBefore: outcome.tokensBefore, tokensAfter: outcome.tokensAfter };
    },
    deps,
    opts.held,
  );
}

/** The engine's progress as the compaction's (the summary streaming in while it is written). */
function showProgress(ctx: MaintenanceContext<"compaction">, p: CompactionEngineProgress): void {
  switch (p.phase) {
    case "preparing":
    case "short-summary":
      ctx.progress({ phase: p.phase });
      break;
    case "summarizing":
      ctx.progress({ phase: "summarizing", window: p.window, windows: p.windows }, p.text);
      break;
    case "native":
      ctx.progress({ phase: "native", method: p.method });
      break;
    case "split-turn-prefix":
      ctx.progress({ phase: "split-turn-prefix" }, p.text);
      break;
  }
}

/** Never a loop: a compaction that leaves the context near the threshold pauses automatic compaction. */
function guardProgress(sessionId: SessionId, tokensAfter: number, threshold: number): void {
  useMaintenanceStore.setState((s) => {
    const { [sessionId]: _was, ...rest } = s.paused;
    return {
      paused: progressGuard(tokensAfter, threshold)
        ? { ...rest, [sessionId]: pausedWarning(tokensAfter, threshold) }
        : rest,
    };
  });
  const warning = useMaintenanceStore.getState().paused[sessionId];
  if (warning) pushNotice("info", warning);
}

function pausedWarning(tokensAfter: number, threshold: number): string {
  return `Compaction could not make enough room (${tokensAfter.toLocaleString()} tokens left, the automatic threshold is ${threshold.toLocaleString()}). Automatic compaction is paused for this chat until you compact manually or switch models.`;
}

/** A model change or a manual compaction lifts the pause on automatic compaction. */
export function resumeAutoCompaction(sessionId: SessionId): void {
  liftPause(sessionId);
}
