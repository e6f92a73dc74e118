/**
 * Tool pairs are never split in a request (issue 28): the last step of `normalizeMessages`, after
 * merging, so it sees the messages exactly as they go out. Providers reject a call without its answer
 * (Anthropic: "`tool_use` ids were found without `tool_result` blocks immediately after"; Chat
 * Completions and Responses alike) and an answer without its call, so:
 *
 * 1. A `tool_call` stays native only when the message right after its assistant message is a user
 *    message holding a `tool_result` for it (the first one for that id; a repeated call id pairs once).
 * 2. Paired results move to the front of that user message, in call order (Anthropic wants them
 *    first; Chat Completions sends them as `tool` messages before the rest).
 * 3. Every other `tool_call` and `tool_result` becomes the text it is sent as elsewhere
 *    (`[Tool call: …]`, `[Tool result: …]`), in its place: a stopped step, a result whose call was
 *    folded by a compaction, a branch cut between them.
 * 4. A server tool's `use` stays native only with its `result` after it in the same message, and that
 *    result only with its use before it; a Responses `item` holds both and always stays.
 *
 * Pure: inputs are never mutated.
 */

import { atPause, finish, type Steps } from "../steps";
import type { ContextAssistantMessage, ContextMessage, ContextUserMessage } from "./context";
import type { ServerToolBlock, ToolResultBlock } from "./entries";
import { serverToolText, toolCallText, toolResultText } from "./entry-text";

type AssistantBlock = ContextAssistantMessage["content"][number];
type UserBlock = ContextUserMessage["content"][number];

const asText = (text: string) => ({ type: "text" as const, text });

/** Rule 4: the server tool blocks of one message that keep their pair. */
function pairedServerBlocks(content: readonly AssistantBlock[]): Set<ServerToolBlock> {
  const uses = new Map<string, ServerToolBlock>();
  const kept = new Set<ServerToolBlock>();
  for (const b of content) {
    if (b.type !== "server_tool") continue;
    if (b.part === "item") kept.add(b);
    else if (b.part === "use") uses.set(b.callId, b);
    else {
      const use = uses.get(b.callId);
      if (use !== undefined) {
        kept.add(use);
        kept.add(b);
        uses.delete(b.callId);
      }
    }
  }
  return kept;
}

/** The ids of `next`'s tool results (the first of each), if it is a user message. */
function answeredIds(next: ContextMessage | undefined): Set<string> {
  const ids = new Set<string>();
  if (next?.role !== "user") return ids;
  for (const b of next.content) if (b.type === "tool_result") ids.add(b.callId);
  return ids;
}

function assistantWithPairs(
  m: ContextAssistantMessage,
  answered: ReadonlySet<string>,
): { message: ContextAssistantMessage; callOrder: string[] } {
  const server = pairedServerBlocks(m.content);
  const callOrder: string[] = [];
  let changed = false;
  const content = m.content.map((b): AssistantBlock => {
    if (b.type === "tool_call") {
      if (answered.has(b.id) && !callOrder.includes(b.id)) {
        callOrder.push(b.id);
        return b;
      }
      changed = true;
      return asText(toolCallText(b.name, b.args));
    }
    if (b.type === "server_tool" && !server.has(b)) {
      changed = true;
      return asText(serverToolText(b));
    }
    return b;
  });
  return { message: changed ? { role: "assistant", content } : m, callOrder };
}

function userWithPairs(m: ContextUserMessage, callOrder: readonly string[]): ContextUserMessage {
  if (!m.content.some((b) => b.type === "tool_result")) return m;
  const wanted = new Set(callOrder);
  const paired = new Map<string, ToolResultBlock>();
  const rest: UserBlock[] = [];
  for (const b of m.content) {
    if (b.type === "tool_result" && wanted.has(b.callId) && !paired.has(b.callId)) paired.set(b.callId, b);
    else if (b.type === "tool_result") rest.push(asText(toolResultText(b.text, b.toolName, b.isError)));
    else rest.push(b);
  }
  const results = callOrder.flatMap((id) => {
    const r = paired.get(id);
    return r ? [r] : [];
  });
  return { role: "user", content: [...results, ...rest] };
}

/** The messages with every tool block in a complete pair or turned into text (rules above). */
export function pairToolBlocks(messages: readonly ContextMessage[]): ContextMessage[] {
  return finish(pairToolBlocksSteps(messages));
}

/** `pairToolBlocks` in steps (core/steps.ts): pauses every few messages, same result. */
export function* pairToolBlocksSteps(messages: readonly ContextMessage[]): Steps<ContextMessage[]> {
  const out: ContextMessage[] = [];
  let callOrder: string[] = [];
  for (let i = 0; i < messages.length; i++) {
    if (atPause(i)) yield;
    const m = messages[i];
    if (!m) continue;
    if (m.role === "assistant") {
      const paired = assistantWithPairs(m, answeredIds(messages[i + 1]));
      out.push(paired.message);
      callOrder = paired.callOrder;
    } else {
      out.push(userWithPairs(m, callOrder));
      callOrder = [];
    }
  }
  return out;
}
