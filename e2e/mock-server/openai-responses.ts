/**
 * OpenAI Responses as the mock speaks it, under `/openai`: `POST /v1/responses` (SSE or JSON).
 * Event and object shapes follow https://platform.openai.com/docs/api-reference/responses-streaming
 * and the `openai` SDK's types (resources/responses/responses.d.ts): `response.created`,
 * `response.in_progress`, per output item `response.output_item.added` … `response.output_item.done`
 * (reasoning: summary part/text events; message: content part/text events), then
 * `response.completed` or `response.incomplete`; a mid-stream failure is an `error` event.
 *
 * Scripted `thinking` becomes a reasoning item with a summary and an `encrypted_content` blob the
 * mock can verify later: a request that sends back a reasoning item whose encrypted content was not
 * issued for that item id is rejected with 400, as the real API rejects content it cannot decrypt.
 */
import { createHash } from "node:crypto";
import type { Exchange } from "./exchange";
import { type HandlerContext, padId, requestApiKey } from "./handler-context";
import { compactedResponse, compactionText } from "./native-compaction";
import { httpFaultBody, midstreamBody, sendError as sendOpenAIError } from "./openai";
import { faultPoint, holdPoint, holdsAtStart, planReply, type ReplyPlan } from "./plan";
import {
  functionCallItems,
  leadingItems,
  messageAnnotations,
  type ReplyItem,
  responsesToolPairingViolation,
} from "./responses-tools";
import { isRecord, requestModel, strictViolation, wantsStream } from "./wire";

const ENCRYPTED_PREFIX = "grove-mock-reasoning";

/** The encrypted content the mock issues for a reasoning item: base64, bound to the item id and its text. */
export function encryptedReasoning(itemId: string, thinking: string): string {
  const digest = createHash("sha256").update(thinking).digest("hex");
  return Buffer.from(`${ENCRYPTED_PREFIX}:${itemId}:${digest}`).toString("base64");
}

function issuedFor(encrypted: string, itemId: string): boolean {
  const plain = Buffer.from(encrypted, "base64").toString("utf8");
  return plain.startsWith(`${ENCRYPTED_PREFIX}:${itemId}:`);
}

type ValidationError = { message: string; param: string | null; code: string | null };

/** The real API's checks that matter to Grove's requests. */
export function validateResponses(body: Record<string, unknown>): ValidationError | null {
  if (typeof body.model !== "string" || body.model === "") {
    return { message: "Missing required parameter: 'model'.", param: "model", code: "missing_required_parameter" };
  }
  if ("messages" in body) {
    return { message: "Unknown parameter: 'messages'.", param: "messages", code: "unknown_parameter" };
  }
  if (typeof body.max_output_tokens === "number" && body.max_output_tokens < 16) {
    return {
      message: `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${body.max_output_tokens} instead.`,
      param: "max_output_tokens",
      code: "integer_below_min_value",
    };
  }
  const input = body.input;
  if (input === undefined || typeof input === "string") return null;
  if (!Array.isArray(input)) {
    return { message: "Invalid type for 'input': expected one of a string or array.", param: "input", code: null };
  }
  for (let i = 0; i < input.length; i++) {
    const item: unknown = input[i];
    if (!isRecord(item)) return { message: `Invalid 'input[${i}]'.`, param: `input[${i}]`, code: null };
    if (item.type === "reasoning") {
      const id = typeof item.id === "string" ? item.id : "";
      if (!Array.isArray(item.summary)) {
        return {
          message: `Missing required parameter: 'input[${i}].summary'.`,
          param: `input[${i}].summary`,
          code: "missing_required_parameter",
        };
      }
      if (body.store === false && typeof item.encrypted_content !== "string") {
        return {
          message: `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
          param: "input",
          code: null,
        };
      }
      if (typeof item.encrypted_content === "string" && !issuedFor(item.encrypted_content, id)) {
        return {
          message: `The encrypted content for item ${id} could not be verified.`,
          param: null,
          code: "invalid_encrypted_content",
        };
      }
      continue;
    }
    const role = item.role;
    if (item.type !== undefined && item.type !== "message") continue;
    if (role !== "user" && role !== "assistant" && role !== "system" && role !== "developer") {
      return {
        message: `Invalid value: '${String(role)}'. Supported values are: 'assistant', 'system', 'developer', and 'user'.`,
        param: `input[${i}].role`,
        code: "invalid_value",
      };
    }
  }
  return null;
}

/**
 * The body checks `/v1/responses` and `/v1/responses/compact` share: JSON, then (when the test asks
 * for validation) the Responses request shape. False after answering 400.
 */
function acceptsResponsesBody(ex: Exchange, ctx: HandlerContext, body: unknown): body is Record<string, unknown> {
  if (!isRecord(body)) {
    sendOpenAIError(ex, ctx, 400, {
      message: "We could not parse the JSON body of your request.",
      type: "invalid_request_error",
      param: null,
      code: null,
    });
    return false;
  }
  const invalid = ctx.config().validate ? validateResponses(body) : null;
  if (invalid) {
    sendOpenAIError(ex, ctx, 400, { ...invalid, type: "invalid_request_error" });
    return false;
  }
  const unpaired = Array.isArray(body.input) ? responsesToolPairingViolation(body.input) : null;
  if (unpaired) {
    sendOpenAIError(ex, ctx, 400, { message: unpaired, type: "invalid_request_error", param: "input", code: null });
    return false;
  }
  return true;
}

/** `POST /v1/responses`, after auth (openai.ts). */
export async function handleResponses(ex: Exchange, ctx: HandlerContext): Promise<void> {
  const config = ctx.config();
  const key = requestApiKey(ex.record.headers);
  const body = ex.record.body;
  if (!acceptsResponsesBody(ex, ctx, body)) return;
  const strict = config.strict ? strictViolation(ex.record) : null;
  if (strict) {
    sendOpenAIError(ex, ctx, 400, { message: strict, type: "invalid_request_error", param: null, code: null });
    return;
  }

  const plan = planReply(ctx.takeScript("openai", ex.record), ex.record, config);
  await ex.sleep(plan.latencyMs);
  if (holdsAtStart(plan, wantsStream(ex.record))) await ctx.hold("openai", ex);
  if (ex.closed) return;
  const model = requestModel(ex.record);
  if (plan.fault?.kind === "http") {
    const fault = plan.fault;
    // The Responses API names the overflowing parameter `input`, not `messages`.
    const error = httpFaultBody(fault, model, key);
    if (error.param === "messages") error.param = "input";
    sendOpenAIError(ex, ctx, fault.status, error, fault.retryAfterSeconds);
    return;
  }
  const n = padId(ctx.nextId());
  const ids = { response: `resp_mock${n}`, reasoning: `rs_mock${n}`, message: `msg_mock${n}` };
  const nextId = (): string => padId(ctx.nextId());
  const tools = { leading: leadingItems(plan, nextId), calls: functionCallItems(plan, nextId) };
  if (wantsStream(ex.record)) await streamResponse(ex, ctx, plan, { ids, model, body, tools });
  else await sendResponse(ex, ctx, plan, { ids, model, body, tools });
}

type Ids = { response: string; reasoning: string; message: string };
/** The reply's tool items: server tools before the message, function calls after it. */
type ToolItems = { leading: ReplyItem[]; calls: ReplyItem[] };
type Meta = { ids: Ids; model: string; body: Record<string, unknown>; tools: ToolItems };

/** A reply that only calls tools has no message item. */
function hasMessage(plan: ReplyPlan, tools: ToolItems): boolean {
  return plan.text !== "" || (tools.leading.length === 0 && tools.calls.length === 0);
}

function reasoningItem(plan: ReplyPlan, ids: Ids, done: boolean): Record<string, unknown> {
  return {
    id: ids.reasoning,
    type: "reasoning",
    // Filled in when the item is done, as the API does (null while it streams).
    encrypted_content: done ? encryptedReasoning(ids.reasoning, plan.thinking) : null,
    summary: done ? [{ type: "summary_text", text: plan.thinking }] : [],
  };
}

function outputText(text: string, annotations: unknown[] = []): Record<string, unknown> {
  return { type: "output_text", annotations, logprobs: [], text };
}

function messageItem(
  ids: Ids,
  text: string,
  status: "in_progress" | "completed" | "incomplete",
  annotations: unknown[] = [],
) {
  return {
    id: ids.message,
    type: "message",
    status,
    content: status === "in_progress" ? [] : [outputText(text, annotations)],
    role: "assistant",
  };
}

function usageBody(plan: ReplyPlan): Record<string, unknown> {
  return {
    input_tokens: plan.usage.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: plan.usage.output,
    output_tokens_details: { reasoning_tokens: Math.ceil(plan.thinking.length / 4) },
    total_tokens: plan.usage.input + plan.usage.output,
  };
}

/** The `response` object, as `response.created` (no output yet) or the final one. */
function responseObject(
  meta: Meta,
  createdAt: number,
  state: { status: "in_progress" | "completed" | "incomplete"; output: unknown[]; usage: unknown },
): Record<string, unknown> {
  const body = meta.body;
  const reasoning = isRecord(body.reasoning) ? body.reasoning : {};
  return {
    id: meta.ids.response,
    object: "response",
    created_at: createdAt,
    status: state.status,
    background: false,
    error: null,
    incomplete_details: state.status === "incomplete" ? { reason: "max_output_tokens" } : null,
    instructions: typeof body.instructions === "string" ? body.instructions : null,
    max_output_tokens: typeof body.max_output_tokens === "number" ? body.max_output_tokens : null,
    model: meta.model,
    output: state.output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: reasoning.effort ?? null, summary: reasoning.summary ?? null },
    store: body.store !== false,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: Array.isArray(body.tools) ? body.tools : [],
    top_p: 1,
    truncation: "disabled",
    usage: state.usage,
    user: null,
    metadata: {},
  };
}

function finalOutput(plan: ReplyPlan, meta: Meta): unknown[] {
  const output: unknown[] = [];
  if (plan.thinking !== "") output.push(reasoningItem(plan, meta.ids, true));
  output.push(...meta.tools.leading.map((item) => item.done));
  if (hasMessage(plan, meta.tools)) {
    const status = plan.stop === "length" ? "incomplete" : "completed";
    output.push(messageItem(meta.ids, plan.text, status, messageAnnotations(plan)));
  }
  output.push(...meta.tools.calls.map((item) => item.done));
  return output;
}

async function sendResponse(ex: Exchange, ctx: HandlerContext, plan: ReplyPlan, meta: Meta): Promise<void> {
  const fault = plan.fault;
  if (fault?.kind === "drop") {
    await ex.drop();
    return;
  }
  if (fault?.kind === "hang") {
    await ex.waitClosed();
    return;
  }
  if (fault?.kind === "midstream_error") {
    // Without a stream there is no "middle": the same failure arrives as a 500.
    sendOpenAIError(ex, ctx, 500, midstreamBody(fault));
    return;
  }
  ex.json(
    200,
    responseObject(meta, Math.floor(Date.now() / 1000), {
      status: plan.stop === "length" ? "incomplete" : "completed",
      output: finalOutput(plan, meta),
      usage: usageBody(plan),
    }),
    { "x-request-id": `req_mock${padId(ctx.nextId())}` },
  );
}

async function streamResponse(ex: Exchange, ctx: HandlerContext, plan: ReplyPlan, meta: Meta): Promise<void> {
  const createdAt = Math.floor(Date.now() / 1000);
  const { ids } = meta;
  let seq = 0;
  const send = (type: string, data: Record<string, unknown>): void => {
    ex.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  };

  ex.startSse({ "x-request-id": `req_mock${padId(ctx.nextId())}`, "openai-processing-ms": "1" });
  const opening = responseObject(meta, createdAt, { status: "in_progress", output: [], usage: null });
  send("response.created", { response: opening });
  send("response.in_progress", { response: opening });

  let outputIndex = 0;
  if (plan.thinking !== "") {
    const at = outputIndex++;
    send("response.output_item.added", { output_index: at, item: reasoningItem(plan, ids, false) });
    const part = { item_id: ids.reasoning, output_index: at, summary_index: 0 };
    send("response.reasoning_summary_part.added", { ...part, part: { type: "summary_text", text: "" } });
    for (const piece of plan.thinkingChunks) {
      await ex.sleep(plan.chunkDelayMs);
      if (ex.closed) return;
      send("response.reasoning_summary_text.delta", { ...part, delta: piece });
    }
    send("response.reasoning_summary_text.done", { ...part, text: plan.thinking });
    send("response.reasoning_summary_part.done", { ...part, part: { type: "summary_text", text: plan.thinking } });
    send("response.output_item.done", { output_index: at, item: reasoningItem(plan, ids, true) });
  }

  const streamItem = async (item: ReplyItem): Promise<void> => {
    const at = outputIndex++;
    send("response.output_item.added", { output_index: at, item: item.added });
    for (const event of item.events) {
      await ex.sleep(plan.chunkDelayMs);
      send(event.type, { ...event.data, output_index: at });
    }
    send("response.output_item.done", { output_index: at, item: item.done });
  };
  for (const item of meta.tools.leading) {
    if (ex.closed) return;
    await streamItem(item);
  }

  const withMessage = hasMessage(plan, meta.tools);
  const at = withMessage ? outputIndex++ : -1;
  const content = { item_id: ids.message, output_index: at, content_index: 0 };
  if (withMessage) {
    send("response.output_item.added", { output_index: at, item: messageItem(ids, "", "in_progress") });
    send("response.content_part.added", { ...content, part: outputText("") });
  }
  const faultAt = faultPoint(plan);
  const holdAt = holdPoint(plan);
  for (let sent = 0; ; sent++) {
    if (ex.closed) return;
    if (sent === holdAt) {
      await ctx.hold("openai", ex);
      if (ex.closed) return;
    }
    if (sent === faultAt) {
      await fail(ex, plan, () => seq++);
      return;
    }
    const piece = plan.chunks[sent];
    if (piece === undefined) break;
    await ex.sleep(plan.chunkDelayMs);
    send("response.output_text.delta", { ...content, delta: piece, logprobs: [] });
  }
  const incomplete = plan.stop === "length";
  if (withMessage) {
    const annotations = messageAnnotations(plan);
    annotations.forEach((annotation, annotation_index) => {
      send("response.output_text.annotation.added", { ...content, annotation, annotation_index });
    });
    send("response.output_text.done", { ...content, text: plan.text, logprobs: [] });
    send("response.content_part.done", { ...content, part: outputText(plan.text, annotations) });
    send("response.output_item.done", {
      output_index: at,
      item: messageItem(ids, plan.text, incomplete ? "incomplete" : "completed", annotations),
    });
  }
  for (const item of meta.tools.calls) {
    if (ex.closed) return;
    await streamItem(item);
  }
  const final = responseObject(meta, createdAt, {
    status: incomplete ? "incomplete" : "completed",
    output: finalOutput(plan, meta),
    usage: usageBody(plan),
  });
  send(incomplete ? "response.incomplete" : "response.completed", { response: final });
  ex.end();
}

async function fail(ex: Exchange, plan: ReplyPlan, nextSeq: () => number): Promise<void> {
  const fault = plan.fault;
  if (fault?.kind === "midstream_error") {
    const error = midstreamBody(fault);
    const data = { type: "error", code: error.type, message: error.message, param: null, sequence_number: nextSeq() };
    ex.write(`event: error\ndata: ${JSON.stringify(data)}\n\n`);
    ex.end();
  } else if (fault?.kind === "drop") {
    await ex.drop();
  } else if (fault?.kind === "hang") {
    await ex.waitClosed();
  }
}

/** `POST /v1/responses/compact` (native-compaction.ts), after auth: same checks and queue as `/v1/responses`. */
export async function handleResponsesCompact(ex: Exchange, ctx: HandlerContext): Promise<void> {
  const config = ctx.config();
  const body = ex.record.body;
  if (!acceptsResponsesBody(ex, ctx, body)) return;
  const script = ctx.takeScript("openai", ex.record);
  const plan = planReply(script, ex.record, config);
  await ex.sleep(plan.latencyMs);
  if (holdsAtStart(plan, false)) await ctx.hold("openai", ex);
  if (ex.closed) return;
  const fault = plan.fault;
  if (fault !== undefined && fault.kind !== "http") {
    if (fault.kind === "drop") return ex.drop();
    if (fault.kind === "hang") return ex.waitClosed();
  }
  if (fault !== undefined) {
    const status = fault.kind === "http" ? fault.status : 500;
    const error =
      fault.kind === "http"
        ? httpFaultBody(fault, requestModel(ex.record), requestApiKey(ex.record.headers))
        : {
            message: "The server had an error while processing your request.",
            type: "server_error",
            param: null,
            code: null,
          };
    sendOpenAIError(ex, ctx, status, error, fault.kind === "http" ? fault.retryAfterSeconds : undefined);
    return;
  }
  ex.json(200, compactedResponse(body, compactionText(plan, script !== undefined), ctx.nextId(), plan.usage));
}
