/**
 * Tool-output pruning (seed 002 "pre-compaction pruning"), as a rule of the context builder:
 * entries stay immutable; which tool results are sent as `[Output truncated - N tokens]` is a pure
 * function of the sent part of the path, so the same path always rebuilds the same request, the
 * meter counts the pruned request, and the chat marks the same results.
 *
 * Rules, walking the sent tool results newest → oldest:
 * 1. The newest `PRUNE_PROTECT_TOKENS` of tool output (every tool's, `read` included) are protected;
 *    the result that crosses that line is protected whole (so the newest result never is pruned),
 *    and every older one is a candidate.
 * 2. `read` and skill results are never candidates (the model re-reads files it still needs).
 * 3. Candidates are pruned only when together they save at least `PRUNE_MIN_SAVINGS_TOKENS`;
 *    otherwise nothing is (a cache-breaking rewrite must be worth it).
 * Sizes are the tokenizer-free estimate (estimate.ts): deterministic everywhere, worker or not.
 *
 * Pure: no I/O.
 */
import { estimateTokens } from "../tokens/estimate";
import type { Entry, ToolResultBlock } from "./entries";
import { toolResultModelText } from "./entry-text";
import type { EntryId } from "./ids";

export const PRUNE_PROTECT_TOKENS = 40_000;
export const PRUNE_MIN_SAVINGS_TOKENS = 20_000;
/** Tools whose output is never pruned (pi: `read` and skills). */
const NEVER_PRUNED = /^(read|skill)$|^skill[_:-]/i;

/** Pruned tool results: entry id → block index → the result's estimated tokens. */
export type PrunedOutputs = ReadonlyMap<EntryId, ReadonlyMap<number, number>>;

const NO_PRUNING: PrunedOutputs = new Map();

/** The text a pruned result is sent as. */
export function prunedOutputText(tokens: number): string {
  return `[Output truncated - ${tokens} tokens]`;
}

export type PruneOptions = {
  protectTokens?: number;
  minSavingsTokens?: number;
};

/** Which tool results in `path[from…]` are pruned (rules above). */
export function prunedToolOutputs(path: readonly Entry[], from = 0, opts: PruneOptions = {}): PrunedOutputs {
  const protect = opts.protectTokens ?? PRUNE_PROTECT_TOKENS;
  const minSavings = opts.minSavingsTokens ?? PRUNE_MIN_SAVINGS_TOKENS;
  const toolNames = callNames(path, from);
  const candidates: Array<{ id: EntryId; index: number; tokens: number }> = [];
  let seen = 0;
  let savings = 0;
  for (let i = path.length - 1; i >= from; i--) {
    const e = path[i];
    if (e?.type !== "message") continue;
    for (let b = e.content.length - 1; b >= 0; b--) {
      const block = e.content[b];
      if (block?.type !== "tool_result") continue;
      // What the model is sent: a result already cut for the model counts as cut.
      const tokens = estimateTokens(toolResultModelText(block));
      const newer = seen;
      seen += tokens;
      if (newer < protect) continue;
      if (NEVER_PRUNED.test(toolName(block, toolNames))) continue;
      candidates.push({ id: e.id, index: b, tokens });
      savings += tokens;
    }
  }
  if (savings < minSavings) return NO_PRUNING;
  const out = new Map<EntryId, Map<number, number>>();
  for (const c of candidates) {
    const blocks = out.get(c.id) ?? new Map<number, number>();
    blocks.set(c.index, c.tokens);
    out.set(c.id, blocks);
  }
  return out;
}

/** A result's tool: its own `toolName`, else the name on the call it answers. */
function toolName(block: ToolResultBlock, names: ReadonlyMap<string, string>): string {
  return block.toolName ?? names.get(block.callId) ?? "";
}

function callNames(path: readonly Entry[], from: number): Map<string, string> {
  const names = new Map<string, string>();
  for (let i = from; i < path.length; i++) {
    const e = path[i];
    if (e?.type !== "message") continue;
    for (const b of e.content) if (b.type === "tool_call") names.set(b.id, b.name);
  }
  return names;
}

/** `entry`'s content as sent: pruned results' text replaced by the truncation marker. */
export function withPrunedOutputs<B extends { type: string }>(
  content: readonly B[],
  pruned: ReadonlyMap<number, number> | undefined,
): B[] {
  if (!pruned) return [...content];
  return content.map((b, i) => {
    const tokens = pruned.get(i);
    if (tokens === undefined || b.type !== "tool_result") return b;
    // The marker replaces the whole result: a cut's note no longer applies to it.
    const { shownChars: _shown, originalChars: _original, ...rest } = b as B & ToolResultBlock;
    return { ...rest, text: prunedOutputText(tokens) } as B;
  });
}
