/**
 * Typed failures of the db/ verbs. Verbs throw these (from inside their transaction, so the whole
 * transaction rolls back); callers in state/ catch them. Nothing in db/ catches them.
 */
import type { EntryId, SessionId } from "../core/session/ids";

/** An entry id that already exists (in the database or earlier in the same batch): entries are append-only. */
export class AppendOnlyError extends Error {
  override readonly name = "AppendOnlyError";
  constructor(readonly entryId: EntryId) {
    super(`Entry ${entryId} already exists; entries are append-only`);
  }
}

/** An entry whose parentId is neither in the session nor earlier in the batch. */
export class DanglingParentError extends Error {
  override readonly name = "DanglingParentError";
  constructor(
    readonly entryId: EntryId,
    readonly parentId: EntryId,
  ) {
    super(`Entry ${entryId} has parent ${parentId}, which is not in its session`);
  }
}

export class SessionNotFoundError extends Error {
  override readonly name = "SessionNotFoundError";
  constructor(readonly sessionId: SessionId) {
    super(`Session ${sessionId} not found`);
  }
}

/** An entry that does not exist in the given session (wrong session, or not there at all). */
export class EntryNotInSessionError extends Error {
  override readonly name = "EntryNotInSessionError";
  constructor(
    readonly entryId: EntryId,
    readonly sessionId: SessionId,
  ) {
    super(`Entry ${entryId} is not in session ${sessionId}`);
  }
}

/** An entry id that exists nowhere (used where no session is given, e.g. labels). */
export class EntryNotFoundError extends Error {
  override readonly name = "EntryNotFoundError";
  constructor(readonly entryId: EntryId) {
    super(`Entry ${entryId} not found`);
  }
}

/** A write meant for a leaf that has since moved (another tab, a message sent meanwhile). */
export class StaleLeafError extends Error {
  override readonly name = "StaleLeafError";
  constructor(
    readonly sessionId: SessionId,
    readonly expected: EntryId | null,
    readonly actual: EntryId | null,
  ) {
    super(
      `The conversation moved on while this was computed (leaf ${actual ?? "none"}, expected ${expected ?? "none"})`,
    );
  }
}
