/**
 * What a "Switch here" does to the tree (DESIGN §5): where the leaf lands, what goes back into the
 * composer, and which part of the old path is left behind (the abandoned branch a summary covers).
 *
 * Built on core/session/tree.ts (`switchTarget`, `abandonedPath`, `commonAncestor`); this module
 * only puts their answers together for the state layer and the switch dialog.
 * No I/O here, nothing written: the state layer moves the leaf and appends the summary.
 */
import { serializeEntry } from "../compaction/serialize";
import type { Entry } from "../session/entries";
import type { EntryId } from "../session/ids";
import { abandonedPath, commonAncestor, switchTarget, type TreeIndex } from "../session/tree";

export type AbandonedBranch = {
  /** The old leaf's path strictly below the deepest common ancestor with the new position, root first. */
  readonly entries: readonly Entry[];
  /** That common ancestor; null when the two share none (or there is no new position: a root user target). */
  readonly commonAncestorId: EntryId | null;
  /** The old leaf (the summary's `fromId`); null when there was no leaf. */
  readonly fromId: EntryId | null;
};

/**
 * The part of the old leaf's path a switch to `newPosition` leaves behind (DESIGN §5). Null
 * `newPosition` = before the first message (Switch here on a root user message): the whole old
 * path is abandoned. Empty when nothing is (the new position is on or below the old leaf).
 */
export function collectAbandoned(
  index: TreeIndex,
  oldLeaf: EntryId | null,
  newPosition: EntryId | null,
): AbandonedBranch {
  const entries = abandonedPath(index, oldLeaf, newPosition);
  const commonAncestorId =
    oldLeaf !== null && newPosition !== null ? commonAncestor(index, oldLeaf, newPosition) : null;
  return { entries, commonAncestorId, fromId: oldLeaf };
}

/**
 * Whether any entry of `entries` would show up in a summarizer transcript (messages `buildContext`
 * skips do not; compaction, branch-summary and handoff entries do). The switch dialog asks about a
 * summary only when this is true.
 */
export function hasSummarizableContent(entries: readonly Entry[]): boolean {
  return entries.some((e) => serializeEntry(e) !== "");
}

export type SwitchPlan =
  /** `targetId` is not in the session. */
  | { kind: "not_found" }
  /** `targetId` is the current leaf: nothing to do. */
  | { kind: "nothing_to_do" }
  | {
      kind: "switch";
      /** The new leaf; null = before the first message (the target was a root user message). */
      position: EntryId | null;
      /** Set when the target is a user message: its text goes back into the composer. */
      composerText?: string;
      /** What the switch leaves behind (empty when the new position is on or below the old leaf). */
      abandoned: AbandonedBranch;
      /** Whether the abandoned part has anything to summarize (else no dialog is needed). */
      summarizable: boolean;
    };

/**
 * "Switch here" on `targetId` while the leaf is `leafId` (DESIGN §5): a user message moves the
 * leaf to its parent and its text goes back into the composer; anything else becomes the
 * position; the target being the leaf is nothing to do.
 */
export function planSwitch(index: TreeIndex, targetId: EntryId, leafId: EntryId | null): SwitchPlan {
  const target = switchTarget(index, targetId, leafId);
  if (target === null) return { kind: "not_found" };
  if (targetId === leafId) return { kind: "nothing_to_do" };
  const abandoned = collectAbandoned(index, leafId, target.position);
  return {
    kind: "switch",
    position: target.position,
    ...(target.composerText !== undefined ? { composerText: target.composerText } : {}),
    abandoned,
    summarizable: hasSummarizableContent(abandoned.entries),
  };
}
