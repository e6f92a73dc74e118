/**
 * The conversation tree laid out for reading, shared by the Markdown and HTML exporters: the
 * active path as the main line, every other branch as a line that forks off it (recursively),
 * plus the few labels both exporters print (message titles, status notes, previews).
 *
 * A "line" is a chain of entries. Off the active path a line follows the newest child at every
 * fork, the same choice `deepestLeafFrom` makes when the user switches to another version; the
 * other children become forks of their own. Every entry reachable from a root is in exactly one
 * line. Building is iterative (a 10,000-entry path must not overflow the stack).
 * Pure: no I/O, nothing mutated.
 */

import { assertNever, type Entry, type MessageEntry } from "../session/entries";
import { entryTitle } from "../session/entry-text";
import type { EntryId } from "../session/ids";
import { buildTreeIndex, childrenOf, pathToRoot, type TreeIndex } from "../session/tree";
import { isoTime, UNKNOWN_DATE } from "../time";

export type BranchLine = {
  /** A chain: each entry is the parent of the next. */
  readonly entries: readonly Entry[];
  /** Branches leaving this line, ordered by where they leave it, then oldest first. */
  readonly forks: readonly Fork[];
};

export type Fork = {
  /**
   * Index in the parent line's `entries` of the entry this branch grows from. -1 only on the
   * main line, for a second root (a branch that shares no entry with the active path).
   */
  readonly at: number;
  readonly line: BranchLine;
};

type MutableLine = { entries: Entry[]; forks: Fork[] };

/** Follows the newest unseen child down from `start` to a leaf, marking each entry seen. */
function growLine(index: TreeIndex, start: Entry, seen: Set<EntryId>): Entry[] {
  const out: Entry[] = [];
  let current: Entry | undefined = start;
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    out.push(current);
    const kids: readonly Entry[] = childrenOf(index, current.id).filter((k) => !seen.has(k.id));
    current = kids[kids.length - 1];
  }
  return out;
}

/**
 * The main line (root → `leafId`) with every other branch hanging off it. Entries past the leaf
 * (the leaf is a position in the middle of a conversation) are forks at the leaf. An unknown or
 * null leaf gives an empty main line whose forks are all the roots. The `seen` set keeps each
 * entry in one line even in malformed data (a cycle on the active path).
 */
export function buildBranchLines(entries: Iterable<Entry>, leafId: EntryId | null): BranchLine {
  const index = buildTreeIndex(entries);
  const activePath = leafId === null ? [] : pathToRoot(index, leafId);
  const seen = new Set<EntryId>(activePath.map((e) => e.id));
  const main: MutableLine = { entries: activePath, forks: [] };
  // Lines whose own forks are not attached yet: a queue instead of recursion.
  const queue: MutableLine[] = [main];
  const fork = (parent: MutableLine, at: number, start: Entry): void => {
    const line: MutableLine = { entries: growLine(index, start, seen), forks: [] };
    parent.forks.push({ at, line });
    queue.push(line);
  };
  for (const root of index.roots) {
    if (!seen.has(root.id)) fork(main, -1, root);
  }
  for (let q = 0; q < queue.length; q++) {
    const line = queue[q];
    if (!line) continue;
    for (const [i, entry] of line.entries.entries()) {
      for (const child of childrenOf(index, entry.id)) {
        if (!seen.has(child.id)) fork(line, i, child);
      }
    }
  }
  return main;
}

export type OtherBranch = {
  /** 1-based, in document order: a branch's own sub-branches come right after it. */
  readonly number: number;
  readonly line: BranchLine;
  /** The entry the branch grows from; null for a second root. */
  readonly from: Entry | null;
  /** The line `from` is on: 0 for the active path, else that branch's number. */
  readonly fromBranch: number;
  /** Messages on the path root → `from`, `from` included: "message N" when `from` is a message. */
  readonly fromDepth: number;
};

/** Every line except the main one, numbered in document (pre-)order, with where each one forks. */
export function listOtherBranches(main: BranchLine): OtherBranch[] {
  const out: OtherBranch[] = [];
  type Pending = Omit<OtherBranch, "number">;
  const stack: Pending[] = [];
  // Pushed in reverse so the first fork is popped (and numbered) first.
  const pushForks = (line: BranchLine, lineNumber: number, depthBefore: number): void => {
    const depths = messageDepths(line.entries, depthBefore);
    for (let i = line.forks.length - 1; i >= 0; i--) {
      const f = line.forks[i];
      if (!f) continue;
      const from = f.at >= 0 ? (line.entries[f.at] ?? null) : null;
      const fromDepth = f.at >= 0 ? (depths[f.at] ?? depthBefore) : 0;
      stack.push({ line: f.line, from, fromBranch: lineNumber, fromDepth });
    }
  };
  pushForks(main, 0, 0);
  for (let next = stack.pop(); next; next = stack.pop()) {
    const branch: OtherBranch = { ...next, number: out.length + 1 };
    out.push(branch);
    pushForks(branch.line, branch.number, branch.fromDepth);
  }
  return out;
}

/** Messages on the path up to and including each entry of a line that starts after `before` messages. */
function messageDepths(entries: readonly Entry[], before: number): number[] {
  let n = before;
  return entries.map((e) => {
    if (e.type === "message") n++;
    return n;
  });
}

// ---- labels both exporters print ------------------------------------------------------------

/** "User", "Assistant (model)", "Tool result (name)". */
export function messageTitle(m: MessageEntry): string {
  switch (m.role) {
    case "user":
      return "User";
    case "assistant":
      return m.model ? `Assistant (${m.model})` : "Assistant";
    case "tool": {
      const names = [
        ...new Set(m.content.flatMap((b) => (b.type === "tool_result" && b.toolName ? [b.toolName] : []))),
      ];
      const results = m.content.filter((b) => b.type === "tool_result").length;
      const noun = results > 1 ? "Tool results" : "Tool result";
      return names.length > 0 ? `${noun} (${names.join(", ")})` : noun;
    }
    default:
      return assertNever(m.role, "message role");
  }
}

/** A one-line note for a message that did not finish normally; null when it did. */
export function statusNote(m: MessageEntry): string | null {
  switch (m.status) {
    case "complete":
      return m.stopReason === "length" ? "Cut off at the output length limit." : null;
    case "stopped":
      return "Stopped by the user before the reply finished.";
    case "interrupted":
      return "Interrupted: the reply did not finish.";
    case "error":
      return m.error ? `Error (${m.error.kind}): ${oneLine(m.error.message)}` : "Error.";
    default:
      return assertNever(m.status, "message status");
  }
}

/** Whitespace (newlines included) collapsed to single spaces, for headings and one-line notes. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * A short, one-line description of what an entry says, for branch headings: the graph's node
 * title (one rule for an entry's first words), named by kind where it is not a message.
 */
export function entryPreview(e: Entry): string {
  const title = entryTitle(e);
  switch (e.type) {
    case "message":
      return title;
    case "compaction":
      return `Compaction: ${title}`;
    case "branch_summary":
      return `Branch summary: ${title}`;
    case "handoff":
      return `Handoff: ${title}`;
    case "model_change":
    case "thinking_level_change":
      return title;
    case "custom":
      return `Extension data: ${title}`;
    case "context_note":
      return `Note: ${title}`;
    case "command":
      return `Command: ${title}`;
    default:
      return assertNever(e, "entry");
  }
}

/** 12345 → "12,345", the same in every locale so exports are reproducible. */
export function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** ISO 8601 (UTC) for an epoch-ms time; a time Date can't represent prints as "unknown date". */
export function isoDate(ms: number): string {
  return isoTime(ms) ?? UNKNOWN_DATE;
}

/** Pretty JSON for tool arguments; anything JSON can't express (undefined) prints as null. */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? "null";
  } catch {
    // Arguments come from parsed JSON, so this is only reachable with hand-built data (cycles, BigInt).
    return String(value);
  }
}
