/**
 * A scripted provider stream for the tool loop's tests (as pi's agent-loop.test.ts drives its loop):
 * each model call takes the next step of the script and streams it as the adapters do — `start`, a
 * delta per block, then `done` or `error` — recording the context it was sent. A `hang` step streams
 * its content and then waits for the signal (a reply the user stops). Test support only.
 */
import type { StepPartial, StepStreamEvent, StepStreamFn } from "../agent/types";
import type { LlmContext } from "../session/context";
import type { MessageError, StopReason, Usage } from "../session/entries";

export type ScriptedStep = {
  content: StepPartial["content"];
  stopReason?: StopReason;
  usage?: Usage;
  /** End with this error instead of `done` (after the content). */
  error?: MessageError;
  /** Stream the content, then wait until the signal aborts (then end as a stopped reply). */
  hang?: boolean;
};

export type ScriptedEvent = StepStreamEvent & {
  readonly type: "start" | "block" | "done" | "error";
  readonly partial: StepPartial;
};

export function scriptedStream(steps: ScriptedStep[]): {
  streamFn: StepStreamFn<ScriptedEvent>;
  /** The context each call was sent, in order. */
  contexts: LlmContext[];
  /** How many steps are left unused. */
  left(): number;
} {
  const queue = [...steps];
  const contexts: LlmContext[] = [];
  async function* stream(context: LlmContext, signal: AbortSignal): AsyncGenerator<ScriptedEvent> {
    contexts.push(context);
    const step = queue.shift();
    if (!step) throw new Error(`the script has no step for call ${contexts.length}`);
    const content: StepPartial["content"][number][] = [];
    const partial = (): StepPartial => ({
      content,
      providerId: "anthropic",
      api: "anthropic-messages",
      model: "claude-test",
      ...(step.usage ? { usage: step.usage } : {}),
    });
    yield { type: "start", partial: partial() };
    for (const block of step.content) {
      await Promise.resolve();
      content.push(structuredClone(block));
      yield { type: "block", partial: partial() };
    }
    if (step.hang) {
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener("abort", () => resolve(), { once: true });
      });
      yield {
        type: "error",
        partial: { ...partial(), stopReason: "aborted" },
        error: { kind: "aborted", message: "Stopped." },
      };
      return;
    }
    if (step.error) {
      yield { type: "error", partial: { ...partial(), stopReason: "error" }, error: step.error };
      return;
    }
    yield { type: "done", partial: { ...partial(), stopReason: step.stopReason ?? "end" } };
  }
  return { streamFn: stream, contexts, left: () => queue.length };
}
