/**
 * From a queued script (or none) and the request to a concrete reply plan: the text and thinking
 * deltas, delays, stop reason, usage and fault. Deterministic: the same request and script always give
 * the same plan. No I/O here; the api handlers turn a plan into wire events.
 */
import { createHash } from "node:crypto";
import { answersTitleRequest, defaultChatTitle, isChatTitleRequest } from "./chat-title";
import { fidelityReply, taskReply } from "./fidelity";
import type {
  Fault,
  MockConfig,
  RecordedRequest,
  ReplyScript,
  ScriptCitation,
  ScriptMatch,
  ScriptToolCall,
  ServerToolScript,
} from "./types";
import {
  allText,
  estimateTokens,
  lastToolResultText,
  lastUserText,
  requestChars,
  requestModel,
  requestSystem,
} from "./wire";

/** "A few chunks": default replies and `text` scripts are split into at most this many text deltas. */
const MAX_TEXT_CHUNKS = 4;
const MAX_THINKING_CHUNKS = 3;

export type ReplyPlan = {
  text: string;
  chunks: string[];
  thinking: string;
  thinkingChunks: string[];
  /** Anthropic's signature for the thinking block (deterministic, base64). "" without thinking. */
  signature: string;
  chunkDelayMs: number;
  latencyMs: number;
  /** `tool_use`: the reply ends in function tool calls (the model waits for their results). */
  stop: "end" | "length" | "tool_use";
  toolCalls: ScriptToolCall[];
  serverTools: ServerToolScript[];
  citations: ScriptCitation[];
  usage: { input: number; output: number };
  fault: Fault | undefined;
  /** Where the response parks until `release()`: before anything is sent, after N text deltas, or never. */
  hold: { at: "start" } | { at: "chunk"; afterChunks: number } | null;
};

/** Split at word boundaries into at most `maxChunks` pieces whose concatenation is `text`. */
export function splitIntoChunks(text: string, maxChunks: number): string[] {
  if (text === "") return [];
  const words = text.match(/\S+\s*|\s+/g) ?? [text];
  const count = Math.max(1, Math.min(maxChunks, words.length));
  const perChunk = Math.ceil(words.length / count);
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += perChunk) chunks.push(words.slice(i, i + perChunk).join(""));
  return chunks;
}

export function thinkingSignature(thinking: string): string {
  const digest = createHash("sha256").update(thinking).digest("hex");
  return Buffer.from(`grove-mock-signature:${digest}`).toString("base64");
}

type RequestLike = Pick<RecordedRequest, "api" | "body">;

export function scriptMatches(match: ScriptMatch | undefined, req: RequestLike): boolean {
  if (!match) return true;
  if (match.model !== undefined && requestModel(req) !== match.model) return false;
  if (match.system !== undefined && !requestSystem(req).includes(match.system)) return false;
  if (match.lastUser !== undefined && !lastUserText(req).includes(match.lastUser)) return false;
  if (match.anyText !== undefined && !allText(req).includes(match.anyText)) return false;
  if (match.lastToolResult !== undefined && !lastToolResultText(req).includes(match.lastToolResult)) return false;
  return true;
}

/**
 * The first queued script that matches the request, removed from the queue; undefined if none. A chat
 * title request takes only a script written for it (chat-title.ts).
 */
export function takeScript(queue: ReplyScript[], req: RequestLike): ReplyScript | undefined {
  const title = isChatTitleRequest(req);
  const index = queue.findIndex(
    (script) => (!title || answersTitleRequest(script)) && scriptMatches(script.match, req),
  );
  if (index < 0) return undefined;
  return queue.splice(index, 1)[0];
}

export function planReply(script: ReplyScript | undefined, req: RequestLike, config: MockConfig): ReplyPlan {
  const s = script ?? {};
  const toolCalls = s.toolCalls ?? [];
  const serverTools = s.serverTools ?? [];
  // The fidelity bench's models (fidelity.ts) answer unscripted requests by their model id; in the
  // `unscripted: "fidelity"` mode any other model answers by the task the request carries.
  const fidelity = script
    ? null
    : (fidelityReply(req) ?? (config.unscripted === "fidelity" && !isChatTitleRequest(req) ? taskReply(req) : null));
  // A model that calls tools often writes nothing: no echo then, only the text the script gives.
  const fallback =
    fidelity?.text ??
    (toolCalls.length > 0 || serverTools.length > 0
      ? ""
      : isChatTitleRequest(req)
        ? defaultChatTitle(req)
        : `Echo: ${lastUserText(req)}`);
  const chunks = s.chunks ? [...s.chunks] : splitIntoChunks(s.text ?? fallback, MAX_TEXT_CHUNKS);
  const text = chunks.join("");
  const thinking = s.thinking ?? "";
  return {
    text,
    chunks,
    thinking,
    thinkingChunks: splitIntoChunks(thinking, MAX_THINKING_CHUNKS),
    signature: thinking === "" ? "" : thinkingSignature(thinking),
    chunkDelayMs: s.chunkDelayMs ?? config.chunkDelayMs,
    latencyMs: s.latencyMs ?? 0,
    stop: s.stopReason ?? fidelity?.stop ?? (toolCalls.length > 0 ? "tool_use" : "end"),
    toolCalls,
    serverTools,
    citations: s.citations ?? [],
    usage: {
      input: s.usage?.input ?? Math.max(1, estimateTokens(requestChars(req))),
      output: s.usage?.output ?? estimateTokens(text.length + thinking.length + toolCallChars(toolCalls)),
    },
    fault: s.fault,
    hold:
      s.hold === undefined
        ? null
        : s.hold === true
          ? { at: "start" }
          : { at: "chunk", afterChunks: Math.max(0, Math.min(s.hold.afterChunks, chunks.length)) },
  };
}

/**
 * Whether the response parks before anything is sent: a `hold: true` script, or any hold on a
 * non-streaming request (a JSON reply has no "middle" to stop in).
 */
export function holdsAtStart(plan: ReplyPlan, streaming: boolean): boolean {
  return plan.hold !== null && (plan.hold.at === "start" || !streaming);
}

/** After how many text deltas a streamed reply parks; null when it does not park mid-stream. */
export function holdPoint(plan: ReplyPlan): number | null {
  return plan.hold?.at === "chunk" ? plan.hold.afterChunks : null;
}

/** When a mid-stream fault fires: after this many text deltas (clamped to the reply's length). */
export function faultPoint(plan: ReplyPlan): number | null {
  const fault = plan.fault;
  if (!fault || fault.kind === "http") return null;
  return Math.max(0, Math.min(fault.afterChunks, plan.chunks.length));
}

function toolCallChars(calls: readonly ScriptToolCall[]): number {
  return calls.reduce((sum, c) => sum + c.name.length + JSON.stringify(c.input).length, 0);
}

/** A tool call's arguments as the JSON text deltas a provider streams: at most 3 pieces. */
export function argumentChunks(input: Record<string, unknown>): string[] {
  const json = JSON.stringify(input);
  const size = Math.max(1, Math.ceil(json.length / 3));
  const out: string[] = [];
  for (let i = 0; i < json.length; i += size) out.push(json.slice(i, i + size));
  return out.length > 0 ? out : ["{}"];
}
