/**
 * Provider-native compaction in the context (issue 10, seed 002 "Remote summarization modes"): which
 * native material of a compaction entry goes to the target provider, and the "floor" that travels
 * right after it. The material goes back only to the provider that made it (same api AND same
 * provider id, like reasoning items); every other target gets Grove's own summary.
 *
 * The floor is Grove's guarantee on top of the provider's summary: the kept user turns (verbatim)
 * and the `<verbatim_tail>` in one user-role message, so a planted user fact is in the next request
 * whatever the provider's summary says.
 *
 * Pure: no I/O.
 */
import type { ApiKind, CompactionEntry } from "./entries";

/** What an adapter sends before the messages, verbatim. */
export type NativeContextPrefix =
  /** OpenAI Responses: the `responses.compact` output items, first in `input`. */
  | { readonly kind: "openai"; readonly items: readonly unknown[] }
  /** Anthropic Messages: the `compaction` block, first in `messages` (an assistant turn). */
  | { readonly kind: "anthropic"; readonly block: Readonly<Record<string, unknown>> };

/** The native material `compaction` holds for this target, or null (Grove's summary is sent). */
export function nativePrefixFor(
  compaction: CompactionEntry,
  targetApi: ApiKind,
  targetProviderId: string | undefined,
): NativeContextPrefix | null {
  if (targetProviderId === undefined) return null;
  const data = compaction.preserveData;
  const openai = data?.openaiRemoteCompaction;
  if (
    compaction.compactedBy === "openai" &&
    openai &&
    openai.api === targetApi &&
    openai.provider === targetProviderId &&
    openai.items.length > 0
  ) {
    return { kind: "openai", items: openai.items };
  }
  const anthropic = data?.anthropicCompaction;
  if (
    compaction.compactedBy === "anthropic" &&
    anthropic &&
    anthropic.api === targetApi &&
    anthropic.provider === targetProviderId
  ) {
    return { kind: "anthropic", block: anthropic.block };
  }
  return null;
}

const TAIL_BLOCK = /<verbatim_tail\b[^<>]*>[\s\S]*?<\/verbatim_tail\s*>/i;

/** The `<verbatim_tail>` block of Grove's summary (core/compaction/verbatim-tail.ts writes it), or null. */
function verbatimTailOf(summary: string): string | null {
  return TAIL_BLOCK.exec(summary)?.[0] ?? null;
}

/** Heads the floor message: says what it is, so the model reads the turns as the user's own words. */
export const NATIVE_FLOOR_INTRO =
  "The earlier part of this conversation was compacted above. The user's own messages from it, kept word for word, and the last words of the assistant before the cut:";

/** The floor message text: kept user turns (each in `<user_message>`), pins and the tail; null when there is none. */
export function nativeFloorText(
  compaction: CompactionEntry,
  keptTurns: readonly string[],
  /** Pinned messages, each already in its `<pinned_message>` tags (build-context.ts). */
  pinned: readonly string[] = [],
): string | null {
  const parts = [...keptTurns.map((t) => `<user_message>\n${t}\n</user_message>`), ...pinned];
  const tail = verbatimTailOf(compaction.summary);
  if (tail !== null) parts.push(tail);
  return parts.length > 0 ? [NATIVE_FLOOR_INTRO, ...parts].join("\n\n") : null;
}
