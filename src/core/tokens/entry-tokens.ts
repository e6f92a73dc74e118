/**
 * Per-entry token counts, for the `tokenCounts` cache (`[entryId+encoding] -> count`) and for the
 * compaction engine, which sums them instead of re-tokenizing a long path. Entries are immutable,
 * so a count keyed by entry id and encoding never goes stale: count each entry once, store it,
 * reuse it.
 *
 * An entry's count is what it adds to a built context when it is sent on its own (as
 * `countContextTokens` counts): `MESSAGE_OVERHEAD_TOKENS` plus each of its texts as
 * `buildContext` renders them (images as `[image]`, tool blocks as text, branch summaries and
 * handoffs through their templates, a compaction as its summary message without the kept user
 * turns, which their own entries count). Thinking is counted by its visible text, as it is when
 * sent back to the provider that signed it, so elsewhere the sum is a slight overestimate. Merging
 * adjacent same-role messages makes the real context a few overhead tokens smaller than the sum.
 * Pure: no I/O here; the worker counts, state/ reads and writes the cache through db/.
 */
import { BRANCH_SUMMARY_CONTEXT, COMPACTION_SUMMARY_CONTEXT, fillTemplate, HANDOFF_CONTEXT } from "../prompts";
import { IMAGE_PLACEHOLDER, isSkippedMessage, toolCallText, toolResultText } from "../session/build-context";
import { type CountText, MESSAGE_OVERHEAD_TOKENS } from "../session/context-tokens";
import { assertNever, type Block, type Entry } from "../session/entries";
import type { EntryId } from "../session/ids";
import type { TokenEncoding } from "./models";

/** The `tokenCounts` primary key of an entry's count: `[entryId, encoding]`. */
export function entryTokenKey(entry: Pick<Entry, "id">, encoding: TokenEncoding): [EntryId, TokenEncoding] {
  return [entry.id, encoding];
}

/** A row of the `tokenCounts` table (the same shape as db/'s `TokenCountRow`). */
export type EntryTokenCount = { entryId: EntryId; encoding: TokenEncoding; count: number };

function blockText(block: Block): string {
  switch (block.type) {
    case "text":
    case "thinking":
      return block.text;
    case "image":
      return IMAGE_PLACEHOLDER;
    case "tool_call":
      return toolCallText(block.name, block.args);
    case "tool_result":
      return toolResultText(block.text, block.toolName, block.isError);
    default:
      return assertNever(block, "block");
  }
}

/** The texts `entry` contributes to a context, each counted separately (empty: it sends nothing). */
export function entryContextTexts(entry: Entry): string[] {
  switch (entry.type) {
    case "message":
      return isSkippedMessage(entry) ? [] : entry.content.map(blockText);
    case "compaction":
      return [fillTemplate(COMPACTION_SUMMARY_CONTEXT, { keptUserTurns: "", summary: entry.summary })];
    case "branch_summary":
      return [fillTemplate(BRANCH_SUMMARY_CONTEXT, { summary: entry.summary })];
    case "handoff":
      return [fillTemplate(HANDOFF_CONTEXT, { document: entry.document })];
    default:
      return assertNever(entry, "entry");
  }
}

/** Tokens `entry` adds to a context: 0 if it sends nothing, else overhead + its texts. */
export function countEntryTokens(entry: Entry, countText: CountText): number {
  const texts = entryContextTexts(entry);
  if (texts.length === 0) return 0;
  let total = MESSAGE_OVERHEAD_TOKENS;
  for (const text of texts) total += countText(text);
  return total;
}

/** The entries of `entries` without a count in `cached` (each once, in order): what is left to count. */
export function uncountedEntries(entries: readonly Entry[], cached: ReadonlyMap<EntryId, number>): Entry[] {
  const seen = new Set<EntryId>();
  const out: Entry[] = [];
  for (const entry of entries) {
    if (cached.has(entry.id) || seen.has(entry.id)) continue;
    seen.add(entry.id);
    out.push(entry);
  }
  return out;
}

/** Rows to store for fresh `counts` (as `countEntries` in the worker returns them). */
export function entryTokenRows(counts: Readonly<Record<EntryId, number>>, encoding: TokenEncoding): EntryTokenCount[] {
  return (Object.entries(counts) as Array<[EntryId, number]>).map(([entryId, count]) => ({ entryId, encoding, count }));
}

/**
 * Every entry's count: from `cached` where present, else `counted` (fresh counts); entries in
 * neither are missing from the result. The sum over a path is then one addition per entry.
 */
export function mergeEntryCounts(
  entries: readonly Entry[],
  cached: ReadonlyMap<EntryId, number>,
  counted: Readonly<Record<EntryId, number>>,
): Map<EntryId, number> {
  const out = new Map<EntryId, number>();
  for (const entry of entries) {
    const count = cached.get(entry.id) ?? counted[entry.id];
    if (count !== undefined) out.set(entry.id, count);
  }
  return out;
}
