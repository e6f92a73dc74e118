/**
 * The Anthropic Messages API as the mock speaks it, under `/anthropic`: `POST /v1/messages` (SSE or
 * JSON), `POST /v1/messages/count_tokens`, `GET /v1/models[/{id}]`. Event order, field names and error
 * shapes follow https://docs.claude.com/en/api/messages-streaming and /en/api/errors.
 */
import {
  leadingToolBlocks,
  type ReplyBlock,
  serverToolUsage,
  textBlock,
  toolPairingViolation,
  toolUseBlocks,
} from "./anthropic-tools";
import { handleAnthropicFile } from "./code-files";
import type { Exchange } from "./exchange";
import { checkAuth, type HandlerContext, padId } from "./handler-context";
import {
  compactionBetaViolation,
  compactionBlock,
  compactionText,
  isAnthropicCompactionRequest,
  MOCK_COMPACTION_TEXT,
  sendAnthropicCompaction,
  serverCompactionTrigger,
} from "./native-compaction";
import { faultPoint, holdPoint, holdsAtStart, planReply, type ReplyPlan } from "./plan";
import type { Fault } from "./types";
import { validateAnthropic } from "./validate";
import { estimateTokens, requestChars, requestModel, strictViolation, wantsStream } from "./wire";

/** A ping goes out after the first content block starts and then after every this many text deltas. */
const PING_EVERY_DELTAS = 3;
/** Anthropic answers 429 with retry-after; the mock's default when the script gives none. */
const DEFAULT_RETRY_AFTER_S = 1;

export const ANTHROPIC_OVERFLOW_MESSAGE = "prompt is too long: 210000 tokens > 200000 maximum";

const DEFAULT_TYPE_BY_STATUS: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

const STATUS_BY_TYPE: Record<string, number> = Object.fromEntries(
  Object.entries(DEFAULT_TYPE_BY_STATUS).map(([status, type]) => [type, Number(status)]),
);

const DEFAULT_MESSAGE_BY_TYPE: Record<string, string> = {
  invalid_request_error: ANTHROPIC_OVERFLOW_MESSAGE,
  authentication_error: "invalid x-api-key",
  billing_error: "Your credit balance is too low to access the Anthropic API.",
  permission_error: "Your API key does not have permission to use the specified resource.",
  not_found_error: "Not found",
  request_too_large: "Request exceeds the maximum allowed number of bytes.",
  rate_limit_error:
    "This request would exceed the rate limit for your organization of 50,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.",
  api_error: "Internal server error",
  timeout_error: "Request timed out",
  overloaded_error: "Overloaded",
};

function defaultType(status: number): string {
  return DEFAULT_TYPE_BY_STATUS[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}

function requestId(ctx: HandlerContext): string {
  return `req_mock${padId(ctx.nextId())}`;
}

function sendError(
  ex: Exchange,
  ctx: HandlerContext,
  status: number,
  type: string,
  message: string,
  retryAfterSeconds?: number | null,
): void {
  const id = requestId(ctx);
  const headers: Record<string, string> = { "request-id": id };
  const retryAfter = retryAfterSeconds === undefined && status === 429 ? DEFAULT_RETRY_AFTER_S : retryAfterSeconds;
  if (retryAfter !== undefined && retryAfter !== null) headers["retry-after"] = String(retryAfter);
  ex.json(status, { type: "error", error: { type, message }, request_id: id }, headers);
}

function sendHttpFault(ex: Exchange, ctx: HandlerContext, fault: Extract<Fault, { kind: "http" }>): void {
  const type = fault.errorType ?? defaultType(fault.status);
  const message = fault.message ?? DEFAULT_MESSAGE_BY_TYPE[type] ?? `Mock error ${fault.status}`;
  sendError(ex, ctx, fault.status, type, message, fault.retryAfterSeconds);
}

export async function handleAnthropic(ex: Exchange, route: string, ctx: HandlerContext): Promise<void> {
  const config = ctx.config();
  const auth = checkAuth(ex.record.headers, config);
  if (auth !== "ok") {
    const message = auth === "missing" ? "x-api-key header is required" : "invalid x-api-key";
    sendError(ex, ctx, 401, "authentication_error", message);
    return;
  }
  const method = ex.record.method;
  if (handleAnthropicFile(ex, route, ctx.flakyFiles)) return;
  if (method === "GET" && route === "/v1/models") {
    const data = config.models.anthropic.map(modelInfo);
    ex.json(200, { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
    return;
  }
  if (method === "GET" && route.startsWith("/v1/models/")) {
    const id = decodeURIComponent(route.slice("/v1/models/".length));
    if (config.models.anthropic.includes(id)) ex.json(200, modelInfo(id));
    else sendError(ex, ctx, 404, "not_found_error", `model: ${id}`);
    return;
  }
  if (method !== "POST" || (route !== "/v1/messages" && route !== "/v1/messages/count_tokens")) {
    sendError(ex, ctx, 404, "not_found_error", "Not Found");
    return;
  }
  if (typeof ex.record.body !== "object" || ex.record.body === null) {
    sendError(ex, ctx, 400, "invalid_request_error", "There was an error parsing the body");
    return;
  }
  if (route === "/v1/messages/count_tokens") {
    if (config.countTokens === "fail") sendError(ex, ctx, 404, "not_found_error", "Not Found");
    else if (typeof config.countTokens === "number") ex.json(200, { input_tokens: config.countTokens });
    else ex.json(200, { input_tokens: Math.max(1, estimateTokens(requestChars(ex.record))) });
    return;
  }
  const invalid = config.validate ? validateAnthropic(ex.record.body) : null;
  if (invalid) {
    sendError(ex, ctx, 400, "invalid_request_error", invalid.message);
    return;
  }
  // The API checks tool pairing whatever the mock's validation setting: no real request skips it.
  const unpaired = toolPairingViolation((ex.record.body as { messages?: unknown[] }).messages ?? []);
  if (unpaired) {
    sendError(ex, ctx, 400, "invalid_request_error", unpaired);
    return;
  }
  const strict = config.strict ? strictViolation(ex.record) : null;
  if (strict) {
    sendError(ex, ctx, 400, "invalid_request_error", strict);
    return;
  }
  const beta = compactionBetaViolation(ex.record.headers, ex.record.body);
  if (beta) {
    sendError(ex, ctx, 400, "invalid_request_error", beta);
    return;
  }
  const script = ctx.takeScript("anthropic", ex.record);

  const plan = planReply(script, ex.record, config);
  await ex.sleep(plan.latencyMs);
  if (holdsAtStart(plan, wantsStream(ex.record))) await ctx.hold("anthropic", ex);
  if (ex.closed) return;
  if (plan.fault?.kind === "http") {
    sendHttpFault(ex, ctx, plan.fault);
    return;
  }
  const model = requestModel(ex.record);
  const id = `msg_mock${padId(ctx.nextId())}`;
  if (isAnthropicCompactionRequest(ex.record.body)) {
    const text = compactionText(plan, script !== undefined);
    await sendAnthropicCompaction(ex, { id, model, text, stream: wantsStream(ex.record), usage: plan.usage });
    return;
  }
  // Server-side compaction (`context_management` edit `compact_20260112`): past its trigger, the
  // reply begins with a compaction block of everything before it.
  const trigger = serverCompactionTrigger(ex.record.body);
  const lead =
    trigger !== null && estimateTokens(requestChars(ex.record)) >= trigger
      ? compactionBlock(MOCK_COMPACTION_TEXT)
      : null;
  if (wantsStream(ex.record)) await streamMessage(ex, ctx, plan, id, model, lead);
  else await sendMessage(ex, ctx, plan, id, model, lead);
}

function modelInfo(id: string): { type: "model"; id: string; display_name: string; created_at: string } {
  return { type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" };
}

function stopReason(plan: ReplyPlan): "end_turn" | "max_tokens" | "tool_use" {
  return plan.stop === "length" ? "max_tokens" : plan.stop === "tool_use" ? "tool_use" : "end_turn";
}

/** The reply's blocks around its text: server tools before it, function calls after it. */
type ToolBlocks = { leading: ReplyBlock[]; calls: ReplyBlock[] };

function toolBlocks(plan: ReplyPlan, ctx: HandlerContext): ToolBlocks {
  const nextId = (): string => padId(ctx.nextId());
  return { leading: leadingToolBlocks(plan, nextId), calls: toolUseBlocks(plan, nextId) };
}

/** A reply that only calls tools has no text block (the API sends none either). */
function hasText(plan: ReplyPlan, tools: ToolBlocks): boolean {
  return plan.text !== "" || (tools.leading.length === 0 && tools.calls.length === 0);
}

function contentBlocks(plan: ReplyPlan, tools: ToolBlocks): Array<Record<string, unknown>> {
  const blocks: Array<Record<string, unknown>> = [];
  if (plan.thinking !== "") blocks.push({ type: "thinking", thinking: plan.thinking, signature: plan.signature });
  blocks.push(...tools.leading.map((b) => b.full));
  if (hasText(plan, tools)) blocks.push(textBlock(plan).full);
  blocks.push(...tools.calls.map((b) => b.full));
  return blocks;
}

function usageBody(plan: ReplyPlan, outputTokens: number): Record<string, unknown> {
  const serverToolUse = serverToolUsage(plan);
  return {
    input_tokens: plan.usage.input,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: outputTokens,
    ...(serverToolUse ? { server_tool_use: serverToolUse } : {}),
  };
}

async function sendMessage(
  ex: Exchange,
  ctx: HandlerContext,
  plan: ReplyPlan,
  id: string,
  model: string,
  lead: Record<string, unknown> | null,
): Promise<void> {
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
    // Without a stream there is no "middle": the same failure arrives as an HTTP error.
    const type = fault.errorType ?? "overloaded_error";
    const status = STATUS_BY_TYPE[type] ?? 500;
    sendError(ex, ctx, status, type, fault.message ?? DEFAULT_MESSAGE_BY_TYPE[type] ?? "Internal server error");
    return;
  }
  ex.json(
    200,
    {
      id,
      type: "message",
      role: "assistant",
      model,
      content: lead
        ? [lead, ...contentBlocks(plan, toolBlocks(plan, ctx))]
        : contentBlocks(plan, toolBlocks(plan, ctx)),
      stop_reason: stopReason(plan),
      stop_sequence: null,
      usage: usageBody(plan, plan.usage.output),
    },
    { "request-id": requestId(ctx) },
  );
}

async function streamMessage(
  ex: Exchange,
  ctx: HandlerContext,
  plan: ReplyPlan,
  id: string,
  model: string,
  lead: Record<string, unknown> | null,
): Promise<void> {
  const send = (event: string, data: Record<string, unknown>): void => {
    ex.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  };
  ex.startSse({ "request-id": requestId(ctx) });
  send("message_start", {
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: plan.usage.input,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 1,
      },
    },
  });

  let index = 0;
  let pinged = false;
  const ping = (): void => {
    send("ping", {});
    pinged = true;
  };
  if (lead) {
    const { content, encrypted_content, ...rest } = lead;
    send("content_block_start", { index, content_block: { ...rest, content: null, encrypted_content: null } });
    send("content_block_delta", { index, delta: { type: "compaction_delta", content, encrypted_content } });
    send("content_block_stop", { index });
    index++;
  }
  if (plan.thinking !== "") {
    send("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
    ping();
    for (const chunk of plan.thinkingChunks) {
      await ex.sleep(plan.chunkDelayMs);
      send("content_block_delta", { index, delta: { type: "thinking_delta", thinking: chunk } });
    }
    send("content_block_delta", { index, delta: { type: "signature_delta", signature: plan.signature } });
    send("content_block_stop", { index });
    index++;
  }

  const tools = toolBlocks(plan, ctx);
  const streamBlock = async (block: ReplyBlock): Promise<void> => {
    send("content_block_start", { index, content_block: block.start });
    for (const delta of block.deltas) {
      await ex.sleep(plan.chunkDelayMs);
      send("content_block_delta", { index, delta });
    }
    send("content_block_stop", { index });
    index++;
  };
  for (const block of tools.leading) {
    if (ex.closed) return;
    await streamBlock(block);
  }

  const text = textBlock(plan);
  const withText = hasText(plan, tools);
  if (withText) {
    send("content_block_start", { index, content_block: text.start });
    for (const delta of text.citationDeltas) send("content_block_delta", { index, delta });
  }
  if (!pinged) ping();
  const faultAt = faultPoint(plan);
  const holdAt = holdPoint(plan);
  for (let sent = 0; ; sent++) {
    if (ex.closed) return;
    if (sent === holdAt) {
      await ctx.hold("anthropic", ex);
      if (ex.closed) return;
    }
    if (sent === faultAt) {
      await fail(ex, plan);
      return;
    }
    const chunk = plan.chunks[sent];
    if (chunk === undefined) break;
    await ex.sleep(plan.chunkDelayMs);
    send("content_block_delta", { index, delta: { type: "text_delta", text: chunk } });
    if ((sent + 1) % PING_EVERY_DELTAS === 0) ping();
  }
  if (withText) {
    send("content_block_stop", { index });
    index++;
  }
  for (const block of tools.calls) {
    if (ex.closed) return;
    await streamBlock(block);
  }
  send("message_delta", {
    delta: { stop_reason: stopReason(plan), stop_sequence: null },
    usage: usageBody(plan, plan.usage.output),
  });
  send("message_stop", {});
  ex.end();
}

async function fail(ex: Exchange, plan: ReplyPlan): Promise<void> {
  const fault = plan.fault;
  if (fault?.kind === "midstream_error") {
    const type = fault.errorType ?? "overloaded_error";
    const message = fault.message ?? DEFAULT_MESSAGE_BY_TYPE[type] ?? "Internal server error";
    ex.write(`event: error\ndata: ${JSON.stringify({ type: "error", error: { type, message } })}\n\n`);
    ex.end();
  } else if (fault?.kind === "drop") {
    await ex.drop();
  } else if (fault?.kind === "hang") {
    await ex.waitClosed();
  }
}
