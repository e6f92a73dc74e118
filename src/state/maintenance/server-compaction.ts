/**
 * "Let Claude compact on the server" (issue 10): the chat request to an Anthropic provider asks for
 * the `context_management` edit `compact_20260112` at Grove's own threshold, and a reply that
 * carries a `compaction` block has it stored, never dropped: a compaction entry after the reply,
 * holding the block verbatim (`preserveData.anthropicCompaction`, `compactedBy: "anthropic"`), its
 * readable content as the summary other providers get, the reply as the first kept entry (the block
 * summarizes everything before it), and the user's turns so far kept verbatim (Grove's floor).
 */
import { clampLine, firstSentence } from "../../core/compaction/digest";
import type { AnthropicCompaction, CompactionEntry, Entry, MessageEntry } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { newEntryId } from "../../core/session/ids";
import { planContext } from "../../core/session/plan-context";
import { appendEntries } from "../../db/entries";
import type { StreamRequest } from "../../providers/types";
import { pushNotice } from "../app/ui-store";
import { type ChatTarget, thresholdOf } from "../models/chat-target";
import type { Settings } from "../settings/settings-model";

export function serverCompactionFor(target: ChatTarget, settings: Settings): Pick<StreamRequest, "serverCompaction"> {
  if (settings.compaction.serverCompaction !== true || target.provider.api !== "anthropic-messages") return {};
  return { serverCompaction: { triggerTokens: thresholdOf(target, settings.compaction) } };
}

/** The entry that keeps a reply's compaction block (pure; `path` ends at the reply's parent). */
export function serverCompactionEntry(
  reply: MessageEntry,
  block: AnthropicCompaction["block"],
  path: readonly Entry[],
  now: number,
): CompactionEntry {
  const plan = planContext(path);
  const kept = new Set<EntryId>(plan.keptUserTurns.map((e) => e.id));
  for (let i = plan.keptStart; i < path.length; i++) {
    const e = path[i];
    if (e?.type === "message" && e.role === "user") kept.add(e.id);
  }
  const content = typeof block.content === "string" ? block.content : "";
  return {
    type: "compaction",
    id: newEntryId(),
    sessionId: reply.sessionId,
    parentId: reply.id,
    createdAt: now,
    summary: content,
    shortSummary: firstSentence(content) ?? (clampLine(content) || "Compacted by Claude on the server"),
    firstKeptEntryId: reply.id,
    keptUserTurnIds: [...kept],
    tokensBefore: reply.usage?.input ?? 0,
    tokensAfter: 0,
    reason: "threshold",
    model: reply.model ?? "",
    compactedBy: "anthropic",
    preserveData: {
      anthropicCompaction: {
        api: reply.api ?? "anthropic-messages",
        provider: reply.provider ?? "",
        model: reply.model ?? "",
        block,
      },
    },
  };
}

/** Appends the entry after the reply (which must still be the leaf); says so if it could not. */
export async function keepServerCompaction(
  sessionId: SessionId,
  reply: MessageEntry,
  block: AnthropicCompaction["block"],
  path: readonly Entry[],
  now: number,
): Promise<void> {
  const entry = serverCompactionEntry(reply, block, path, now);
  const ok = await appendEntries(
    sessionId,
    [entry],
    { kind: "only-if-leaf-is", expected: reply.id, to: entry.id },
    now,
  ).then(
    () => true,
    () => false,
  );
  if (!ok) pushNotice("error", "Claude compacted the conversation on the server, but Grove could not save it.");
}
