/**
 * Test support for the worker's maintenance calls (branch summary, handoff) and the state actions
 * over them: a scripted provider stream that records its requests, and an estimate counter so no
 * rank file is loaded. Nothing in the app imports this file. No I/O.
 */
import type { MessageError, Usage } from "../../core/session/entries";
import { estimateTokens } from "../../core/tokens/estimate";
import type { TokenEncoding } from "../../core/tokens/models";
import type { TokenCounter } from "../../core/tokens/tokenizer";
import type { AssistantPartial, StreamFn, StreamRequest } from "../../providers/types";
import type { WorkerApi } from "../api";
import { createWorkerApi } from "../worker-api";

/**
 * One step of a scripted reply: a text delta, a thinking delta, a tool call's events (a model calling a
 * tool nobody offered it), a final error, `done`, or hang until aborted.
 */
export type ScriptStep =
  | { delta: string }
  | { thinking: string }
  | { toolCall: string }
  | { error: MessageError }
  /** The usage the provider reports on the final event. */
  | { usage: Usage }
  | "done"
  | "hang";

/** The empty reply a scripted stream starts from, labelled as the request's provider would label it. */
export function emptyPartial(req: StreamRequest): AssistantPartial {
  return { content: [], providerId: req.provider.id, api: req.provider.api, model: req.model };
}

/**
 * A stream that plays `steps` for every request and records the requests. "hang" waits without
 * looking at the signal (cancellation must not depend on the provider noticing).
 */
export function scriptedStream(steps: readonly ScriptStep[]): { stream: StreamFn; requests: StreamRequest[] } {
  const requests: StreamRequest[] = [];
  const stream: StreamFn = async function* (req) {
    requests.push(req);
    let partial = emptyPartial(req);
    yield { type: "start", partial };
    for (const step of steps) {
      await Promise.resolve();
      if (step === "done") {
        yield { type: "done", partial: { ...partial, stopReason: "end" } };
        return;
      }
      if (step === "hang") {
        await new Promise<void>(() => {});
        return;
      }
      if ("usage" in step) partial = { ...partial, usage: step.usage };
      else if ("delta" in step) yield { type: "text_delta", delta: step.delta, partial };
      else if ("thinking" in step) yield { type: "thinking_delta", delta: step.thinking, partial };
      else if ("toolCall" in step) {
        const toolCall = { type: "tool_call" as const, id: `call-${step.toolCall}`, name: step.toolCall, args: {} };
        yield { type: "toolcall_start", index: 0, partial };
        yield { type: "toolcall_delta", index: 0, delta: "{}", partial };
        yield { type: "toolcall_end", index: 0, toolCall, partial };
      } else {
        yield { type: "error", partial: { ...partial, stopReason: "error" }, error: step.error };
        return;
      }
    }
  };
  return { stream, requests };
}

/** The estimate (4 characters a token) as every encoding's counter. */
export const estimateCounter = async (encoding: TokenEncoding): Promise<TokenCounter> => ({
  encoding,
  count: estimateTokens,
  exact: false,
});

/** The real worker API over a scripted stream and the estimate counter, plus the requests it sent. */
export function scriptedWorker(steps: readonly ScriptStep[]): { worker: WorkerApi; requests: StreamRequest[] } {
  const { stream, requests } = scriptedStream(steps);
  return { worker: createWorkerApi({ stream, counterFor: estimateCounter, progressIntervalMs: 0 }), requests };
}
