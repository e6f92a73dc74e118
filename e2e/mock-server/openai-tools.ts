/**
 * Tools in the Chat Completions wire format (openai.ts streams and sends what this builds): scripted
 * function calls as `tool_calls` (streamed as deltas: the first names the call and its id, the next ones
 * carry argument pieces), and the API's pairing checks with its own messages. Chat Completions has no
 * provider-run tools here (server tools are Anthropic's and Responses'). No I/O here.
 */
import { argumentChunks, type ReplyPlan } from "./plan";
import { isRecord } from "./wire";

export type ChatToolCall = { id: string; name: string; arguments: string };

/** The reply's function calls with their ids. */
export function chatToolCalls(plan: ReplyPlan, nextId: () => string): ChatToolCall[] {
  return plan.toolCalls.map((call) => ({
    id: call.id ?? `call_mock${nextId()}`,
    name: call.name,
    arguments: JSON.stringify(call.input),
  }));
}

/** `message.tool_calls` of a JSON reply. */
export function chatToolCallsBody(calls: readonly ChatToolCall[]): unknown[] {
  return calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
}

/**
 * The `delta`s that stream the calls, one call after another as OpenAI sends them: the opening delta
 * (index, id, type, name, empty arguments), then the argument pieces.
 */
export function chatToolCallDeltas(calls: readonly ChatToolCall[]): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  calls.forEach((call, index) => {
    out.push({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] });
    for (const piece of argumentChunks(JSON.parse(call.arguments) as Record<string, unknown>)) {
      out.push({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  return out;
}

export type ChatToolViolation = { message: string; param: string };

/**
 * The API's pairing checks: an assistant message's `tool_calls` must each be answered by a `tool`
 * message right after it (before any other message), and a `tool` message must answer a call of the
 * assistant message before that run of tool messages.
 */
export function chatToolPairingViolation(messages: readonly unknown[]): ChatToolViolation | null {
  let open: Set<string> | null = null;
  let openAt = -1;
  for (let i = 0; i < messages.length; i++) {
    const m = isRecord(messages[i]) ? (messages[i] as Record<string, unknown>) : {};
    if (m.role === "tool") {
      const id = typeof m.tool_call_id === "string" ? m.tool_call_id : "";
      if (open === null || !open.has(id)) {
        return {
          message:
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          param: `messages.[${i}].role`,
        };
      }
      open.delete(id);
      continue;
    }
    if (open !== null && open.size > 0) return unanswered(open, openAt);
    open = null;
    if (m.role === "assistant" && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
      open = new Set(m.tool_calls.flatMap((c) => (isRecord(c) && typeof c.id === "string" ? [c.id] : [])));
      openAt = i;
    }
  }
  return open !== null && open.size > 0 ? unanswered(open, openAt) : null;
}

function unanswered(ids: ReadonlySet<string>, at: number): ChatToolViolation {
  return {
    message: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...ids].join(", ")}`,
    param: `messages.[${at}].role`,
  };
}
