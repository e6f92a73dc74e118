/**
 * Handoff (DESIGN §5): the chat model writes a handoff document from the live context (the
 * request is the context exactly as the chat sends it plus one user message with the handoff
 * prompt, so the provider's cache hits), the user may edit it, and a NEW session starts whose first
 * entry is a `handoff` entry holding it, linked to the old session and entry and inheriting the
 * model and system prompt. The old session is untouched.
 *
 * - `startHandoff` is one operation of the maintenance runner (shared with compaction and branch
 *   summaries): it runs the document call in the worker. An empty document, or a context that leaves no room
 *   for one, falls back to compaction in place, with a notice. Failed or cancelled: nothing written.
 * - `createHandoffSession` writes the new session and its first entry in one transaction.
 * - `autoHandoff` is the threshold strategy (`settings.autoStrategy === "handoff"`): no dialog;
 *   the new session opens with a notice. Never used for overflow recovery.
 * Outcomes come back as results, never throws.
 */

import { newHandoffSession } from "../../core/handoff/session";
import type { ModelUsage, Session } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { buildTreeIndex, pathToRoot } from "../../core/session/tree";
import { getEntry } from "../../db/entries";
import { createSession, getSession } from "../../db/sessions";
import type { HandoffJob } from "../../worker/api";
import { handoffInWorker } from "../../worker/client";
import { describeFailure } from "../app/describe-failure";
import { pushNotice, useUiStore } from "../app/ui-store";
import { useQueueStore } from "../send/queue-store";
import { discardQueued, moveQueued } from "../send/queued-message";
import { thinkingFor } from "../settings/settings-model";
import { useSettingsStore } from "../settings/settings-store";
import { type CompactOptions, type CompactResult, compactSession } from "./compact";
import { failurePrefix } from "./operation";
import { handoffPromptJob } from "./prompts-job";
import { type MaintenanceDeps, maintenanceDeps, runMaintenance } from "./runner";

export type HandoffStartResult =
  /** The handoff document to show (and let the user edit); `fromEntryId` is the leaf it was written from. */
  | { kind: "document"; document: string; fromEntryId: EntryId; sideUsage?: readonly ModelUsage[] }
  /** No usable document (empty, or no room to write one): the conversation was compacted in place instead. */
  | { kind: "fallback"; reason: "empty" | "too_long"; compaction: CompactResult }
  | { kind: "nothing_to_hand_off"; reason: string }
  /** Another maintenance operation holds the lock, or a reply is streaming in this session. */
  | { kind: "busy" }
  | { kind: "cancelled" }
  | { kind: "failed"; message: string };

export type HandoffSessionResult =
  | { kind: "created"; session: Session }
  /** The (edited) document is blank: no session was created. */
  | { kind: "empty" }
  /** The old session, or the entry the document was written from, no longer exists. */
  | { kind: "not_found" }
  | { kind: "failed"; message: string };

export type AutoHandoffResult =
  | HandoffStartResult
  | HandoffSessionResult
  /** The conversation moved on while the document was written: no session was created. */
  | { kind: "stale" };

/** The runner's clock, worker (default the compaction worker) and db, and the fallback compaction. */
export type HandoffDeps = Partial<MaintenanceDeps> & {
  /** The fallback compaction; default `compactSession`. */
  compact?: (sessionId: SessionId, opts: CompactOptions) => Promise<CompactResult>;
};

export type StartHandoffOptions = {
  /** Started by Grove itself (threshold strategy): failures become notices. */
  automatic?: boolean;
};

const FALLBACK_REASON: Record<"empty" | "too_long", string> = {
  empty: "The handoff document came back empty.",
  too_long: "The conversation is too long to write a handoff document from.",
};

/** What a fallback compaction did, as one notice line after the reason. */
function fallbackNotice(
  reason: "empty" | "too_long",
  compaction: CompactResult,
): { kind: "info" | "error"; text: string } {
  const why = FALLBACK_REASON[reason];
  switch (compaction.kind) {
    case "done":
      return { kind: "info", text: `${why} The conversation was compacted in place instead.` };
    case "nothing_to_compact":
      return { kind: "info", text: `${why} ${compaction.reason}` };
    case "already_compacted":
      return { kind: "info", text: `${why} The conversation is already compacted.` };
    case "cancelled":
      return { kind: "info", text: `${why} Compacting in place instead was cancelled.` };
    case "busy":
      return {
        kind: "error",
        text: `${why} Compacting in place instead could not start: another operation is running.`,
      };
    case "stale":
      return {
        kind: "info",
        text: `${why} The conversation moved on while it was being compacted; nothing was changed.`,
      };
    case "failed":
      return { kind: "error", text: `${why} Compacting in place instead failed too. ${compaction.message}` };
  }
}

type DocumentOutcome = HandoffStartResult | { kind: "needs_fallback"; reason: "empty" | "too_long" };

/** Writes the handoff document for the session's current leaf (optionally with a focus for the next session). */
export async function startHandoff(
  sessionId: SessionId,
  focus?: string,
  opts: StartHandoffOptions = {},
  deps: HandoffDeps = {},
): Promise<HandoffStartResult> {
  const automatic = opts.automatic ?? false;
  const written = await writeDocument(sessionId, focus, automatic, deps);
  if (written.kind !== "needs_fallback") return written;
  // The fallback takes the lock itself (compactSession), so it runs once ours is released.
  const compaction = await (deps.compact ?? compactSession)(sessionId, { reason: automatic ? "threshold" : "manual" });
  const notice = fallbackNotice(written.reason, compaction);
  pushNotice(notice.kind, notice.text);
  return { kind: "fallback", reason: written.reason, compaction };
}

async function writeDocument(
  sessionId: SessionId,
  focus: string | undefined,
  automatic: boolean,
  deps: HandoffDeps,
): Promise<DocumentOutcome> {
  return runMaintenance(
    sessionId,
    { kind: "handoff", reason: automatic ? "threshold" : "manual" },
    async (ctx): Promise<DocumentOutcome> => {
      const { session, entries, settings } = ctx;
      if (!session?.leafId) return { kind: "nothing_to_hand_off", reason: "This chat has no messages yet." };
      const models = ctx.models();
      if ("kind" in models) return models;
      const { chat } = models;
      const job: HandoffJob = {
        path: pathToRoot(buildTreeIndex(entries), session.leafId),
        focus: focus?.trim() || undefined,
        systemPrompt: chat.systemPrompt,
        provider: chat.provider,
        model: chat.modelId,
        // The chat's own thinking setting: a different one would invalidate the provider's cache.
        thinking: thinkingFor(settings, chat.modelId),
        contextWindow: chat.model.info.contextWindow,
        maxOutput: chat.model.info.maxOutput,
        reserveTokens: settings.compaction.reserveTokens,
        ...handoffPromptJob(settings.prompts),
        encoding: chat.model.info.encoding,
        countScale: chat.calibration?.ratio ?? 1,
      };
      const outcome = ctx.settle(
        await handoffInWorker(
          job,
          ctx.call((p) =>
            p.phase === "preparing" ? ctx.progress({ phase: "preparing" }) : ctx.progress({ phase: "writing" }, p.text),
          ),
        ),
      );
      // No usable document, or no room to write one: compaction in place instead (after the lock is released).
      return outcome.kind === "empty" || outcome.kind === "too_long"
        ? { kind: "needs_fallback", reason: outcome.kind }
        : outcome;
    },
    maintenanceDeps(deps),
  );
}

export type CreateHandoffOptions = {
  /** The entry the document was written from (`startHandoff`'s `fromEntryId`); default the session's leaf. */
  fromEntryId?: EntryId;
  /** The usage the document's request reported, recorded on the handoff entry. */
  sideUsage?: readonly ModelUsage[];
  /** Open the new session (default true). */
  open?: boolean;
};

/**
 * Starts the new session: its first entry is a `handoff` entry holding `document`, linked to the
 * old session and entry, inheriting the model and system prompt — all in one transaction. The old
 * session is not touched (its "Handed off to …" link is derived: db `childSessions`).
 */
export async function createHandoffSession(
  sessionId: SessionId,
  document: string,
  opts: CreateHandoffOptions = {},
  deps: Pick<HandoffDeps, "now"> = {},
): Promise<HandoffSessionResult> {
  const text = document.trim();
  if (text === "") return { kind: "empty" };
  try {
    const from = await getSession(sessionId);
    if (!from) return { kind: "not_found" };
    const fromEntryId = opts.fromEntryId ?? from.leafId;
    if (fromEntryId === null) return { kind: "not_found" };
    const fromEntry = await getEntry(fromEntryId);
    if (!fromEntry || fromEntry.sessionId !== sessionId) return { kind: "not_found" };
    const { session, entry } = newHandoffSession({
      from,
      document: text,
      fromEntryId,
      ...(opts.sideUsage ? { sideUsage: opts.sideUsage } : {}),
      defaultModel: useSettingsStore.getState().settings.defaultModel,
      now: (deps.now ?? Date.now)(),
    });
    await createSession(session, [entry]);
    if (opts.open ?? true) useUiStore.setState({ sessionId: session.id, editingId: null });
    return { kind: "created", session };
  } catch (e) {
    return { kind: "failed", message: `Could not start the new session: ${describeFailure(e)}` };
  }
}

/**
 * The threshold strategy "handoff" (called by threshold maintenance instead of compaction): write
 * the document, start the new session without a dialog, and open it (if the user is looking at
 * this chat) with a notice. A message queued meanwhile goes to the new session: back into the
 * composer when the user is looking, else shown there as unsent (Send / Discard). Falls back to compaction in place like a manual handoff.
 */
export async function autoHandoff(sessionId: SessionId, deps: HandoffDeps = {}): Promise<AutoHandoffResult> {
  const started = await startHandoff(sessionId, undefined, { automatic: true }, deps);
  if (started.kind !== "document") return started;
  try {
    // Nothing may have been added meanwhile: the document would not cover it.
    const now = await getSession(sessionId);
    if (now?.leafId !== started.fromEntryId) return { kind: "stale" };
  } catch {
    return { kind: "stale" };
  }
  const viewing = useUiStore.getState().sessionId === sessionId;
  const created = await createHandoffSession(
    sessionId,
    started.document,
    { fromEntryId: started.fromEntryId, open: viewing, ...(started.sideUsage ? { sideUsage: started.sideUsage } : {}) },
    deps,
  );
  if (created.kind !== "created") {
    pushNotice(
      "error",
      `${failurePrefix({ kind: "handoff", reason: "threshold" })}: ${created.kind === "failed" ? created.message : "the chat changed meanwhile."}`,
    );
    return created;
  }
  // A message queued meanwhile was written for the old context: it goes to the new session, to be
  // sent there by the user (into the composer when the user is looking, else shown as unsent there).
  const queued = useQueueStore.getState().queued[sessionId];
  if (queued) {
    if (viewing) {
      await discardQueued(sessionId);
      useUiStore.setState((s) => ({ composerSeed: { text: queued.text, nonce: (s.composerSeed?.nonce ?? 0) + 1 } }));
    } else {
      await moveQueued(sessionId, created.session.id, queued);
    }
  }
  pushNotice(
    "info",
    `This chat was getting close to the model's context limit, so it was handed off to a new session, "${created.session.title}", which starts from a handoff document. The earlier chat is unchanged.${queued ? (viewing ? " Your queued message is back in the composer." : " Your queued message is in the new session, not sent yet.") : ""}`,
  );
  return created;
}
