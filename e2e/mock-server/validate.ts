/**
 * The subset of the providers' own request validation that catches real client bugs (each message is
 * the provider's wording). Only runs when `MockConfig.validate` is on. No I/O here.
 */
import { isRecord } from "./wire";

export type ValidationError = { message: string; param?: string | null; code?: string | null };

/** Anthropic rejects a thinking budget at or above max_tokens with this message. */
const THINKING_BUDGET_MESSAGE =
  "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size";

function isEmptyContent(content: unknown): boolean {
  if (typeof content === "string") return content === "";
  return !Array.isArray(content) || content.length === 0;
}

function finalText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const last = content[content.length - 1];
  return isRecord(last) && last.type === "text" && typeof last.text === "string" ? last.text : "";
}

export function validateAnthropic(body: unknown): ValidationError | null {
  if (!isRecord(body)) return { message: "There was an error parsing the body" };
  if (typeof body.model !== "string" || body.model === "") return { message: "model: Field required" };
  if (typeof body.max_tokens !== "number") return { message: "max_tokens: Field required" };
  if (!Array.isArray(body.messages)) return { message: "messages: Field required" };
  if (body.messages.length === 0) return { message: "messages: at least one message is required" };
  const messages = body.messages;
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i];
    if (!isRecord(m)) return { message: `messages.${i}: Input should be a valid dictionary` };
    if (m.role === "system") {
      return {
        message:
          'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.',
      };
    }
    if (m.role !== "user" && m.role !== "assistant") {
      return { message: `messages.${i}.role: Input should be 'user' or 'assistant'` };
    }
    const isFinalAssistant = i === messages.length - 1 && m.role === "assistant";
    if (isEmptyContent(m.content) && !isFinalAssistant) {
      return {
        message: `messages.${i}: all messages must have non-empty content except for the optional final assistant message`,
      };
    }
    if (Array.isArray(m.content)) {
      for (const block of m.content) {
        if (isRecord(block) && block.type === "text" && block.text === "") {
          return { message: "messages: text content blocks must be non-empty" };
        }
      }
    }
    if (isFinalAssistant && /\s$/.test(finalText(m.content))) {
      return { message: "messages: final assistant content cannot end with trailing whitespace" };
    }
  }
  const thinking = body.thinking;
  if (isRecord(thinking) && thinking.type === "enabled") {
    const budget = thinking.budget_tokens;
    if (typeof budget !== "number") return { message: "thinking.enabled.budget_tokens: Field required" };
    if (budget < 1024) {
      return { message: "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024" };
    }
    if (budget >= body.max_tokens) return { message: THINKING_BUDGET_MESSAGE };
  }
  return null;
}

export function validateOpenAI(body: unknown): ValidationError | null {
  if (!isRecord(body)) {
    return { message: "We could not parse the JSON body of your request.", param: null, code: null };
  }
  if (typeof body.model !== "string" || body.model === "") {
    return { message: "you must provide a model parameter", param: null, code: null };
  }
  if (!Array.isArray(body.messages)) {
    return {
      message: "Missing required parameter: 'messages'.",
      param: "messages",
      code: "missing_required_parameter",
    };
  }
  if (body.messages.length === 0) {
    return {
      message:
        "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      param: "messages",
      code: "empty_array",
    };
  }
  for (let i = 0; i < body.messages.length; i++) {
    const m: unknown = body.messages[i];
    const role = isRecord(m) ? m.role : undefined;
    if (role !== "system" && role !== "developer" && role !== "user" && role !== "assistant" && role !== "tool") {
      return {
        message: `Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        param: `messages[${i}].role`,
        code: "invalid_value",
      };
    }
  }
  if (body.stream_options !== undefined && body.stream_options !== null && body.stream !== true) {
    return {
      message: "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      param: "stream_options",
      code: null,
    };
  }
  return null;
}
