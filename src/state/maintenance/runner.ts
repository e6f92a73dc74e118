/**
 * The one maintenance sequence (DESIGN §4.7), shared by compaction, branch summaries and
 * handoffs: not while a reply streams in the chat → take the lock → read the session → the
 * operation's own work (its target, the worker call) → append its entry only if the leaf has not
 * moved → release the lock. Failures come back as `{ kind: "failed", message }`, never as a throw;
 * the dialog that shows one titles it ("Compaction failed"), so the message does not repeat the
 * operation's name. When Grove started the operation on its own, a notice says it with the prefix
 * ("Auto-compaction failed: …"), since no dialog is there to title it. A message queued
 * meanwhile goes out once the chat is idle (queued-message.ts watches the lock).
 *
 * Dependencies (clock, worker, db) are injected so the automatic triggers can be tested with a
 * fake clock, a scripted worker and fake-indexeddb.
 */
import type { Entry, Session } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { appendEntries, getSessionWithEntries } from "../../db/entries";
import { StaleLeafError } from "../../db/errors";
import type { WorkerApi } from "../../worker/api";
import { chatActivity } from "../activity/chat-activity";
import { describeFailure } from "../app/describe-failure";
import { pushNotice } from "../app/ui-store";
import type { Settings } from "../settings/settings-model";
import { useSettingsStore } from "../settings/settings-store";
import { beginMaintenance, endMaintenance, holdsMaintenance, setMaintenanceProgress } from "./lock";
import { failurePrefix, isAutomatic, type MaintenanceOperation, type ProgressOf } from "./operation";

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

export const indexedDbMaintenance: MaintenanceDb = {
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

/** What an operation's work gets: the session as read under the lock, and the lock's controls. */
export type MaintenanceContext<K extends MaintenanceOperation["kind"]> = {
  sessionId: SessionId;
  session: Session | undefined;
  entries: Entry[];
  settings: Settings;
  signal: AbortSignal;
  deps: MaintenanceDeps;
  progress(progress: ProgressOf<K>, text?: string): void;
  /** A failure of this operation (and a notice, with the operation's prefix, when automatic). */
  fail(message: string): { kind: "failed"; message: string };
};

/** Outcomes the runner itself produces, whatever the operation. */
export type RunnerOutcome = { kind: "busy" } | { kind: "failed"; message: string };

/**
 * Runs `work` for `op` on `sessionId` under the maintenance lock. `busy`: a reply is streaming in
 * this chat or another operation holds the lock (nothing ran). A throw becomes `failed`.
 * `held`: the lock as taken ahead for this operation (its bar already shown while the caller
 * decided to run it, e.g. a preflight counting tokens); it is released here like one taken here.
 */
export async function runMaintenance<O extends MaintenanceOperation, R>(
  sessionId: SessionId,
  op: O,
  work: (ctx: MaintenanceContext<O["kind"]>) => Promise<R>,
  deps: MaintenanceDeps = maintenanceDeps(),
  held?: AbortController,
): Promise<R | RunnerOutcome> {
  // A reply streaming here would move the leaf under the result: one thing at a time.
  if (chatActivity(sessionId).replying) {
    if (held) endMaintenance(held);
    return { kind: "busy" };
  }
  const ac = held && holdsMaintenance(held) ? held : beginMaintenance(sessionId, op, deps.now());
  if (!ac) return { kind: "busy" };
  const fail = (message: string) => failed(op, message);
  try {
    const { session, entries } = await deps.db.read(sessionId);
    return await work({
      sessionId,
      session,
      entries,
      settings: useSettingsStore.getState().settings,
      signal: ac.signal,
      deps,
      progress: (progress, text) => setMaintenanceProgress(ac, progress, text),
      fail,
    });
  } catch (e) {
    return fail(errorText(e));
  } finally {
    endMaintenance(ac);
  }
}

function failed(op: MaintenanceOperation, message: string): { kind: "failed"; message: string } {
  if (isAutomatic(op)) pushNotice("error", `${failurePrefix(op)}: ${message}`);
  return { kind: "failed", message };
}

/** A thrown value as words: an Error's message, a classified provider failure, or its string. */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === "object" && e !== null && "kind" in e && "message" in e) {
    return describeFailure(e as Parameters<typeof describeFailure>[0]);
  }
  return String(e);
}
