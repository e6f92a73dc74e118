/**
 * OpenAI Chat Completions as the mock speaks it, under `/openai`: `POST /v1/chat/completions` (SSE or
 * JSON) and `GET /v1/models[/{id}]`; `POST /v1/responses` is in openai-responses.ts. Chunk and error shapes follow
 * https://platform.openai.com/docs/api-reference/chat-streaming and the API's `{"error": {…}}` bodies.
 */
import { handleOpenAIContainerFile } from "./code-files";
import type { Exchange } from "./exchange";
import { checkAuth, type HandlerContext, padId, redactKey, requestApiKey } from "./handler-context";
import { handleResponses, handleResponsesCompact } from "./openai-responses";
import {
  type ChatToolCall,
  chatToolCallDeltas,
  chatToolCalls,
  chatToolCallsBody,
  chatToolPairingViolation,
} from "./openai-tools";
import { faultPoint, holdPoint, holdsAtStart, planReply, type ReplyPlan } from "./plan";
import type { Fault, MockConfig } from "./types";
import { validateOpenAI } from "./validate";
import { isRecord, requestModel, strictViolation, wantsStream } from "./wire";

const DEFAULT_RETRY_AFTER_S = 1;

export const OPENAI_OVERFLOW_MESSAGE =
  "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.";

const SERVER_ERROR_MESSAGE = "The server had an error while processing your request. Sorry about that!";

export type OpenAIErrorBody = { message: string; type: string; param: string | null; code: string | null };

/** The provider's own body for an error status, before any script overrides. */
function defaultError(status: number, model: string, key: string | null): OpenAIErrorBody {
  switch (status) {
    case 400:
      return {
        message: OPENAI_OVERFLOW_MESSAGE,
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      };
    case 401:
      return {
        message: `Incorrect API key provided: ${redactKey(key ?? "")}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key",
      };
    case 403:
      return {
        message: "You are not allowed to sample from this model",
        type: "invalid_request_error",
        param: null,
        code: null,
      };
    case 404:
      return {
        message: `The model \`${model}\` does not exist or you do not have access to it.`,
        type: "invalid_request_error",
        param: null,
        code: "model_not_found",
      };
    case 429:
      return {
        message: `Rate limit reached for ${model || "gpt-4o"} in organization org-mock on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200. Please try again in 2.4s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
        type: "tokens",
        param: null,
        code: "rate_limit_exceeded",
      };
    case 502:
    case 503:
      return { message: "The server is overloaded or not ready yet.", type: "server_error", param: null, code: null };
    default:
      return status >= 500
        ? { message: SERVER_ERROR_MESSAGE, type: "server_error", param: null, code: null }
        : { message: `Mock error ${status}`, type: "invalid_request_error", param: null, code: null };
  }
}

export function sendError(
  ex: Exchange,
  ctx: HandlerContext,
  status: number,
  error: OpenAIErrorBody,
  retryAfterSeconds?: number | null,
): void {
  const headers: Record<string, string> = { "x-request-id": `req_mock${padId(ctx.nextId())}` };
  const retryAfter = retryAfterSeconds === undefined && status === 429 ? DEFAULT_RETRY_AFTER_S : retryAfterSeconds;
  if (retryAfter !== undefined && retryAfter !== null) headers["retry-after"] = String(retryAfter);
  ex.json(status, { error }, headers);
}

export function httpFaultBody(
  fault: Extract<Fault, { kind: "http" }>,
  model: string,
  key: string | null,
): OpenAIErrorBody {
  const preset = defaultError(fault.status, model, key);
  // A 400 with its own message is some other bad request, not the overflow preset.
  const customBadRequest = fault.status === 400 && fault.message !== undefined;
  return {
    message: fault.message ?? preset.message,
    type: fault.errorType ?? preset.type,
    param: fault.param !== undefined ? fault.param : customBadRequest ? null : preset.param,
    code: fault.code !== undefined ? fault.code : customBadRequest ? null : preset.code,
  };
}

export function midstreamBody(fault: Extract<Fault, { kind: "midstream_error" }>): OpenAIErrorBody {
  return {
    message: fault.message ?? SERVER_ERROR_MESSAGE,
    type: fault.errorType ?? "server_error",
    param: null,
    code: null,
  };
}

export async function handleOpenAI(ex: Exchange, route: string, ctx: HandlerContext): Promise<void> {
  const config = ctx.config();
  const key = requestApiKey(ex.record.headers);
  const auth = checkAuth(ex.record.headers, config);
  if (auth === "missing") {
    sendError(ex, ctx, 401, {
      message:
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
      type: "invalid_request_error",
      param: null,
      code: null,
    });
    return;
  }
  if (auth === "invalid") {
    sendError(ex, ctx, 401, defaultError(401, "", key));
    return;
  }
  const method = ex.record.method;
  if (handleOpenAIContainerFile(ex, route, ctx.flakyFiles)) return;
  if (method === "GET" && route === "/v1/models") {
    ex.json(200, { object: "list", data: config.models.openai.map(modelInfo) });
    return;
  }
  if (method === "GET" && route.startsWith("/v1/models/")) {
    const id = decodeURIComponent(route.slice("/v1/models/".length));
    if (config.models.openai.includes(id)) ex.json(200, modelInfo(id));
    else sendError(ex, ctx, 404, defaultError(404, id, key));
    return;
  }
  if (method === "POST" && route === "/v1/responses/compact") {
    await handleResponsesCompact(ex, ctx);
    return;
  }
  if (method === "POST" && route === "/v1/responses") {
    await handleResponses(ex, ctx);
    return;
  }
  if (method !== "POST" || route !== "/v1/chat/completions") {
    sendError(ex, ctx, 404, {
      message: `Invalid URL (${method} ${route})`,
      type: "invalid_request_error",
      param: null,
      code: null,
    });
    return;
  }
  if (!isRecord(ex.record.body)) {
    sendError(ex, ctx, 400, {
      message:
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
      type: "invalid_request_error",
      param: null,
      code: null,
    });
    return;
  }
  const invalid = config.validate ? validateOpenAI(ex.record.body) : null;
  if (invalid) {
    sendError(ex, ctx, 400, {
      message: invalid.message,
      type: "invalid_request_error",
      param: invalid.param ?? null,
      code: invalid.code ?? null,
    });
    return;
  }
  const strict = config.strict ? strictViolation(ex.record) : null;
  if (strict) {
    sendError(ex, ctx, 400, { message: strict, type: "invalid_request_error", param: null, code: null });
    return;
  }
  const unpaired = chatToolPairingViolation(Array.isArray(ex.record.body.messages) ? ex.record.body.messages : []);
  if (unpaired) {
    sendError(ex, ctx, 400, { ...unpaired, type: "invalid_request_error", code: null });
    return;
  }

  const plan = planReply(ctx.takeScript("openai", ex.record), ex.record, config);
  await ex.sleep(plan.latencyMs);
  if (holdsAtStart(plan, wantsStream(ex.record))) await ctx.hold("openai", ex);
  if (ex.closed) return;
  const model = requestModel(ex.record);
  if (plan.fault?.kind === "http") {
    sendError(ex, ctx, plan.fault.status, httpFaultBody(plan.fault, model, key), plan.fault.retryAfterSeconds);
    return;
  }
  const id = `chatcmpl-mock${padId(ctx.nextId())}`;
  const body = ex.record.body;
  const includeUsage = isRecord(body.stream_options) && body.stream_options.include_usage === true;
  if (wantsStream(ex.record)) await streamCompletion(ex, ctx, plan, { id, model, includeUsage, config });
  else await sendCompletion(ex, ctx, plan, { id, model, config });
}

function modelInfo(id: string): { id: string; object: "model"; created: number; owned_by: string } {
  return { id, object: "model", created: 1_735_689_600, owned_by: "grove-mock" };
}

function finishReason(plan: ReplyPlan): "stop" | "length" | "tool_calls" {
  return plan.stop === "length" ? "length" : plan.stop === "tool_use" ? "tool_calls" : "stop";
}

function toolCallsOf(plan: ReplyPlan, ctx: HandlerContext): ChatToolCall[] {
  return chatToolCalls(plan, () => padId(ctx.nextId()));
}

function usageBody(plan: ReplyPlan): Record<string, unknown> {
  return {
    prompt_tokens: plan.usage.input,
    completion_tokens: plan.usage.output,
    total_tokens: plan.usage.input + plan.usage.output,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: Math.ceil(plan.thinking.length / 4),
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

async function sendCompletion(
  ex: Exchange,
  ctx: HandlerContext,
  plan: ReplyPlan,
  meta: { id: string; model: string; config: MockConfig },
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
    // Without a stream there is no "middle": the same failure arrives as a 500.
    sendError(ex, ctx, 500, midstreamBody(fault));
    return;
  }
  const calls = toolCallsOf(plan, ctx);
  const message: Record<string, unknown> = {
    role: "assistant",
    // The API sends null content for a reply that only calls tools.
    content: calls.length > 0 && plan.text === "" ? null : plan.text,
    refusal: null,
    annotations: [],
  };
  if (calls.length > 0) message.tool_calls = chatToolCallsBody(calls);
  if (plan.thinking !== "") message[meta.config.openaiReasoningField] = plan.thinking;
  ex.json(
    200,
    {
      id: meta.id,
      object: "chat.completion",
      created: nowSeconds(),
      model: meta.model,
      system_fingerprint: "fp_grove_mock",
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(plan) }],
      usage: usageBody(plan),
    },
    { "x-request-id": `req_mock${padId(ctx.nextId())}` },
  );
}

async function streamCompletion(
  ex: Exchange,
  ctx: HandlerContext,
  plan: ReplyPlan,
  meta: { id: string; model: string; includeUsage: boolean; config: MockConfig },
): Promise<void> {
  const created = nowSeconds();
  const chunk = (choices: unknown[], usage?: Record<string, unknown>): void => {
    const data: Record<string, unknown> = {
      id: meta.id,
      object: "chat.completion.chunk",
      created,
      model: meta.model,
      system_fingerprint: "fp_grove_mock",
      choices,
    };
    // With include_usage, OpenAI puts `usage: null` on every chunk but the last.
    if (meta.includeUsage) data.usage = usage ?? null;
    ex.write(`data: ${JSON.stringify(data)}\n\n`);
  };
  const delta = (d: Record<string, unknown>, finish: string | null = null): void => {
    chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);
  };

  ex.startSse({ "x-request-id": `req_mock${padId(ctx.nextId())}`, "openai-processing-ms": "1" });
  delta({ role: "assistant", content: "", refusal: null });
  for (const piece of plan.thinkingChunks) {
    await ex.sleep(plan.chunkDelayMs);
    delta({ [meta.config.openaiReasoningField]: piece });
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
      await fail(ex, plan);
      return;
    }
    const piece = plan.chunks[sent];
    if (piece === undefined) break;
    await ex.sleep(plan.chunkDelayMs);
    delta({ content: piece });
  }
  for (const d of chatToolCallDeltas(toolCallsOf(plan, ctx))) {
    if (ex.closed) return;
    await ex.sleep(plan.chunkDelayMs);
    delta(d);
  }
  delta({}, finishReason(plan));
  if (meta.includeUsage) chunk([], usageBody(plan));
  ex.write("data: [DONE]\n\n");
  ex.end();
}

async function fail(ex: Exchange, plan: ReplyPlan): Promise<void> {
  const fault = plan.fault;
  if (fault?.kind === "midstream_error") {
    ex.write(`data: ${JSON.stringify({ error: midstreamBody(fault) })}\n\n`);
    ex.end();
  } else if (fault?.kind === "drop") {
    await ex.drop();
  } else if (fault?.kind === "hang") {
    await ex.waitClosed();
  }
}
