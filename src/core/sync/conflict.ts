/**
 * Which version of a document stands when CouchDB holds several (DESIGN §8: two devices changed
 * the same record while apart, and replication brought both): the winner by last-writer-wins
 * (lww.ts: the latest hybrid-clock stamp; a session's deletion is final), whichever revision
 * CouchDB itself picked. Every other revision is deleted, so every device resolving the same
 * conflict writes the same deletions and they converge without a new conflict. Records without a
 * stamp (entries, blobs: immutable, so their versions are the same) keep the lowest revision.
 * Pure: the caller opens the versions and deletes the losers.
 */
import type { EntryId } from "../session/ids";
import { pickWinner } from "./lww";
import type { SyncRecord } from "./records";

/** One revision of a document, opened. */
export type DocVersion = { readonly rev: string; readonly record: SyncRecord };

export type ConflictChoice = {
  readonly winner: DocVersion;
  /** The revisions to delete: all but the winner's, those that could not be opened too. */
  readonly losingRevs: readonly string[];
  /** For a leaf: where the losing versions stood (the branches another device was on). */
  readonly losingLeafIds: readonly (EntryId | null)[];
};

const byRev = (a: DocVersion, b: DocVersion) => (a.rev < b.rev ? -1 : a.rev > b.rev ? 1 : 0);

/**
 * The winner among `versions` (the revisions that could be opened, in any order) of a document
 * whose revisions are `revs` (the current one and its conflicts); undefined when none could be
 * opened. The same revisions give the same choice on every device.
 */
export function chooseVersion(revs: readonly string[], versions: readonly DocVersion[]): ConflictChoice | undefined {
  // In revision order, so that a tie (no stamps) goes the same way everywhere.
  const sorted = [...versions].sort(byRev);
  const stamped = sorted.map((version) => ({
    version,
    hlc: "hlc" in version.record ? version.record.hlc : "",
    final: version.record.kind === "session" && version.record.final ? true : undefined,
  }));
  const winner = pickWinner(stamped)?.version;
  if (!winner) return undefined;
  return {
    winner,
    losingRevs: revs.filter((rev) => rev !== winner.rev),
    losingLeafIds: sorted.flatMap((v) => (v !== winner && v.record.kind === "leaf" ? [v.record.leafId] : [])),
  };
}
