/**
 * Server-side compaction in an Anthropic reply (issue 10): with the `context_management` edit
 * `compact_20260112`, a reply may begin with a `compaction` block (`content_block_start`, then a
 * `compaction_delta` carrying its final `content` and `encrypted_content`). It is kept on the
 * partial verbatim (`AssistantPartial.compaction`), never shown as text and never dropped; the chat
 * stores it on a compaction entry (state/maintenance/server-compaction.ts).
 *
 * The stable SDK's event union has no compaction members, so events are read structurally.
 */
import type { AnthropicCompaction } from "../core/session/entries";
import type { AssistantPartial } from "./types";

type Block = AnthropicCompaction["block"];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** Applies a compaction event to `partial`; true when the event was one (the caller ignores it then). */
export function applyCompactionEvent(event: unknown, partial: AssistantPartial): boolean {
  if (!isRecord(event)) return false;
  if (
    event.type === "content_block_start" &&
    isRecord(event.content_block) &&
    event.content_block.type === "compaction"
  ) {
    partial.compaction = { ...(event.content_block as Block) };
    return true;
  }
  if (event.type === "content_block_delta" && isRecord(event.delta) && event.delta.type === "compaction_delta") {
    const delta = event.delta;
    if (partial.compaction) {
      const next: Record<string, unknown> = { ...partial.compaction, content: delta.content ?? null };
      if ("encrypted_content" in delta) next.encrypted_content = delta.encrypted_content;
      partial.compaction = next as Block;
    }
    return true;
  }
  return false;
}
