/**
 * Reading request bodies of the wire formats as plain views: roles, texts, block types, the system
 * prompt. OpenAI Responses bodies (`input` + `instructions`) read like Chat Completions ones: the
 * instructions as a `system` message, reasoning items as a `reasoning` block type on the assistant
 * message that follows them. Used by the mock (echo replies, strict mode, usage counts) and exported for tests that assert
 * what the app sent. Bodies are untrusted JSON, so everything here narrows from `unknown`.
 */
import type { Api, RecordedRequest } from "./types";

export type MessageView = {
  /** The wire role: `user` | `assistant` (Anthropic); `system` | `developer` | `user` | `assistant` | `tool` (OpenAI). */
  role: string;
  /** The message's text parts joined with "\n" (no thinking, no tool payloads). */
  text: string;
  /**
   * Block types in order: Anthropic content block `type`s (a string content is `["text"]`); OpenAI part
   * `type`s (a string content is `["text"]`), then `reasoning` when the message carries reasoning and one
   * `tool_call` per tool call.
   */
  blockTypes: string[];
};

type RequestLike = Pick<RecordedRequest, "api" | "body">;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function messagesOf(body: unknown): unknown[] {
  return isRecord(body) && Array.isArray(body.messages) ? body.messages : [];
}

function viewAnthropic(message: unknown): MessageView & { chars: number } {
  const m = isRecord(message) ? message : {};
  const role = str(m.role);
  if (typeof m.content === "string") return { role, text: m.content, blockTypes: ["text"], chars: m.content.length };
  const texts: string[] = [];
  const blockTypes: string[] = [];
  let chars = 0;
  for (const block of Array.isArray(m.content) ? m.content : []) {
    if (!isRecord(block)) continue;
    const type = str(block.type);
    blockTypes.push(type);
    if (type === "text") {
      texts.push(str(block.text));
      chars += str(block.text).length;
    } else if (type === "thinking") {
      chars += str(block.thinking).length;
    } else if (type === "tool_use") {
      chars += JSON.stringify(block.input ?? {}).length + str(block.name).length;
    } else if (type === "tool_result") {
      chars += typeof block.content === "string" ? block.content.length : JSON.stringify(block.content ?? "").length;
    }
  }
  return { role, text: texts.join("\n"), blockTypes, chars };
}

function viewOpenAI(message: unknown, reasoningFields: readonly string[]): MessageView & { chars: number } {
  const m = isRecord(message) ? message : {};
  const role = str(m.role);
  const texts: string[] = [];
  const blockTypes: string[] = [];
  let chars = 0;
  if (typeof m.content === "string") {
    texts.push(m.content);
    blockTypes.push("text");
    chars += m.content.length;
  } else if (Array.isArray(m.content)) {
    for (const part of m.content) {
      if (!isRecord(part)) continue;
      const type = str(part.type);
      blockTypes.push(type);
      if (type === "text") {
        texts.push(str(part.text));
        chars += str(part.text).length;
      }
    }
  }
  for (const field of reasoningFields) {
    const reasoning = m[field];
    if (typeof reasoning === "string" && reasoning !== "") {
      blockTypes.push("reasoning");
      chars += reasoning.length;
    }
  }
  for (const call of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
    blockTypes.push("tool_call");
    chars += JSON.stringify(call).length;
  }
  return { role, text: texts.join("\n"), blockTypes, chars };
}

const OPENAI_REASONING_FIELDS = ["reasoning_content", "reasoning"] as const;

/** A `POST /v1/responses` body: `input` instead of `messages`. */
export function isResponsesBody(body: unknown): body is Record<string, unknown> {
  return isRecord(body) && !("messages" in body) && (typeof body.input === "string" || Array.isArray(body.input));
}

function responsesViews(body: Record<string, unknown>): Array<MessageView & { chars: number }> {
  const out: Array<MessageView & { chars: number }> = [];
  if (typeof body.instructions === "string" && body.instructions !== "") {
    out.push({ role: "system", text: body.instructions, blockTypes: ["text"], chars: body.instructions.length });
  }
  if (typeof body.input === "string") {
    out.push({ role: "user", text: body.input, blockTypes: ["text"], chars: body.input.length });
    return out;
  }
  let toolChars = 0;
  // Reasoning items belong to the assistant message after them (one turn on the wire).
  let reasoning: { count: number; chars: number } = { count: 0, chars: 0 };
  const flushReasoning = (): void => {
    if (reasoning.count === 0) return;
    out.push({
      role: "assistant",
      text: "",
      blockTypes: Array(reasoning.count).fill("reasoning"),
      chars: reasoning.chars,
    });
    reasoning = { count: 0, chars: 0 };
  };
  for (const item of Array.isArray(body.input) ? body.input : []) {
    if (!isRecord(item)) continue;
    if (item.type === "reasoning") {
      reasoning.count++;
      for (const s of Array.isArray(item.summary) ? item.summary : [])
        reasoning.chars += isRecord(s) ? str(s.text).length : 0;
      continue;
    }
    if (item.type === "function_call" || item.type === "function_call_output") {
      // Tool traffic is not a turn of its own here (strict mode reads message roles); it counts as input.
      toolChars += str(item.arguments).length + str(item.name).length + outputText(item.output).length;
      continue;
    }
    if (item.type !== undefined && item.type !== "message") continue;
    const role = str(item.role);
    const texts: string[] = [];
    const blockTypes: string[] = [];
    if (typeof item.content === "string") {
      texts.push(item.content);
      blockTypes.push("text");
    } else {
      for (const part of Array.isArray(item.content) ? item.content : []) {
        if (!isRecord(part)) continue;
        const type = str(part.type);
        const isText = type === "input_text" || type === "output_text";
        blockTypes.push(isText ? "text" : type);
        if (isText) texts.push(str(part.text));
      }
    }
    const text = texts.join("\n");
    if (role === "assistant" && reasoning.count > 0) {
      out.push({
        role,
        text,
        blockTypes: [...Array(reasoning.count).fill("reasoning"), ...blockTypes],
        chars: reasoning.chars + text.length,
      });
      reasoning = { count: 0, chars: 0 };
      continue;
    }
    flushReasoning();
    out.push({ role, text, blockTypes, chars: text.length });
  }
  flushReasoning();
  if (toolChars > 0) out.push({ role: "tool", text: "", blockTypes: ["tool_result"], chars: toolChars });
  return out;
}

/** A `function_call_output`'s output as text: a string, or the text of its content parts. */
function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (!Array.isArray(output)) return "";
  return output.map((part) => (isRecord(part) ? str(part.text) : "")).join("\n");
}

function views(api: Api | null, body: unknown): Array<MessageView & { chars: number }> {
  if (api === "openai" && isResponsesBody(body)) return responsesViews(body);
  const messages = messagesOf(body);
  if (api === "anthropic") return messages.map(viewAnthropic);
  if (api === "openai") return messages.map((m) => viewOpenAI(m, OPENAI_REASONING_FIELDS));
  return [];
}

/** The messages of a recorded Messages / Chat Completions / Responses request, in wire order (OpenAI system messages included). */
export function requestMessages(req: RequestLike): MessageView[] {
  return views(req.api, req.body).map(({ role, text, blockTypes }) => ({ role, text, blockTypes }));
}

/** The system prompt: Anthropic's top-level `system` (string or text blocks); OpenAI's system/developer messages. Joined with "\n". */
export function requestSystem(req: RequestLike): string {
  const body = req.body;
  if (!isRecord(body)) return "";
  if (req.api === "anthropic") {
    if (typeof body.system === "string") return body.system;
    if (Array.isArray(body.system)) {
      return body.system
        .filter(isRecord)
        .map((b) => str(b.text))
        .join("\n");
    }
    return "";
  }
  return views(req.api, body)
    .filter((m) => m.role === "system" || m.role === "developer")
    .map((m) => m.text)
    .join("\n");
}

/** Text of the last `user` message ("" if none). */
export function lastUserText(req: RequestLike): string {
  const all = views(req.api, req.body);
  for (let i = all.length - 1; i >= 0; i--) {
    const m = all[i];
    if (m?.role === "user") return m.text;
  }
  return "";
}

/** Every text of the request (system + all messages), for `match.anyText`. */
export function allText(req: RequestLike): string {
  return [requestSystem(req), ...views(req.api, req.body).map((m) => m.text)].join("\n");
}

/** Characters of model-visible content (system, texts, thinking, tool payloads) — the basis of the mock's input-token count. */
export function requestChars(req: RequestLike): number {
  const systemChars = req.api === "anthropic" ? requestSystem(req).length : 0;
  return views(req.api, req.body).reduce((sum, m) => sum + m.chars, systemChars);
}

/** The mock's deterministic token estimate: ceil(chars / 4), at least 1 for non-empty text. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

export const ROLE_ALTERNATION_MESSAGE = "Conversation roles must alternate user/assistant/user/assistant/...";

/**
 * What a strict chat template (Mistral/Llama-style Jinja in Ollama / LM Studio) would reject: the first
 * non-system message is not `user`, or two consecutive user/assistant messages share a role. Returns the
 * template's error message, or null when the request is fine.
 */
export function strictViolation(req: RequestLike): string | null {
  const turns = views(req.api, req.body).filter((m) => m.role !== "system" && m.role !== "developer");
  if (turns.length > 0 && turns[0]?.role !== "user") return ROLE_ALTERNATION_MESSAGE;
  for (let i = 1; i < turns.length; i++) {
    const role = turns[i]?.role;
    if ((role === "user" || role === "assistant") && role === turns[i - 1]?.role) return ROLE_ALTERNATION_MESSAGE;
  }
  return null;
}

/** The request's `model` field ("" when absent). */
export function requestModel(req: RequestLike): string {
  return isRecord(req.body) ? str(req.body.model) : "";
}

/** Whether the request asked for SSE (`stream: true`). */
export function wantsStream(req: RequestLike): boolean {
  return isRecord(req.body) && req.body.stream === true;
}

/** Text of the last tool result of the request: Anthropic `tool_result`, a Chat `tool` message, a Responses `function_call_output`. */
export function lastToolResultText(req: RequestLike): string {
  const body = req.body;
  if (!isRecord(body)) return "";
  let last = "";
  if (req.api === "openai" && isResponsesBody(body)) {
    for (const item of Array.isArray(body.input) ? body.input : []) {
      if (isRecord(item) && item.type === "function_call_output") last = outputText(item.output);
    }
    return last;
  }
  for (const m of messagesOf(body)) {
    if (!isRecord(m)) continue;
    if (req.api === "openai" && m.role === "tool")
      last = typeof m.content === "string" ? m.content : outputText(m.content);
    if (req.api === "anthropic" && Array.isArray(m.content)) {
      for (const block of m.content) {
        if (!isRecord(block) || block.type !== "tool_result") continue;
        last = typeof block.content === "string" ? block.content : outputText(block.content);
      }
    }
  }
  return last;
}

/**
 * A tool the request declared: `kind` "function" for the app's own tools (Anthropic custom tools, Chat
 * and Responses function tools), otherwise the provider tool's type (`web_search_20250305`,
 * `code_execution_20250825`, `web_search`, `code_interpreter`, `mcp`, Anthropic `mcp_toolset`) or
 * `mcp_server` for an Anthropic `mcp_servers` entry. `name` is the tool's (or server's) name.
 */
export type ToolView = { kind: string; name: string; description?: string; url?: string };

/** The tools (and Anthropic MCP servers) a recorded request declared, in order. */
export function requestTools(req: RequestLike): ToolView[] {
  const body = req.body;
  if (!isRecord(body)) return [];
  const out: ToolView[] = [];
  for (const tool of Array.isArray(body.tools) ? body.tools : []) {
    if (!isRecord(tool)) continue;
    const type = str(tool.type);
    const description = typeof tool.description === "string" ? { description: tool.description } : {};
    if (req.api === "anthropic") {
      if (type === "" || type === "custom") out.push({ kind: "function", name: str(tool.name), ...description });
      else if (type === "mcp_toolset") out.push({ kind: type, name: str(tool.mcp_server_name) });
      else out.push({ kind: type, name: str(tool.name) });
    } else if (type === "function") {
      // Chat Completions nests the function; Responses does not.
      const fn = isRecord(tool.function) ? tool.function : tool;
      const desc = typeof fn.description === "string" ? { description: fn.description } : {};
      out.push({ kind: "function", name: str(fn.name), ...desc });
    } else if (type === "mcp") {
      out.push({ kind: "mcp", name: str(tool.server_label), url: str(tool.server_url) });
    } else {
      out.push({ kind: type, name: type });
    }
  }
  for (const server of Array.isArray(body.mcp_servers) ? body.mcp_servers : []) {
    if (isRecord(server)) out.push({ kind: "mcp_server", name: str(server.name), url: str(server.url) });
  }
  return out;
}
