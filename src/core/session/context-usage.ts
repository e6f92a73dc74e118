/**
 * The number the context meter shows, and the only function the UI calls for it (DESIGN §3).
 *
 * Until a real tokenizer lands, the provider's own count is the best figure we have: the usage
 * reported on the newest assistant reply covers everything up to and including that reply
 * (input + output), and only what came after it (the user's next message, a branch summary) is
 * estimated, as the difference of `contextTokens` over the same built context, with and without
 * the tail. With no usable report, the whole context is estimated.
 *
 * A report is not used when it describes a different context than the one that would be sent now:
 * it sits before the latest compaction (that context is gone), it came from another api, or from
 * another model when the caller names one (tokenizers differ). No I/O here.
 */
import type { BuildContextOptions } from "./build-context";
import { type CountText, contextTokens } from "./context-tokens";
import type { Entry, MessageEntry, Usage } from "./entries";

export type ContextUsageOptions = BuildContextOptions & {
  /** The model the next request goes to; a report from another model is not reused. */
  model?: string;
};

export type ContextUsage = {
  tokens: number;
  /** "reported": anchored on the provider's usage figure; "estimate": counted with `countText` only. */
  source: "reported" | "estimate";
};

export type ReportedUsage = {
  /** Index of the reply in `path`. */
  index: number;
  entry: MessageEntry;
  usage: Usage;
};

/**
 * The usage on the newest assistant reply of `path` that reported one, looking back from the leaf
 * and stopping at the latest compaction (usage from before it measured a context that no longer
 * exists). Error replies are passed over. Null if there is none.
 */
export function lastReportedUsage(path: readonly Entry[]): ReportedUsage | null {
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i];
    if (!entry) continue;
    if (entry.type === "compaction") return null;
    if (entry.type !== "message" || entry.role !== "assistant" || entry.status === "error") continue;
    if (entry.usage) return { index: i, entry, usage: entry.usage };
  }
  return null;
}

/** Tokens in the context `path` would send now, anchored on the provider's report when it applies. */
export function contextUsage(path: readonly Entry[], opts: ContextUsageOptions, countText: CountText): ContextUsage {
  const buildOpts: BuildContextOptions = { systemPrompt: opts.systemPrompt, targetApi: opts.targetApi };
  const total = contextTokens(path, buildOpts, countText);
  const report = lastReportedUsage(path);
  const usable =
    report !== null &&
    (report.entry.api === undefined || report.entry.api === opts.targetApi) &&
    (opts.model === undefined || report.entry.model === undefined || report.entry.model === opts.model);
  if (!usable) return { tokens: total, source: "estimate" };
  const upToReply = contextTokens(path.slice(0, report.index + 1), buildOpts, countText);
  const after = Math.max(0, total - upToReply);
  return { tokens: report.usage.input + report.usage.output + after, source: "reported" };
}
