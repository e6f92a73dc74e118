/**
 * What the model sees (DESIGN §3): the one function that turns a root→leaf path of entries into
 * the system prompt and messages sent to a provider. The chat, the context meter, the threshold
 * checks, the compactor and the handoff all call it, and `contextTokens` counts its output, so
 * there is exactly one answer to "what is in the context".
 *
 * Rules, in order:
 * 1. System prompt as given; if a compaction summary is in the context, the compacted-system note
 *    (prompts/compacted-system-note.md) is appended after a blank line.
 * 2. Only the LATEST compaction on the path counts. It becomes one user-role message
 *    (prompts/compaction-summary-context.md): the handoff framing, then the kept user turns
 *    (`keptUserTurnIds` found on the path before the kept region, in path order, each verbatim in
 *    `<user_message>` tags; ids not on the path are skipped), then the stored `summary`.
 * 3. Then the path from `firstKeptEntryId` on (from the root without a compaction). If
 *    `firstKeptEntryId` is null, or not on the path before the compaction entry, the kept region
 *    is what follows the compaction entry. Compaction entries inside the kept region are skipped
 *    (superseded by the latest one).
 *    - `branch_summary` / `handoff` → user-role messages from their prompts/ templates.
 *    - messages with status `error` and no content are skipped; every other message (stopped,
 *      interrupted, error with a partial) is sent as the user saw it.
 *    - a "Continue" reply (`continues` = the assistant message just before it) is joined to that
 *      message with no delimiter, so the continued text reads as one reply.
 *    - `tool` role messages become user-role text; `tool_call` / `tool_result` blocks become text
 *      (`[Tool call: name]` + compact JSON args, `[Tool result: name]` + text; ` (error)` when
 *      `isError`), because Grove declares no tools; image blocks become `[image]`.
 * 4. `normalizeMessages` for the target api (normalize-messages.ts): merging, user first, thinking
 *    only for the api that signed it, reasoning items only for the provider that made them, no
 *    empty messages.
 *
 * Pure: no I/O, no token counting (context-tokens.ts), no tree walking (the caller passes the path).
 */

import {
  BRANCH_SUMMARY_CONTEXT,
  COMPACTED_SYSTEM_NOTE,
  COMPACTION_KEPT_USER_TURNS,
  COMPACTION_SUMMARY_CONTEXT,
  fillTemplate,
  HANDOFF_CONTEXT,
} from "../prompts";
import type { ContextAssistantMessage, ContextMessage, ContextUserMessage, LlmContext } from "./context";
import {
  type ApiKind,
  assertNever,
  type Block,
  type CompactionEntry,
  type Entry,
  type MessageEntry,
  type ReasoningBlock,
  type TextBlock,
  type ThinkingBlock,
} from "./entries";
import type { EntryId } from "./ids";
import { normalizeMessages } from "./normalize-messages";

export type BuildContextOptions = {
  /** The session's system prompt, else the global default. "" = none. */
  systemPrompt: string;
  /** The wire api of the provider the context is for: decides which thinking blocks go back. */
  targetApi: ApiKind;
  /**
   * The provider config id the context is sent to: reasoning items go back only to the provider
   * that produced them. Unset (counting, handoff): none go back.
   */
  targetProviderId?: string;
};

/** Stands in for an image: Grove does not send images back yet, but the model should know one was there. */
export const IMAGE_PLACEHOLDER = "[image]";

/** `[Tool call: name]` followed by the arguments as compact JSON. */
export function toolCallText(name: string, args: unknown): string {
  return `[Tool call: ${name}]\n${jsonText(args)}`;
}

/** `[Tool result: name]` (or `[Tool result]` without a name), ` (error)` if it failed, then the text. */
export function toolResultText(text: string, toolName: string | undefined, isError: boolean): string {
  const label = toolName ? `Tool result: ${toolName}` : "Tool result";
  return `[${label}]${isError ? " (error)" : ""}\n${text}`;
}

function jsonText(value: unknown): string {
  if (value === undefined) return "{}";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // Circular or BigInt args (never from a provider, possibly from a hand-made import).
    return String(value);
  }
}

/** What `blockText` does with a thinking block: keep its visible text, or drop it (null). */
export type BlockTextOptions = { thinking: "keep" | "drop" };

/**
 * A block as plain text: for user-role messages and tool blocks here (thinking dropped: it only goes
 * back as a thinking block), and for counting an entry's context text (thinking kept: it is
 * replayed to its own provider, so it takes up room).
 */
export function blockText(block: Block, opts: { thinking: "keep" }): string;
export function blockText(block: Block, opts: BlockTextOptions): string | null;
export function blockText(block: Block, opts: BlockTextOptions): string | null {
  switch (block.type) {
    case "text":
      return block.text;
    case "thinking":
      return opts.thinking === "keep" ? block.text : null;
    case "reasoning":
      return opts.thinking === "keep" ? block.summary.join("\n\n") : null;
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

/** Whether a message has anything the user saw: non-blank text or thinking, an image, a tool block. */
export function hasContent(content: readonly Block[]): boolean {
  return content.some((b) => {
    switch (b.type) {
      case "text":
        return b.text.trim() !== "";
      case "thinking":
        return b.text.trim() !== "" || Boolean(b.signature) || Boolean(b.redactedData);
      case "reasoning":
        return b.summary.some((s) => s.trim() !== "") || Boolean(b.encryptedContent);
      case "image":
      case "tool_call":
      case "tool_result":
        return true;
      default:
        return assertNever(b, "block");
    }
  });
}

/** An `error` reply with nothing in it never reached the user: it is not part of the conversation. */
export function isSkippedMessage(entry: MessageEntry): boolean {
  return entry.status === "error" && !hasContent(entry.content);
}

function textBlocks(content: readonly Block[]): TextBlock[] {
  const out: TextBlock[] = [];
  for (const b of content) {
    const text = blockText(b, { thinking: "drop" });
    if (text !== null) out.push({ type: "text", text });
  }
  return out;
}

function messageToContext(entry: MessageEntry): ContextMessage {
  switch (entry.role) {
    case "user":
    case "tool":
      return { role: "user", content: textBlocks(entry.content) };
    case "assistant": {
      const content: Array<TextBlock | ThinkingBlock | ReasoningBlock> = [];
      for (const b of entry.content) {
        if (b.type === "thinking" || b.type === "reasoning") content.push(b);
        else content.push({ type: "text", text: blockText(b, { thinking: "drop" }) ?? "" });
      }
      return { role: "assistant", content };
    }
    default:
      return assertNever(entry.role, "role");
  }
}

/** Appends a continuation's blocks to the reply it continues, text flowing on with no delimiter. */
function appendContinuation(prev: ContextAssistantMessage, next: ContextAssistantMessage): ContextAssistantMessage {
  const last = prev.content[prev.content.length - 1];
  const first = next.content[0];
  if (last?.type === "text" && first?.type === "text") {
    return {
      role: "assistant",
      content: [...prev.content.slice(0, -1), { type: "text", text: last.text + first.text }, ...next.content.slice(1)],
    };
  }
  return { role: "assistant", content: [...prev.content, ...next.content] };
}

const userMessage = (text: string): ContextUserMessage => ({ role: "user", content: [{ type: "text", text }] });

function latestCompactionIndex(path: readonly Entry[]): number {
  for (let i = path.length - 1; i >= 0; i--) if (path[i]?.type === "compaction") return i;
  return -1;
}

/** Index of the first entry of the kept region for the compaction at `at` (see rule 3). */
function keptRegionStart(path: readonly Entry[], at: number, compaction: CompactionEntry): number {
  if (compaction.firstKeptEntryId === null) return at + 1;
  const k = path.findIndex((e) => e.id === compaction.firstKeptEntryId);
  // Not on the path, or (never written so) after the compaction: keep only what follows it.
  return k >= 0 && k < at ? k : at + 1;
}

function compactionMessage(path: readonly Entry[], keptStart: number, compaction: CompactionEntry): ContextUserMessage {
  const keptIds = new Set<EntryId>(compaction.keptUserTurnIds);
  const turns: string[] = [];
  // Path order is chronological order. Turns inside the kept region are sent there, not twice.
  for (let i = 0; i < keptStart; i++) {
    const e = path[i];
    if (e?.type !== "message" || e.role !== "user" || !keptIds.has(e.id)) continue;
    const text = textBlocks(e.content)
      .map((b) => b.text)
      .join("\n\n");
    turns.push(`<user_message>\n${text}\n</user_message>`);
  }
  const keptUserTurns = turns.length > 0 ? fillTemplate(COMPACTION_KEPT_USER_TURNS, { turns: turns.join("\n\n") }) : "";
  return userMessage(fillTemplate(COMPACTION_SUMMARY_CONTEXT, { keptUserTurns, summary: compaction.summary }));
}

/** The context for `path` (root first, as `pathToRoot` returns it), normalized for `opts.targetApi`. */
export function buildContext(path: readonly Entry[], opts: BuildContextOptions): LlmContext {
  const messages: ContextMessage[] = [];
  const at = latestCompactionIndex(path);
  let start = 0;
  if (at >= 0) {
    const compaction = path[at] as CompactionEntry;
    start = keptRegionStart(path, at, compaction);
    messages.push(compactionMessage(path, start, compaction));
  }

  // The entry behind the last message pushed, so a "Continue" reply can find the reply it extends.
  let lastMessageEntryId: EntryId | null = null;
  for (let i = start; i < path.length; i++) {
    const entry = path[i];
    if (!entry) continue;
    switch (entry.type) {
      case "compaction":
        continue;
      case "branch_summary":
        messages.push(userMessage(fillTemplate(BRANCH_SUMMARY_CONTEXT, { summary: entry.summary })));
        lastMessageEntryId = entry.id;
        continue;
      case "handoff":
        messages.push(userMessage(fillTemplate(HANDOFF_CONTEXT, { document: entry.document })));
        lastMessageEntryId = entry.id;
        continue;
      case "message": {
        if (isSkippedMessage(entry)) continue;
        const message = messageToContext(entry);
        const prev = messages[messages.length - 1];
        if (
          message.role === "assistant" &&
          prev?.role === "assistant" &&
          entry.continues !== undefined &&
          entry.continues === lastMessageEntryId
        ) {
          messages[messages.length - 1] = appendContinuation(prev, message);
        } else {
          messages.push(message);
        }
        lastMessageEntryId = entry.id;
        continue;
      }
      default:
        assertNever(entry, "entry");
    }
  }

  const system =
    at >= 0 ? [opts.systemPrompt.trimEnd(), COMPACTED_SYSTEM_NOTE].filter(Boolean).join("\n\n") : opts.systemPrompt;
  return { system, messages: normalizeMessages(messages, opts.targetApi, opts.targetProviderId) };
}
