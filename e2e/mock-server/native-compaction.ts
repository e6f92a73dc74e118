/**
 * Provider-native compaction as the mock speaks it (issue 10):
 *
 * - OpenAI `POST /openai/v1/responses/compact` (`client.responses.compact`): JSON
 *   `{id, object: "response.compaction", created_at, output, usage}` where `output` is every user
 *   message of the input, then one `{type: "compaction", id, encrypted_content}` item.
 * - Anthropic's explicit compaction request (beta `compact-2026-09-04`): `POST /v1/messages` whose
 *   body has `compaction: {type: "summarize"}` is answered by a message holding only a `compaction`
 *   block (`content`, `encrypted_content`, `signature`) with `stop_reason: "compaction"`, as JSON or
 *   as SSE (`content_block_start` with the block, one `compaction_delta`, `content_block_stop`).
 *   A request that sends a compaction block back without that beta header gets the API's 400.
 *
 * The summary text is the queued script's `text` (same queue as the api's replies, so faults and
 * holds work as everywhere), else `MOCK_COMPACTION_TEXT`. `encrypted_content` is the text, base64,
 * behind a prefix, so a test can tell which compaction a later request carried.
 */
import type { Exchange } from "./exchange";
import { padId } from "./handler-context";
import type { ReplyPlan } from "./plan";
import { isRecord } from "./wire";

export const MOCK_COMPACTION_TEXT = "Mock provider compaction of the earlier conversation.";
export const ANTHROPIC_COMPACTION_BETA = "compact-2026-09-04";
const ENCRYPTED_PREFIX = "grove-mock-compaction:";

export function encryptedCompaction(text: string): string {
  return Buffer.from(`${ENCRYPTED_PREFIX}${text}`).toString("base64");
}

/** The summary a compaction reply carries: the script's text, unless no script was queued. */
export function compactionText(plan: ReplyPlan, scripted: boolean): string {
  return scripted && plan.text !== "" ? plan.text : MOCK_COMPACTION_TEXT;
}

// ---- OpenAI -----------------------------------------------------------------------------------

type UserText = { type: "input_text"; text: string };

/** Each user message of a Responses `input`, as a compacted output item (its text kept). */
function userItems(input: unknown, n: string): Array<Record<string, unknown>> {
  if (typeof input === "string") return [userItem([{ type: "input_text", text: input }], `${n}_0`)];
  if (!Array.isArray(input)) return [];
  const out: Array<Record<string, unknown>> = [];
  input.forEach((item: unknown, i) => {
    if (!isRecord(item) || item.role !== "user" || (item.type !== undefined && item.type !== "message")) return;
    const content: UserText[] =
      typeof item.content === "string"
        ? [{ type: "input_text", text: item.content }]
        : Array.isArray(item.content)
          ? item.content
              .filter((c: unknown): c is { text: string } => isRecord(c) && typeof c.text === "string")
              .map((c) => ({ type: "input_text", text: c.text }))
          : [];
    out.push(userItem(content, `${n}_${i}`));
  });
  return out;
}

function userItem(content: UserText[], id: string): Record<string, unknown> {
  return { id: `msg_cmp${id}`, type: "message", status: "completed", role: "user", content };
}

/** The JSON body of a `responses.compact` reply. */
export function compactedResponse(
  body: Record<string, unknown>,
  text: string,
  n: number,
  usage: { input: number; output: number },
): Record<string, unknown> {
  const id = padId(n);
  return {
    id: `cmp_resp_mock${id}`,
    object: "response.compaction",
    created_at: Math.floor(Date.now() / 1000),
    output: [
      ...userItems(body.input, id),
      { id: `cmp_mock${id}`, type: "compaction", encrypted_content: encryptedCompaction(text) },
    ],
    usage: {
      input_tokens: usage.input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: usage.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.input + usage.output,
    },
  };
}

// ---- Anthropic --------------------------------------------------------------------------------

export function isAnthropicCompactionRequest(body: unknown): boolean {
  return isRecord(body) && isRecord(body.compaction) && body.compaction.type === "summarize";
}

function hasCompactionBlock(body: unknown): boolean {
  if (!isRecord(body) || !Array.isArray(body.messages)) return false;
  return body.messages.some(
    (m: unknown) =>
      isRecord(m) && Array.isArray(m.content) && m.content.some((b: unknown) => isRecord(b) && b.type === "compaction"),
  );
}

/** The API's 400 for compaction material sent without the beta, or null. */
export function compactionBetaViolation(headers: Record<string, string>, body: unknown): string | null {
  if (!isAnthropicCompactionRequest(body) && !hasCompactionBlock(body)) return null;
  const betas = (headers["anthropic-beta"] ?? "").split(",").map((s) => s.trim());
  if (betas.includes(ANTHROPIC_COMPACTION_BETA)) return null;
  return isAnthropicCompactionRequest(body)
    ? "compaction: Extra inputs are not permitted"
    : "messages: compaction blocks require the compact-2026-09-04 beta";
}

export function compactionBlock(text: string): Record<string, unknown> {
  return {
    type: "compaction",
    content: text,
    encrypted_content: encryptedCompaction(text),
    signature: Buffer.from(`grove-mock-compaction-signature:${text.length}`).toString("base64"),
  };
}

/** Replies to an explicit compaction request: a lone compaction block, JSON or SSE. */
export async function sendAnthropicCompaction(
  ex: Exchange,
  args: { id: string; model: string; text: string; stream: boolean; usage: { input: number; output: number } },
): Promise<void> {
  const block = compactionBlock(args.text);
  const usage = {
    input_tokens: args.usage.input,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: args.usage.output,
  };
  if (!args.stream) {
    ex.json(200, {
      id: args.id,
      type: "message",
      role: "assistant",
      model: args.model,
      content: [block],
      stop_reason: "compaction",
      stop_sequence: null,
      usage,
    });
    return;
  }
  ex.startSse({ "request-id": args.id });
  const send = (event: string, data: Record<string, unknown>) =>
    ex.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  send("message_start", {
    message: {
      id: args.id,
      type: "message",
      role: "assistant",
      model: args.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  // The signature is known up front here (the mock has the text already), so it rides on the start.
  send("content_block_start", {
    index: 0,
    content_block: { type: "compaction", content: null, encrypted_content: null, signature: block.signature },
  });
  send("content_block_delta", {
    index: 0,
    delta: { type: "compaction_delta", content: block.content, encrypted_content: block.encrypted_content },
  });
  send("content_block_stop", { index: 0 });
  send("message_delta", {
    delta: { stop_reason: "compaction", stop_sequence: null },
    usage: { output_tokens: args.usage.output },
  });
  send("message_stop", {});
  ex.end();
}

/** Default `trigger` of the `compact_20260112` edit: 150,000 input tokens. */
export const SERVER_COMPACTION_DEFAULT_TRIGGER = 150_000;

/**
 * The input-token trigger of a `context_management` edit `compact_20260112` in the body, or null
 * without one. The reply then begins with a compaction block once the input reaches it.
 */
export function serverCompactionTrigger(body: unknown): number | null {
  if (!isRecord(body) || !isRecord(body.context_management)) return null;
  const edits = body.context_management.edits;
  if (!Array.isArray(edits)) return null;
  const edit = edits.find((e: unknown) => isRecord(e) && e.type === "compact_20260112");
  if (!isRecord(edit)) return null;
  const trigger = edit.trigger;
  return isRecord(trigger) && typeof trigger.value === "number" ? trigger.value : SERVER_COMPACTION_DEFAULT_TRIGGER;
}
