/**
 * A reply and the maintenance around it (DESIGN §4.6): preflight before a send that would not fit,
 * overflow recovery (compact, then retry that request once), output-length recovery (compact when
 * near the limit; the UI offers Continue), threshold compaction after a reply, Claude calibration
 * from reported usage.
 * Every automatic path obeys "disabled" and the per-session pause; none of them ever loops.
 * When the context is full (overflow, length, threshold, preflight), the chat first moves to its
 * model's larger sibling if one is set and the context fits it (context promotion,
 * maintenance/promotion.ts), and compacts only otherwise: one decision, `makeRoom`.
 */
import type { AgentLoopConfig } from "../../core/agent/types";
import { usesTools } from "../../core/session/chat-tools";
import type { CompactionReason, Entry, MessageEntry, ModelRef, Session } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { getSessionPath, moveLeaf } from "../../db/entries";
import { chatActivity } from "../activity/chat-activity";
import { learnCalibration } from "../context/calibration";
import { fitsWithoutCounting, likelyOver } from "../context/fits";
import { type Measured, measureContext } from "../context/measure";
import { type SendContext, sendContext, tokensAtMostWithReply } from "../context/send-context";
import { type ChatTarget, chatTarget, isTargetError, thresholdOf } from "../models/chat-target";
import { type ReplyDeps, runReply } from "../reply/reply";
import { knownPath, rememberPath } from "../send/known-paths";
import { useSettingsStore } from "../settings/settings-store";
import { type CompactOptions, type CompactResult, compactSession } from "./compact";
import { autoHandoff } from "./handoff";
import { touchIdle } from "./idle-compaction";
import { useMaintenanceStore } from "./maintenance-store";
import { promoteIfPossible } from "./promotion";
import { cancelMaintenance, type HeldLock, holdAhead, type MaintenanceDeps, maintenanceDeps } from "./runner";

export type ReplyOptions = {
  /** The reply continues a partial cut off by the output limit (Continue). */
  continues?: EntryId;
  /** Check that the request fits the window first, compacting if it does not. */
  preflight?: boolean;
  /** The session and the path to `parentId`, when the caller has them (the send just wrote it). */
  read?: { session: Session; path: readonly Entry[] };
  /** Retry of a reply that failed before any content (see runReply). */
  retryOf?: MessageEntry;
};

/**
 * What the automatic triggers run with (tests inject fakes): the replies' stream and clock, the
 * maintenance runner's clock, worker and db, and the context measure; default the real ones.
 */
export type MaintainDeps = {
  reply?: ReplyDeps;
  maintenance?: Partial<MaintenanceDeps>;
  measure?: (path: readonly Entry[], target: ChatTarget, built?: SendContext) => Promise<Measured>;
};

/** The compaction the triggers run, with the injected maintenance dependencies. */
const compactWith =
  (deps: MaintainDeps) =>
  (sessionId: SessionId, opts: CompactOptions): Promise<CompactResult> =>
    compactSession(sessionId, opts, maintenanceDeps(deps.maintenance));

/** Automatic maintenance may run for this session: enabled in Settings and not paused. */
function autoAllowed(sessionId: SessionId): boolean {
  return useSettingsStore.getState().settings.compaction.enabled && !useMaintenanceStore.getState().paused[sessionId];
}

/** The session and the path to `leafId`, walked up from it (never the whole tree). */
async function readPath(
  sessionId: SessionId,
  leafId: EntryId,
): Promise<{ session: Session; path: Entry[] } | undefined> {
  return getSessionPath(sessionId, leafId, knownPath);
}

/**
 * Replies to `parentId` and runs the maintenance the reply calls for. Resolves when all of it is
 * done (the reply written, any compaction appended, a retried request answered).
 */
export async function replyAndMaintain(
  sessionId: SessionId,
  parentId: EntryId,
  opts: ReplyOptions = {},
  deps: MaintainDeps = {},
): Promise<void> {
  try {
    await replyAndMaintainOnce(sessionId, parentId, opts, deps);
  } finally {
    // Idle compaction (off by default) counts its idle time from the end of the last reply.
    touchIdle(sessionId);
  }
}

async function replyAndMaintainOnce(
  sessionId: SessionId,
  parentId: EntryId,
  opts: ReplyOptions,
  deps: MaintainDeps,
): Promise<void> {
  // One read of the path and one build of its context for the whole step: the preflight, the
  // request and the threshold check after the reply all use them (a compaction or a promotion
  // starts a new step: the path or the target changed).
  let read = opts.read ?? (await readPath(sessionId, parentId));
  let parent = parentId;
  let built = read ? buildStep(read) : undefined;
  if (read && built && opts.preflight && autoAllowed(sessionId)) {
    const room = await preflight(sessionId, read.session, built, deps);
    if (room?.kind === "promoted") {
      read = { session: { ...read.session, model: room.to }, path: read.path };
      built = buildStep(read);
    } else if (room?.kind === "done") {
      parent = room.entry.id;
      read = { session: read.session, path: [...read.path, room.entry] };
      built = buildStep(read);
    }
  }

  // A chat with tools runs the tool loop (issue 28); the reply it ends with goes on as any reply does.
  const toolTarget = read && !opts.continues ? toolLoopTarget(read.session, parent) : null;
  if (read && toolTarget) {
    const { runToolReply, downloadTurnFiles } = await import("../tools/tool-reply");
    const at = read.path.at(-1)?.id === parent ? read : await readPath(sessionId, parent);
    if (!at) return;
    const looped = await runToolReply(
      sessionId,
      at,
      toolTarget,
      deps.reply,
      loopMaintenance(sessionId, toolTarget, deps),
    );
    // Files its code execution produced, as attachments (issue 28), before maintenance reads the leaf.
    if (looped) await downloadTurnFiles(sessionId, looped.path);
    const answer = looped?.outcome.kind === "done" ? looped.last : null;
    if (!looped || answer?.role !== "assistant") return;
    rememberPath(looped.path);
    if (!autoAllowed(sessionId) || answer.status !== "complete") return;
    if (await overThreshold(looped.path, toolTarget, deps, null))
      await compactWith(deps)(sessionId, { reason: "threshold" });
    return;
  }

  const result = await runReply(
    sessionId,
    parent,
    { continues: opts.continues, read, retryOf: opts.retryOf, built },
    deps.reply,
  );
  if (!result?.target) return;
  void learnCalibration(result);

  const { entry, target } = result;
  // Kept on screen, not yet saved (disk full): no maintenance until it is in the tree.
  if (chatActivity(sessionId).replying) return;
  const pathWithReply = [...(read?.path ?? []), entry];
  // The next send from this reply reads no entry at all.
  rememberPath(pathWithReply);
  if (entry.status === "error" && entry.error?.kind === "context_overflow") {
    if (autoAllowed(sessionId)) await recoverFromOverflow(sessionId, entry, read, deps);
  } else if (entry.status === "complete" || entry.status === "stopped") {
    const reason = entry.stopReason === "length" ? "length" : "threshold";
    const atMost = built ? tokensAtMostWithReply(built, entry, target) : null;
    if (autoAllowed(sessionId) && (await overThreshold(pathWithReply, target, deps, atMost))) {
      const session = read?.session;
      // Promotion first; the "handoff" strategy replaces threshold compaction only (never overflow or length recovery).
      if (session && (await promote(session, pathWithReply, reason, deps))) return;
      if (reason === "threshold" && useSettingsStore.getState().settings.autoStrategy === "handoff") {
        await autoHandoff(sessionId, { ...deps.maintenance, compact: compactWith(deps) });
      } else {
        await compactWith(deps)(sessionId, { reason });
      }
    }
  }
}

/** Context promotion (maintenance/promotion.ts): the new model, or null when the chat must compact. */
function promote(
  session: Session,
  path: readonly Entry[],
  reason: CompactionReason,
  deps: MaintainDeps,
): Promise<ModelRef | null> {
  const measure = (p: readonly Entry[], t: ChatTarget) => countOrZero(p, t, deps);
  return promoteIfPossible(session, path, reason, measure, deps.maintenance?.now ?? Date.now);
}

/** The context is full: promote to a larger sibling first, compact only when that is not possible. */
async function makeRoom(
  sessionId: SessionId,
  session: Session,
  path: readonly Entry[],
  reason: CompactionReason,
  deps: MaintainDeps,
  held: HeldLock | null = null,
): Promise<{ kind: "promoted"; to: ModelRef } | CompactResult> {
  const to = await promote(session, path, reason, deps);
  if (to) return { kind: "promoted", to };
  return compactWith(deps)(sessionId, held ? { reason, held } : { reason });
}

/**
 * Compaction inside a tool loop (issue 28 item 7), the loop's `beforeStep` and `onOverflow`: before
 * every step but the first, a context over the threshold is compacted and the loop goes on by itself
 * (auto-continue, Settings › Tools; off: it ends there and offers Continue); a provider's overflow
 * compacts and the loop retries that step once. The same compaction as after a reply, at the loop's
 * last step (`atLeaf`: never another branch), under the lock taken "between steps" (the loop's reply
 * lane stays open and waits). Stop aborts it. Promotion and handoff do not run mid-loop: the loop
 * talks to one model, in one chat.
 */
function loopMaintenance(
  sessionId: SessionId,
  target: ChatTarget,
  deps: MaintainDeps,
): Pick<AgentLoopConfig, "beforeStep" | "onOverflow"> {
  const compactAt = async (
    path: readonly Entry[],
    reason: "threshold" | "overflow",
    signal: AbortSignal,
  ): Promise<Entry[] | null> => {
    const leaf = path.at(-1);
    if (!leaf || signal.aborted) return null;
    const held = holdAhead(
      sessionId,
      { kind: "compaction", reason },
      { phase: "preparing" },
      maintenanceDeps(deps.maintenance),
      { betweenSteps: true },
    );
    // Another chat's maintenance holds the lock: this step goes without (the next one checks again).
    if (!held) return null;
    // Stop in the loop cancels the compaction it waits for (the lock is this run's until released).
    const stop = () => cancelMaintenance();
    signal.addEventListener("abort", stop, { once: true });
    try {
      const result = await compactWith(deps)(sessionId, { reason, held, atLeaf: leaf.id });
      if (result.kind !== "done") return null;
      const next = [...path, result.entry];
      rememberPath(next);
      return next;
    } finally {
      signal.removeEventListener("abort", stop);
      held.release();
    }
  };
  return {
    async beforeStep(path, signal) {
      if (!autoAllowed(sessionId) || !(await overThreshold(path, target, deps, null))) {
        return { path, next: "continue" };
      }
      const compacted = await compactAt(path, "threshold", signal);
      if (!compacted) return { path, next: "continue" };
      return {
        path: compacted,
        next: useSettingsStore.getState().settings.toolLoop.autoContinue ? "continue" : "pause",
      };
    },
    onOverflow: (path, signal) =>
      autoAllowed(sessionId) ? compactAt(path, "overflow", signal) : Promise.resolve(null),
  };
}

/** The chat's target when its replies run the tool loop (it uses tools and can be sent to), else null. */
function toolLoopTarget(session: Session, _parent: EntryId): ChatTarget | null {
  if (!usesTools(session.tools)) return null;
  const target = chatTarget(session, useSettingsStore.getState().settings);
  return isTargetError(target) ? null : target;
}

/** The step's context for the chat's target now; undefined when it cannot be sent (runReply says why). */
function buildStep(read: { session: Session; path: readonly Entry[] }): SendContext | undefined {
  const target = chatTarget(read.session, useSettingsStore.getState().settings);
  return isTargetError(target) ? undefined : sendContext(read.path, target);
}

/**
 * Whether the context after a reply is over the threshold. `atMost`: its upper bound from the
 * step's one build (null: build it now, the reply went to another target).
 */
async function overThreshold(
  path: readonly Entry[],
  target: ChatTarget,
  deps: MaintainDeps,
  atMost: number | null,
): Promise<boolean> {
  const threshold = thresholdOf(target, useSettingsStore.getState().settings.compaction);
  // Far below the threshold by an upper bound: no need to ship the path to the worker to count it.
  if (fitsWithoutCounting(atMost ?? sendContext(path, target).tokensAtMost, threshold)) return false;
  const tokens = await countOrZero(path, target, deps);
  return tokens > threshold;
}

/**
 * The context's tokens, or 0 when they cannot be counted (worker gone, tokenizer not loaded): a
 * failed count must not leave a message unanswered or break the reply's end; the next step counts
 * again, and the provider's own "too long" still triggers overflow recovery.
 */
function countOrZero(
  path: readonly Entry[],
  target: ChatTarget,
  deps: MaintainDeps,
  built?: SendContext,
): Promise<number> {
  const measure = deps.measure ?? ((p, t, b) => measureContext(p, t, undefined, undefined, b));
  return measure(path, target, built).then(
    (m) => m.tokens,
    () => 0,
  );
}

/**
 * Before a send whose context plus max output would not fit the window: compact first. Returns the
 * compaction entry (the new parent of the reply), or null when none was needed or made.
 */
async function preflight(
  sessionId: SessionId,
  session: Session,
  built: SendContext,
  deps: MaintainDeps,
): Promise<{ kind: "promoted"; to: ModelRef } | CompactResult | null> {
  const { path, target } = built;
  const room = target.model.info.contextWindow - target.model.info.maxOutput;
  // Fits by an upper bound: the send goes out without waiting for the worker's count.
  if (fitsWithoutCounting(built.tokensAtMost, room)) return null;
  // Far over by an estimate: the compaction's bar shows now, not after the count (on a fresh tab
  // the worker starts and loads its tokenizer first: seconds on a big chat).
  // The runner takes the lock ahead: its bar says "Counting the context's tokens…", with Cancel.
  const held = likelyOver(built.tokensAtMost, room)
    ? holdAhead(
        sessionId,
        { kind: "compaction", reason: "preflight" },
        { phase: "counting" },
        maintenanceDeps(deps.maintenance),
      )
    : null;
  try {
    const tokens = await countOrZero(path, target, deps, built);
    if (held?.signal.aborted) return { kind: "cancelled" };
    if (tokens <= room) return null;
    return await makeRoom(sessionId, session, path, "preflight", deps, held);
  } finally {
    // Released by the compaction that ran under it; here when none did (it fit, a promotion, Cancel).
    held?.release();
  }
}

/**
 * The provider said the request was too long: move to a larger sibling or compact, then retry that
 * request once.
 */
async function recoverFromOverflow(
  sessionId: SessionId,
  failed: MessageEntry,
  read: { session: Session; path: readonly Entry[] } | undefined,
  deps: MaintainDeps,
): Promise<void> {
  // The compaction summarizes the path up to the question; the failed reply stays as a version.
  const question = failed.parentId;
  if (!question) return;
  await moveLeaf(sessionId, question);
  const to = read ? await promote(read.session, read.path, "overflow", deps) : null;
  if (to && read) {
    // Once, as after a compaction: the same request, to the larger model.
    await runReply(
      sessionId,
      question,
      { read: { session: { ...read.session, model: to }, path: read.path } },
      deps.reply,
    );
    return;
  }
  const result: CompactResult = await compactWith(deps)(sessionId, { reason: "overflow" });
  if (result.kind !== "done") {
    if (result.kind !== "failed") await moveLeaf(sessionId, failed.id).catch(() => {});
    return;
  }
  // Once: a retried request that overflows again is an error the user sees, never another round.
  await runReply(sessionId, result.entry.id, {}, deps.reply);
}
