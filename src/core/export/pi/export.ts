/**
 * A Grove session out as a pi coding-agent session file (JSONL, format version 3) pi can open:
 * `exportPiJsonl`. Pure: data in, text out. import.ts reads such a file back.
 *
 * Representation choices:
 * - Entries come parents first, the leaf's branch last, so the leaf is the last entry and pi
 *   resumes where Grove was. (A leaf that has children cannot be last; pi then opens at its last
 *   descendant.) Labels and the title follow as `label` / `session_info` lines chained after it,
 *   as pi itself writes them; pi's leaf logic and context skip both.
 * - A handoff entry → a `custom_message` (customType "grove-handoff") whose content is the handoff
 *   context Grove's model sees, so pi's model sees it too; its `details` carry the document and
 *   links, and the import turns it back into a handoff entry.
 * - Grove-only fields pi has no place for ride along in a `grove` field pi ignores: a compaction's
 *   shortSummary, keptUserTurnIds, tokensAfter, reason, instructions and model; a branch summary's
 *   model and instructions; the title's source. `details` stay exactly as they were.
 * - Not kept: the system prompt, the session model (pi derives it from the messages), `continues`,
 *   "interrupted" (written as aborted), error kinds, image data, usage cost (written as 0).
 */
import { textFileText } from "../../attachments/attachment-text";
import { fillTemplate, HANDOFF_CONTEXT } from "../../prompts";
import { toolCallText, toolResultText } from "../../session/build-context";
import {
  type ApiKind,
  assertNever,
  type Block,
  type CompactionEntry,
  type Entry,
  type MessageEntry,
} from "../../session/entries";
import type { EntryId } from "../../session/ids";
import { buildTreeIndex, childrenOf, pathToRoot } from "../../session/tree";
import type { ExportedSession } from "../grove-json";
import {
  type BranchSummaryGrove,
  type CompactionGrove,
  GROVE_HANDOFF_CUSTOM_TYPE,
  type HandoffDetails,
  isJson,
  type Json,
  MODEL_CHANGE_NOTE,
  PI_IMAGE_OMITTED,
  PI_SESSION_VERSION,
  type SessionInfoGrove,
} from "./format";

function isoOf(ms: number): string {
  // Date's range is ±8.64e15 ms; anything outside (never from Grove) would throw.
  return new Date(Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? ms : 0).toISOString();
}

/** Parents before children; at every fork the branch holding the leaf goes last, so the leaf is last. */
function parentsFirst(entries: readonly Entry[], leafId: EntryId | null): Entry[] {
  const index = buildTreeIndex(entries);
  const onLeafPath = new Set<EntryId>(leafId ? pathToRoot(index, leafId).map((e) => e.id) : []);
  const leafBranchLast = (list: readonly Entry[]): Entry[] => [
    ...list.filter((e) => !onLeafPath.has(e.id)),
    ...list.filter((e) => onLeafPath.has(e.id)),
  ];
  const out: Entry[] = [];
  // Entries in a parent cycle are reachable from no root and are not written (a valid session has none).
  const stack = leafBranchLast(index.roots).reverse();
  for (let e = stack.pop(); e; e = stack.pop()) {
    out.push(e);
    stack.push(...leafBranchLast(childrenOf(index, e.id)).reverse());
  }
  return out;
}

/** Grove's api names → pi's; pi's `api` is an open string, so an unknown one says so. */
function piApiOf(api: ApiKind | undefined): string {
  if (api === "anthropic-messages") return "anthropic-messages";
  if (api === "openai-responses") return "openai-responses";
  if (api === "openai-chat") return "openai-completions";
  return "unknown";
}

function piStopReasonOf(e: MessageEntry): string {
  if (e.status === "stopped" || e.status === "interrupted") return "aborted";
  if (e.status === "error") return "error";
  switch (e.stopReason) {
    case "end":
    case "refusal": // pi has no refusal reason: the reply simply ended
      return "stop";
    case "length":
      return "length";
    case "tool_use":
      return "toolUse";
    case "aborted":
      return "aborted";
    case "error":
      return "error";
    case undefined:
      return e.content.some((b) => b.type === "tool_call") ? "toolUse" : "stop";
    default:
      return assertNever(e.stopReason, "stop reason");
  }
}

/** A block pi's message of this role cannot hold, as text (tool blocks as build-context writes them). */
function asPiText(b: Block): Json | null {
  switch (b.type) {
    case "text":
      return { type: "text", text: b.text };
    case "image":
    case "document":
      return { type: "text", text: PI_IMAGE_OMITTED };
    case "text_file":
      return { type: "text", text: textFileText(b) };
    case "tool_call":
      return { type: "text", text: toolCallText(b.name, b.args) };
    case "tool_result":
      return { type: "text", text: toolResultText(b.text, b.toolName, b.isError) };
    case "thinking": // reasoning outside an assistant reply has no place in pi
    case "reasoning":
      return null;
    default:
      return assertNever(b, "block");
  }
}

function assistantContent(content: readonly Block[]): Json[] {
  const out: Json[] = [];
  for (const b of content) {
    if (b.type === "thinking") {
      const sig = b.redactedData ?? b.signature;
      out.push({
        type: "thinking",
        thinking: b.text,
        ...(sig ? { thinkingSignature: sig } : {}),
        ...(b.redactedData ? { redacted: true } : {}),
      });
    } else if (b.type === "reasoning") {
      // pi's form of a Responses reasoning item: a thinking block signed with the item as JSON.
      const item = {
        type: "reasoning",
        id: b.id,
        summary: b.summary.map((text) => ({ type: "summary_text", text })),
        ...(b.encryptedContent !== undefined ? { encrypted_content: b.encryptedContent } : {}),
      };
      out.push({ type: "thinking", thinking: b.summary.join("\n\n"), thinkingSignature: JSON.stringify(item) });
    } else if (b.type === "tool_call") {
      // pi's arguments are an object; anything else (a hand-made import) is wrapped, not lost.
      out.push({ type: "toolCall", id: b.id, name: b.name, arguments: isJson(b.args) ? b.args : { input: b.args } });
    } else {
      const t = asPiText(b);
      if (t) out.push(t);
    }
  }
  return out;
}

function piMessageOf(e: MessageEntry): Json {
  const timestamp = e.createdAt;
  switch (e.role) {
    case "user": {
      const content = e.content.map(asPiText).filter((b): b is Json => b !== null);
      return { role: "user", content, timestamp };
    }
    case "assistant": {
      const cacheRead = e.usage?.cacheRead ?? 0;
      const cacheWrite = e.usage?.cacheWrite ?? 0;
      const output = e.usage?.output ?? 0;
      const input = Math.max(0, (e.usage?.input ?? 0) - cacheRead - cacheWrite);
      const stopReason = piStopReasonOf(e);
      return {
        role: "assistant",
        content: assistantContent(e.content),
        api: piApiOf(e.api),
        provider: e.provider ?? "unknown",
        model: e.model ?? "unknown",
        usage: {
          input,
          output,
          cacheRead,
          cacheWrite,
          totalTokens: input + output + cacheRead + cacheWrite,
          // Grove keeps no prices: 0, not a guess.
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason,
        ...(e.status !== "complete" && e.error ? { errorMessage: e.error.message } : {}),
        timestamp,
      };
    }
    case "tool": {
      // pi has one result per message: the first tool_result names the call, every block is content.
      const result = e.content.find((b) => b.type === "tool_result");
      const content = e.content
        .map((b) => (b.type === "tool_result" ? { type: "text", text: b.text } : asPiText(b)))
        .filter((b): b is Json => b !== null);
      if (!result) return { role: "user", content, timestamp };
      return {
        role: "toolResult",
        toolCallId: result.callId,
        toolName: result.toolName ?? "",
        content,
        isError: result.isError,
        timestamp,
      };
    }
    default:
      return assertNever(e.role, "role");
  }
}

function piLineOf(e: Entry, parentId: EntryId | null): Json {
  const base = { id: e.id, parentId, timestamp: isoOf(e.createdAt) };
  switch (e.type) {
    case "message": {
      const only = e.content.length === 1 ? e.content[0] : undefined;
      const note = e.role === "user" && only?.type === "text" ? MODEL_CHANGE_NOTE.exec(only.text) : null;
      if (note?.[1] && note[2]) return { type: "model_change", ...base, provider: note[2], modelId: note[1] };
      return { type: "message", ...base, message: piMessageOf(e) };
    }
    case "compaction":
      return {
        type: "compaction",
        ...base,
        summary: e.summary,
        // Omitted when null: pi then keeps only what follows the compaction, as Grove does.
        ...(e.firstKeptEntryId !== null ? { firstKeptEntryId: e.firstKeptEntryId } : {}),
        tokensBefore: e.tokensBefore,
        ...(e.details !== undefined ? { details: e.details } : {}),
        ...piPreserveData(e),
        grove: {
          shortSummary: e.shortSummary,
          keptUserTurnIds: e.keptUserTurnIds,
          tokensAfter: e.tokensAfter,
          reason: e.reason,
          ...(e.instructions !== undefined ? { instructions: e.instructions } : {}),
          model: e.model,
          ...(e.compactedBy !== undefined ? { compactedBy: e.compactedBy } : {}),
          ...(e.nativeFallback !== undefined ? { nativeFallback: e.nativeFallback } : {}),
          ...(e.preserveData !== undefined ? { preserveData: e.preserveData } : {}),
        } satisfies CompactionGrove,
      };
    case "branch_summary":
      return {
        type: "branch_summary",
        ...base,
        fromId: e.fromId,
        summary: e.summary,
        ...(e.details !== undefined ? { details: e.details } : {}),
        grove: {
          model: e.model,
          ...(e.instructions !== undefined ? { instructions: e.instructions } : {}),
        } satisfies BranchSummaryGrove,
      };
    case "handoff":
      return {
        type: "custom_message",
        ...base,
        customType: GROVE_HANDOFF_CUSTOM_TYPE,
        content: fillTemplate(HANDOFF_CONTEXT, { document: e.document }),
        display: true,
        details: {
          document: e.document,
          fromSessionId: e.fromSessionId,
          fromEntryId: e.fromEntryId,
        } satisfies HandoffDetails,
      };
    default:
      return assertNever(e, "entry");
  }
}

/** The session as a pi v3 JSONL file: every branch, the leaf last, labels and title after it. */
export function exportPiJsonl(s: ExportedSession): string {
  const { session, entries, labels } = s;
  const entryIds = new Set<string>(entries.map((e) => e.id));
  const known = new Set<string>(entryIds);
  const lines: Json[] = [
    {
      type: "session",
      version: PI_SESSION_VERSION,
      id: piSessionId(session),
      timestamp: isoOf(session.createdAt),
      cwd: "",
    },
  ];
  let last: string | null = null;
  for (const e of parentsFirst(entries, session.leafId)) {
    lines.push(piLineOf(e, e.parentId !== null && entryIds.has(e.parentId) ? e.parentId : null));
    last = e.id;
  }
  // Labels and the title as pi writes them: each a child of the line before, after the leaf.
  let n = 0;
  const freshId = (): string => {
    let id = `grove-meta-${++n}`;
    while (known.has(id)) id = `grove-meta-${++n}`;
    known.add(id);
    return id;
  };
  const timestamp = isoOf(session.updatedAt);
  for (const [targetId, label] of Object.entries(labels)) {
    if (!entryIds.has(targetId)) continue;
    const id = freshId();
    lines.push({ type: "label", id, parentId: last, timestamp, targetId, label });
    last = id;
  }
  if (session.title.trim() !== "") {
    const id = freshId();
    lines.push({
      type: "session_info",
      id,
      parentId: last,
      timestamp,
      name: session.title,
      grove: { titleSource: session.titleSource } satisfies SessionInfoGrove,
    });
  }
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

/** A session that came from pi goes back under its pi id (pi and a later import know it by that). */
function piSessionId(session: ExportedSession["session"]): string {
  const from = session.importedFrom;
  return from?.startsWith("pi:") ? from.slice("pi:".length) : session.id;
}

/**
 * What pi writes for an OpenAI remote compaction: `preserveData.openaiRemoteCompaction` with the
 * provider and the replacement history (the `responses.compact` output) and its compaction item.
 * Anthropic's block has no pi counterpart: it rides in the `grove` field only.
 */
function piPreserveData(e: CompactionEntry): { preserveData?: Json } {
  const remote = e.compactedBy === "openai" ? e.preserveData?.openaiRemoteCompaction : undefined;
  if (!remote) return {};
  const compactionItem = remote.items.find(
    (i) => typeof i === "object" && i !== null && (i as { type?: unknown }).type === "compaction",
  );
  return {
    preserveData: {
      openaiRemoteCompaction: {
        provider: remote.provider,
        replacementHistory: remote.items as Json[],
        ...(compactionItem !== undefined ? { compactionItem: compactionItem as Json } : {}),
      },
    },
  };
}
