/**
 * One model call, streamed to its whole text: the summarizer's (`summarizeText`: one user message
 * under a system prompt, no thinking) or any context (`streamText`, the handoff's). Progress is
 * forwarded throttled; a failure rejects with the stream's MessageError; an abort rejects at once
 * (raced against every stream step, so a stalled stream can't delay it).
 */
import { assertNever } from "../core/session/entries";
import { abortedError, StreamEndedError } from "../providers/classify-error";
import type { StreamRequest } from "../providers/types";
import type { SummarizeRequest } from "./api";
import type { WorkerDeps } from "./deps";
import { notify } from "./notify";

type StreamDeps = Pick<WorkerDeps, "stream" | "now" | "progressIntervalMs">;

/** Streams one summarizer call and resolves with its text. */
export function summarizeText(
  deps: StreamDeps,
  req: SummarizeRequest,
  onText: (text: string) => void,
  signal: AbortSignal,
): Promise<string> {
  return streamText(
    deps,
    {
      provider: req.provider,
      model: req.model,
      context: { system: req.system, messages: [{ role: "user", content: [{ type: "text", text: req.prompt }] }] },
      maxOutputTokens: req.maxOutputTokens,
      thinking: { kind: "off" },
      signal,
    },
    onText,
  );
}

/** Streams one request (any context) and resolves with its text; thinking deltas are ignored. */
export async function streamText(
  deps: StreamDeps,
  request: StreamRequest,
  onText: (text: string) => void,
): Promise<string> {
  const { signal } = request;
  // Settles only on abort: raced against every step, so a cancel ends the call at once even if
  // the provider stream is slow to notice the aborted request.
  const aborted = new Promise<never>((_, reject) => {
    const onAbort = () => reject(abortedError());
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => {});

  const events = deps.stream(request)[Symbol.asyncIterator]();
  let text = "";
  let sent = "";
  let sentAt = Number.NEGATIVE_INFINITY;
  const flush = () => {
    if (text === sent) return;
    sent = text;
    sentAt = deps.now();
    notify(onText, text);
  };
  try {
    for (;;) {
      const step = await Promise.race([events.next(), aborted]);
      if (step.done) throw new StreamEndedError("The summarizer stream ended without a final event.");
      const event = step.value;
      switch (event.type) {
        case "text_delta":
          text += event.delta;
          if (deps.now() - sentAt >= deps.progressIntervalMs) flush();
          break;
        case "done":
          flush();
          return text;
        case "error":
          throw event.error;
        case "start":
        case "thinking_delta":
        case "retry_wait":
          break;
        // A summarizer request offers no tools: these never come, and would add no text.
        case "toolcall_start":
        case "toolcall_delta":
        case "toolcall_end":
        case "server_tool":
          break;
        default:
          assertNever(event, "stream event");
      }
    }
  } finally {
    // Stop the provider stream if we left early (cancel, contract violation); never awaited.
    Promise.resolve(events.return?.()).catch(() => {});
  }
}
