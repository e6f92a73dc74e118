/**
 * Who compacted, in words (issue 10): the compaction card and the graph's compaction node say the
 * same thing. Pure.
 */
import type { CompactionEntry } from "../../core/session/entries";

export function compactedByLabel(entry: CompactionEntry): string {
  switch (entry.compactedBy) {
    case "openai":
      return "Compacted by OpenAI";
    case "anthropic":
      return "Compacted by Claude";
    case "grove":
    case undefined:
      return "Grove summary";
  }
}

/** Why the provider's own compaction was not used, when it was asked for and failed; else null. */
export function nativeFallbackNote(entry: CompactionEntry): string | null {
  if (entry.nativeFallback === undefined) return null;
  return `The provider's own compaction failed (${entry.nativeFallback}); Grove's summary is used instead.`;
}

/** The readable text of the provider's native summary, when it has one (Claude's compaction block). */
export function nativeSummaryText(entry: CompactionEntry): string | null {
  const content = entry.preserveData?.anthropicCompaction?.block.content;
  return entry.compactedBy === "anthropic" && typeof content === "string" && content.trim() !== "" ? content : null;
}
