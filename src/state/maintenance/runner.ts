/**
 * The one maintenance sequence (DESIGN §4.7), shared by compaction, branch summaries and
 * handoffs: not while a reply is in flight in the chat → take the lock → read the session in one
 * transaction → the operation's own work → append its entry only if the leaf has not moved →
 * release the lock. Only the runner takes the lock (lock.ts), also ahead of a run whose decision
 * needs a count first (`holdAhead`: the bar shows at once).
 *
 * The runner gives an operation its common tail, so an operation is its job and its outcomes:
 * the chat and summarizer models or the failure (`models`), the worker call's options with the
 * cancel signal (`call`), the job's end settled (`settle`: Cancel → cancelled, failed → the
 * operation's failure, the summarizer's notices shown) and the entry stamped and appended if the
 * leaf is still where the work began (`append`: null when it moved, nothing written). Failures
 * come back as `{ kind: "failed", message }`, never as a throw; the dialog that shows one titles
 * it ("Compaction failed"), so the message does not repeat the operation's name. When Grove started
 * the operation on its own, a notice says it with the prefix ("Auto-compaction failed: …"), since
 * no dialog is there to title it. A message queued meanwhile goes out once the chat is idle
 * (send/queued-message.ts watches the lock).
 *
 * Dependencies (clock, worker, db) are injected so the automatic triggers can be tested with a
 * fake clock, a scripted worker and fake-indexeddb.
 */
import type { Entry, Session } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { newEntryId } from "../../core/session/ids";
import { appendEntries, getSessionWithEntries } from "../../db/entries";
import { StaleLeafError } from "../../db/errors";
import type { JobNotices, WorkerApi } from "../../worker/api";
import type { MaintenanceCallOptions } from "../../worker/client";
import { chatActivity } from "../activity/chat-activity";
import { describeFailure } from "../app/describe-failure";
import { pushNotice } from "../app/ui-store";
import { type ChatTarget, chatTarget, isTargetError, summarizerTarget } from "../models/chat-target";
import type { Settings } from "../settings/settings-model";
import { useSettingsStore } from "../settings/settings-store";
import { abortMaintenance, beginMaintenance, endMaintenance, holdsMaintenance, setMaintenanceProgress } from "./lock";
import { failurePrefix, isAutomatic, type MaintenanceOperation, type ProgressOf } from "./operation";
import { showSummarizerNotices } from "./summarizer-notices";

/** The storage a maintenance operation reads and writes. */
export type MaintenanceDb = {
  read(sessionId: SessionId): Promise<{ session: Session | undefined; entries: Entry[] }>;
  /** Appends `entry` and makes it the leaf, only if the leaf is still `expected`; false: it moved, nothing written. */
  appendIfLeafIs(sessionId: SessionId, entry: Entry, expected: EntryId | null, now: number): Promise<boolean>;
};

export type MaintenanceDeps = {
  now: () => number;
  /** The worker API to call; undefined: the compaction worker (`getWorker()`). */
  worker?: WorkerApi;
  db: MaintenanceDb;
};

const indexedDbMaintenance: MaintenanceDb = {
  async read(sessionId) {
    // One read transaction: the leaf is always among the entries read with it.
    return getSessionWithEntries(sessionId);
  },
  async appendIfLeafIs(sessionId, entry, expected, now) {
    try {
      await appendEntries(sessionId, [entry], { kind: "only-if-leaf-is", expected, to: entry.id }, now);
      return true;
    } catch (e) {
      if (e instanceof StaleLeafError) return false;
      throw e;
    }
  },
};

/** The real clock, worker and database; tests override any of them. */
export function maintenanceDeps(overrides: Partial<MaintenanceDeps> = {}): MaintenanceDeps {
  return {
    now: overrides.now ?? Date.now,
    db: overrides.db ?? indexedDbMaintenance,
    ...(overrides.worker ? { worker: overrides.worker } : {}),
  };
}

type Failed = { kind: "failed"; message: string };
type Cancelled = { kind: "cancelled" };

/** The fields the runner stamps on an operation's entry. */
type Stamp = "id" | "sessionId" | "parentId" | "createdAt";
/** An entry as a worker job returns it, before `append` stamps it. */
type Unstamped<E extends Entry = Entry> = E extends Entry ? Omit<E, Stamp> : never;

/** The models an operation calls: the chat's, and the summarizer (the summary model, else the chat's). */
type MaintenanceModels = { chat: ChatTarget; summarizer: ChatTarget };

/** What an operation's work gets: the session as read under the lock, the lock's controls, the common tail. */
export type MaintenanceContext<K extends MaintenanceOperation["kind"]> = {
  sessionId: SessionId;
  session: Session | undefined;
  entries: Entry[];
  settings: Settings;
  signal: AbortSignal;
  deps: MaintenanceDeps;
  progress(progress: ProgressOf<K>, text?: string): void;
  /** A failure of this operation (and a notice, with the operation's prefix, when automatic). */
  fail(message: string): Failed;
  /** The chat's models, or this operation's failure when the chat has none it can use (no key, unknown provider). */
  models(): MaintenanceModels | Failed;
  /** A worker call's options: the signal Cancel aborts, the injected worker, and `onProgress`. */
  call<P>(onProgress: (progress: P) => void): MaintenanceCallOptions<P>;
  /**
   * A worker job's end: Cancel pressed (or the job cancelled) → cancelled; failed → this
   * operation's failure; anything else as it came. The summarizer's notices are shown in any case.
   */
  settle<J extends { kind: string } & JobNotices>(
    outcome: J,
  ): Exclude<J, { kind: "failed" } | { kind: "cancelled" }> | Failed | Cancelled;
  /**
   * Stamps `entry` (a new id, this session, `parentId`, the clock's time) and appends it as the
   * leaf, only if the leaf is still `ifLeafIs`. The entry written, or null when the leaf moved
   * (nothing written: the operation is stale).
   */
  append<N extends Unstamped>(
    entry: N,
    at: { parentId: EntryId | null; ifLeafIs: EntryId | null },
  ): Promise<(N & Pick<Entry, Stamp>) | null>;
};

/** Outcomes the runner itself produces, whatever the operation. */
export type RunnerOutcome = { kind: "busy" } | Failed;

const heldLocks = new WeakMap<HeldLock, AbortController>();

/**
 * The lock taken ahead of a run (`holdAhead`): Cancel aborts `signal`; `release` when the run does not
 * follow. `betweenSteps`: taken by the tool loop between its steps (issue 28), whose reply lane stays
 * open but waits for this run, so the run may go on though the chat is replying.
 */
export type HeldLock = { readonly signal: AbortSignal; release(): void; readonly betweenSteps?: true };

/**
 * Takes the lock for `op` on `sessionId` before the caller has decided to run it, so its bar
 * (with Cancel) shows at once with `progress` (e.g. a preflight counting the context's tokens).
 * Null when another operation holds it. Hand it to `runMaintenance` (which releases it) or
 * `release` it when the operation does not run (a no-op once released).
 */
export function holdAhead<O extends MaintenanceOperation>(
  sessionId: SessionId,
  op: O,
  progress: ProgressOf<O["kind"]>,
  deps: Pick<MaintenanceDeps, "now"> = maintenanceDeps(),
  opts: { betweenSteps?: boolean } = {},
): HeldLock | null {
  const ac = beginMaintenance(sessionId, op, deps.now());
  if (!ac) return null;
  setMaintenanceProgress(ac, progress);
  const held: HeldLock = {
    signal: ac.signal,
    release: () => endMaintenance(ac),
    ...(opts.betweenSteps ? { betweenSteps: true as const } : {}),
  };
  heldLocks.set(held, ac);
  return held;
}

/** Cancels the running maintenance operation (any kind): its request is aborted and nothing is written. */
export function cancelMaintenance(): void {
  abortMaintenance();
}

/**
 * Runs `work` for `op` on `sessionId` under the maintenance lock. `busy`: a reply is in flight in
 * this chat or another operation holds the lock (nothing ran). A throw becomes `failed`.
 * `held`: the lock as taken ahead for this operation (`holdAhead`); it is released here like one
 * taken here.
 */
export async function runMaintenance<O extends MaintenanceOperation, R>(
  sessionId: SessionId,
  op: O,
  work: (ctx: MaintenanceContext<O["kind"]>) => Promise<R>,
  deps: MaintenanceDeps = maintenanceDeps(),
  held?: HeldLock,
): Promise<R | RunnerOutcome> {
  const heldAc = held ? heldLocks.get(held) : undefined;
  // A reply in flight here would move the leaf under the result: one thing at a time (the tool loop
  // waiting between its steps is no such reply: it goes on from what this run appends).
  if (chatActivity(sessionId).replying && !held?.betweenSteps) {
    held?.release();
    return { kind: "busy" };
  }
  const ac = heldAc && holdsMaintenance(heldAc) ? heldAc : beginMaintenance(sessionId, op, deps.now());
  if (!ac) return { kind: "busy" };
  const fail = (message: string) => failed(op, message);
  try {
    const { session, entries } = await deps.db.read(sessionId);
    const settings = useSettingsStore.getState().settings;
    return await work({
      sessionId,
      session,
      entries,
      settings,
      signal: ac.signal,
      deps,
      progress: (progress, text) => setMaintenanceProgress(ac, progress, text),
      fail,
      models() {
        const chat = chatTarget(session, settings);
        return isTargetError(chat)
          ? fail(describeFailure(chat))
          : { chat, summarizer: summarizerTarget(chat, settings) };
      },
      call: (onProgress) => ({ signal: ac.signal, worker: deps.worker, onProgress }),
      settle(outcome) {
        showSummarizerNotices(outcome);
        if (ac.signal.aborted || outcome.kind === "cancelled") return { kind: "cancelled" };
        if (isFailedJob(outcome)) return fail(outcome.error);
        return outcome as Exclude<typeof outcome, { kind: "failed" } | { kind: "cancelled" }>;
      },
      async append(entry, at) {
        const now = deps.now();
        const stamped = { ...entry, id: newEntryId(), sessionId, parentId: at.parentId, createdAt: now };
        return (await deps.db.appendIfLeafIs(sessionId, stamped as Entry, at.ifLeafIs, now)) ? stamped : null;
      },
    });
  } catch (e) {
    return fail(describeFailure(e));
  } finally {
    endMaintenance(ac);
  }
}

const isFailedJob = (outcome: { kind: string }): outcome is { kind: "failed"; error: string } =>
  outcome.kind === "failed";

function failed(op: MaintenanceOperation, message: string): Failed {
  if (isAutomatic(op)) pushNotice("error", `${failurePrefix(op)}: ${message}`);
  return { kind: "failed", message };
}
