/**
 * The tool loop (issue 28), pure: the model calls tools, they run, their results go back, and the model
 * goes on until it answers — every step appended to the tree as it ends. Modelled on pi's
 * `agent-loop.ts`; the world (the provider stream, the tools, the user's approval, the database,
 * compaction) is injected (types.ts), so tests drive it with a scripted stream.
 *
 * One loop, step by step:
 * 0. A start path that ends in a complete reply whose calls have no results yet (a rewind to a step's
 *    reply, a reload between a reply and its results) runs those calls first (rule 7), then goes on:
 *    what the model asked for is done before it is asked again. Not a step (no model call).
 * 1. Stop (the signal) ends it at any moment with "stopped"; what arrived is kept: the reply so far is
 *    appended as stopped, results that came are appended, calls cut short get a "stopped" error result.
 * 2. Before every step but the first, `beforeStep` may compact (threshold) and gives the path to go on;
 *    with auto-continue off, a compaction there ends the loop ("paused") and "Continue" goes on.
 * 3. After `maxSteps` model calls it ends with "limit" (default 25); "Continue" is a new loop.
 * 4. A step streams one reply from `buildContext(path)`; a context overflow compacts (`onOverflow`)
 *    and retries that step once. The reply is appended (complete, stopped or failed); a failure ends
 *    the loop with its error.
 * 5. A reply without tool calls ends the loop ("done"), unless the provider paused a server tool's
 *    turn (stop reason "tool_use" without calls): then the next step resumes it.
 * 6. Calls of a reply cut by the output limit are not run (their arguments may be incomplete): each
 *    gets an error result saying so, and the model goes on.
 * 7. Otherwise each call is put to `approve`, in order, one at a time ("Deny": the error result
 *    "The user declined this tool call"); the approved ones run (at once, or in order), and each
 *    result is appended as it comes, as its own `tool` entry (cut for storage and marked for the
 *    model past the limits, tool-results.ts).
 * Only the model's calls are ever run or asked about: a tool's result is data the loop never reads.
 *
 * Pure: no I/O of its own, no clock, no tree walking (the state layer appends and returns paths).
 */
import type { Entry, MessageEntry, MessageError, ToolCallBlock } from "../session/entries";
import { DEFAULT_MAX_STEPS } from "./defaults";
import {
  errorOutcome,
  type ResultLimits,
  resultMessage,
  TOOL_CUT_OFF_TEXT,
  TOOL_DECLINED_TEXT,
  TOOL_RESULT_MODEL_MAX_CHARS,
  TOOL_RESULT_STORED_MAX_CHARS,
  TOOL_STOPPED_TEXT,
} from "./tool-results";
import type {
  AgentEvent,
  AgentLoopConfig,
  ApprovalDecision,
  LoopOutcome,
  LoopResult,
  StepPartial,
  StepStreamEvent,
  StepStreamFn,
  ToolOutcome,
  UnplacedMessage,
} from "./types";

/** How one step's stream ended. */
type StepReply = { partial: StepPartial; error?: MessageError };

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function lastMessage(path: readonly Entry[]): MessageEntry {
  const last = path[path.length - 1];
  if (last?.type !== "message") throw new Error("appendStep must return the path ending in the appended message");
  return last;
}

/** The reply as an entry message: a copy (adapters keep mutating their partial), its status from how it ended. */
function replyMessage(reply: StepReply): UnplacedMessage {
  const { partial, error } = reply;
  const status = error === undefined ? "complete" : error.kind === "aborted" ? "stopped" : "error";
  return {
    type: "message",
    role: "assistant",
    content: structuredClone([...partial.content]),
    status,
    ...(error !== undefined ? { error } : {}),
    provider: partial.providerId,
    api: partial.api,
    model: partial.model,
    ...(partial.usage ? { usage: { ...partial.usage } } : {}),
    ...(partial.stopReason ? { stopReason: partial.stopReason } : {}),
  };
}

const callsOf = (entry: MessageEntry): ToolCallBlock[] =>
  entry.content.filter((b): b is ToolCallBlock => b.type === "tool_call");

/**
 * Rule 0: the calls of the path's last reply that no result after it answers, when that reply is
 * complete and not cut by the output limit (a stopped, interrupted or cut reply's calls may be partial).
 */
function unansweredCalls(path: readonly Entry[]): ToolCallBlock[] {
  const answered = new Set<string>();
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i];
    if (entry?.type !== "message") return [];
    if (entry.role === "tool") {
      for (const b of entry.content) if (b.type === "tool_result") answered.add(b.callId);
      continue;
    }
    if (entry.role !== "assistant" || entry.status !== "complete" || entry.stopReason === "length") return [];
    return callsOf(entry).filter((c) => !answered.has(c.id));
  }
  return [];
}

/**
 * Runs the loop from `start` (a path ending in the user's turn, in tool results when continuing, or in a
 * reply whose calls are unanswered: rule 0)
 * until it ends (rules above). Never throws: every ending is an outcome, told by `loop_end` too.
 */
export async function runAgentLoop<E extends StepStreamEvent>(
  start: readonly Entry[],
  config: AgentLoopConfig,
  emit: (event: AgentEvent<E>) => void,
  signal: AbortSignal,
  streamFn: StepStreamFn<E>,
): Promise<LoopResult> {
  const maxSteps = config.maxSteps ?? DEFAULT_MAX_STEPS;
  const limits: ResultLimits = {
    modelMaxChars: config.resultModelMaxChars ?? TOOL_RESULT_MODEL_MAX_CHARS,
    storedMaxChars: config.resultStoredMaxChars ?? TOOL_RESULT_STORED_MAX_CHARS,
  };
  let path = start;
  let steps = 0;

  // Appends never overlap (parallel tools finish at any time): each one sees the path the last made.
  let queue: Promise<unknown> = Promise.resolve();
  const append = (message: UnplacedMessage): Promise<MessageEntry> => {
    const appended = queue.then(async () => {
      path = await config.appendStep(message, path);
      return lastMessage(path);
    });
    queue = appended.catch(() => undefined);
    return appended;
  };

  const finish = (outcome: LoopOutcome): LoopResult => {
    emit({ type: "loop_end", outcome, steps });
    return { outcome, path, steps };
  };

  async function streamStep(step: number): Promise<StepReply> {
    let final: StepReply | null = null;
    let latest: StepPartial | null = null;
    try {
      for await (const event of streamFn(config.buildContext(path), signal)) {
        emit({ type: "stream", step, event });
        latest = event.partial;
        if (event.type === "done") final = { partial: event.partial };
        else if (event.type === "error") {
          final = { partial: event.partial, error: event.error ?? { kind: "unknown", message: "The step failed." } };
        }
      }
    } catch (e) {
      // A stream broke its contract by throwing: the step fails with what it said.
      const error: MessageError = signal.aborted
        ? { kind: "aborted", message: "Stopped." }
        : { kind: "unknown", message: messageOf(e) };
      return { partial: latest ?? emptyPartial(), error };
    }
    return (
      final ?? {
        partial: latest ?? emptyPartial(),
        error: signal.aborted
          ? { kind: "aborted", message: "Stopped." }
          : { kind: "unknown", message: "The provider's stream ended without a result." },
      }
    );
  }

  async function answer(call: ToolCallBlock, outcome: ToolOutcome): Promise<void> {
    const entry = await append(resultMessage(call, outcome, limits));
    emit({ type: "tool_end", call, entry });
  }

  async function runOne(call: ToolCallBlock): Promise<void> {
    if (signal.aborted) return answer(call, errorOutcome(TOOL_STOPPED_TEXT));
    emit({ type: "tool_start", call });
    let outcome: ToolOutcome;
    try {
      outcome = await config.executeTool(call, signal);
    } catch (e) {
      outcome = errorOutcome(signal.aborted ? TOOL_STOPPED_TEXT : `The tool failed: ${messageOf(e)}`);
    }
    await answer(call, outcome);
  }

  /** Rule 7: approvals one at a time, then the approved calls; every call ends with a result. */
  async function runTools(calls: readonly ToolCallBlock[]): Promise<void> {
    const approved: ToolCallBlock[] = [];
    const unasked: ToolCallBlock[] = [];
    for (const call of calls) {
      if (signal.aborted) {
        unasked.push(call);
        continue;
      }
      let decision: ApprovalDecision;
      try {
        decision = await config.approve(call, signal);
      } catch {
        decision = "deny";
      }
      if (signal.aborted) {
        unasked.push(call);
        continue;
      }
      emit({ type: "tool_approval", call, decision });
      if (decision === "allow") approved.push(call);
      else await answer(call, errorOutcome(TOOL_DECLINED_TEXT));
    }
    if (config.toolExecution === "sequential") {
      for (const call of approved) await runOne(call);
    } else {
      await Promise.all(approved.map(runOne));
    }
    for (const call of unasked) await answer(call, errorOutcome(TOOL_STOPPED_TEXT));
  }

  try {
    emit({ type: "loop_start" });
    const pending = unansweredCalls(path);
    if (pending.length > 0) {
      await runTools(pending);
      if (signal.aborted) return finish({ kind: "stopped" });
    }
    for (;;) {
      if (signal.aborted) return finish({ kind: "stopped" });
      if (steps >= maxSteps) return finish({ kind: "limit", steps });
      if (steps > 0 && config.beforeStep) {
        const gate = await config.beforeStep(path, signal);
        path = gate.path;
        if (signal.aborted) return finish({ kind: "stopped" });
        if (gate.next === "pause") return finish({ kind: "paused", reason: "compacted" });
      }
      steps++;
      const step = steps;
      emit({ type: "step_start", step });

      let reply = await streamStep(step);
      if (reply.error?.kind === "context_overflow" && config.onOverflow && !signal.aborted) {
        const compacted = await config.onOverflow(path, signal);
        if (signal.aborted) return finish({ kind: "stopped" });
        if (compacted !== null) {
          path = compacted;
          emit({ type: "step_retry", step, reason: "overflow" });
          reply = await streamStep(step);
        }
      }

      const entry = await append(replyMessage(reply));
      emit({ type: "step_end", step, entry });
      if (reply.error?.kind === "aborted" || signal.aborted) return finish({ kind: "stopped" });
      if (reply.error) return finish({ kind: "error", error: reply.error });

      const calls = callsOf(entry);
      if (calls.length === 0) {
        // Rule 5: a paused server-tool turn is resumed by the next step.
        if (entry.stopReason === "tool_use") continue;
        return finish({ kind: "done" });
      }
      if (entry.stopReason === "length") {
        for (const call of calls) await answer(call, errorOutcome(TOOL_CUT_OFF_TEXT));
        continue;
      }
      await runTools(calls);
      if (signal.aborted) return finish({ kind: "stopped" });
    }
  } catch (e) {
    // A hook or the database failed: nothing more is appended; the reason is told plainly.
    await queue;
    return finish({ kind: "error", error: { kind: "unknown", message: `The tool loop stopped: ${messageOf(e)}` } });
  }
}

function emptyPartial(): StepPartial {
  return { content: [], providerId: "", api: "anthropic-messages", model: "" };
}
