/**
 * The last step of `buildContext` (DESIGN §3): makes a message list acceptable to the target
 * provider, including strict local chat templates (Ollama, LM Studio) that reject two user turns
 * in a row or a conversation that opens with the assistant.
 *
 * Guarantees on the result: no two consecutive messages share a role; the first message is a user
 * message; no message is empty; every assistant message has non-blank text or a tool block; every
 * thinking block was signed by `targetApi` (and, for Anthropic, carries its signature or redacted
 * payload); every reasoning item was produced by the target provider itself (same api and same
 * provider id); native tool blocks come in complete pairs (tool-pairs.ts), the rest as text.
 *
 * Pure: inputs are never mutated (merged blocks are new objects). No token counting here, no entry
 * types: entries become messages in `build-context.ts`.
 */

import { atPause, finish, type Steps } from "../steps";
import type { ContextAssistantMessage, ContextMessage, ContextUserMessage } from "./context";
import { type ApiKind, assertNever, type ReasoningBlock, type TextBlock, type ThinkingBlock } from "./entries";
import { pairToolBlocksSteps } from "./tool-pairs";

/**
 * Put between two messages of the same role that had to be merged: a markdown rule on its own
 * line, which reads as "a new message starts here" to a model and to a person reading the request.
 */
export const MERGE_DELIMITER = "\n\n---\n\n";

/**
 * The user message inserted when a context would otherwise open with the assistant (an imported
 * session, a path whose first user turn was skipped). Kept minimal and neutral: it asks nothing.
 */
export const LEADING_USER_PLACEHOLDER = "(continuing)";

type AssistantBlock = ContextAssistantMessage["content"][number];
type UserBlock = ContextUserMessage["content"][number];

/**
 * Whether a thinking block may go back to `targetApi`: only to the api that produced it, and for
 * Anthropic only with the signature (or redacted payload) it must verify. Anything else is
 * dropped: foreign or unsigned reasoning is rejected or misread by providers.
 */
export function isThinkingReplayable(block: ThinkingBlock, targetApi: ApiKind): boolean {
  if (block.signedBy !== targetApi) return false;
  if (targetApi === "anthropic-messages") return Boolean(block.signature) || Boolean(block.redactedData);
  return true;
}

/**
 * Whether an OpenAI Responses reasoning item may go back: only to the provider that produced it (same
 * api AND same provider id, so two OpenAI accounts or a gateway never get each other's encrypted
 * content, which they cannot decrypt and reject). Without a target provider id (counting, handoff),
 * nothing is replayed. An item without its encrypted content (a reply stopped before the item was
 * done) is dropped too: Grove asks for stateless replies, so the provider could not look it up.
 */
export function isReasoningReplayable(block: ReasoningBlock, targetApi: ApiKind, targetProviderId?: string): boolean {
  return (
    block.api === targetApi &&
    targetProviderId !== undefined &&
    block.provider === targetProviderId &&
    Boolean(block.encryptedContent)
  );
}

// A search for the first non-blank character, not `trim()`: that copied every message's whole text
// (`\s` is exactly the whitespace `trim` removes).
const isBlankText = (b: TextBlock): boolean => !/\S/.test(b.text);

function cleanUser(m: ContextUserMessage): ContextUserMessage | null {
  // Providers reject empty and whitespace-only text blocks; nothing else in a user message counts.
  const content = m.content.filter((b) => b.type !== "text" || !isBlankText(b));
  return content.length > 0 ? { role: "user", content } : null;
}

function cleanAssistant(
  m: ContextAssistantMessage,
  targetApi: ApiKind,
  targetProviderId: string | undefined,
): ContextAssistantMessage | null {
  const content = m.content.filter((b): b is AssistantBlock => {
    switch (b.type) {
      case "text":
        return !isBlankText(b);
      case "reasoning":
        return isReasoningReplayable(b, targetApi, targetProviderId);
      case "thinking":
        return isThinkingReplayable(b, targetApi);
      // build-context.ts left these native only for their own provider.
      case "tool_call":
      case "server_tool":
        return true;
      default:
        return assertNever(b, "assistant block");
    }
  });
  // Thinking alone is not a reply: an assistant turn without text or a tool block is removed entirely.
  return content.some((b) => b.type === "text" || b.type === "tool_call" || b.type === "server_tool")
    ? { role: "assistant", content }
    : null;
}

/** Joins `b` after `a` with the delimiter. Touching text blocks become one; across thinking, blocks stay apart. */
function mergeContent<B extends AssistantBlock | UserBlock>(a: readonly B[], b: readonly B[]): B[] {
  const last = a[a.length - 1];
  const first = b[0];
  if (last?.type === "text" && first?.type === "text") {
    const joined = { type: "text", text: `${last.text}${MERGE_DELIMITER}${first.text}` } as B;
    return [...a.slice(0, -1), joined, ...b.slice(1)];
  }
  return [...a, ...b];
}

/**
 * Normalizes `messages` for `targetApi` (and, for reasoning items, `targetProviderId`): drops foreign
 * thinking, foreign reasoning items and blank text, removes empty
 * messages and assistant messages left without text, merges adjacent same-role messages with
 * `MERGE_DELIMITER`, and opens with `LEADING_USER_PLACEHOLDER` if the first message is the
 * assistant's. Dropping happens before merging, so messages that become adjacent are merged too.
 */
export function normalizeMessages(
  messages: readonly ContextMessage[],
  targetApi: ApiKind,
  targetProviderId?: string,
): ContextMessage[] {
  return finish(normalizeMessagesSteps(messages, targetApi, targetProviderId));
}

/** `normalizeMessages` in steps (core/steps.ts): pauses every few messages, same result. */
export function* normalizeMessagesSteps(
  messages: readonly ContextMessage[],
  targetApi: ApiKind,
  targetProviderId?: string,
): Steps<ContextMessage[]> {
  const out: ContextMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    if (atPause(i)) yield;
    const m = messages[i];
    if (!m) continue;
    const cleaned = m.role === "user" ? cleanUser(m) : cleanAssistant(m, targetApi, targetProviderId);
    if (!cleaned) continue;
    const prev = out[out.length - 1];
    if (prev?.role === "user" && cleaned.role === "user") {
      out[out.length - 1] = { role: "user", content: mergeContent(prev.content, cleaned.content) };
    } else if (prev?.role === "assistant" && cleaned.role === "assistant") {
      out[out.length - 1] = { role: "assistant", content: mergeContent(prev.content, cleaned.content) };
    } else {
      out.push(cleaned);
    }
  }
  if (out[0]?.role === "assistant") {
    out.unshift({ role: "user", content: [{ type: "text", text: LEADING_USER_PLACEHOLDER }] });
  }
  return yield* pairToolBlocksSteps(out);
}
