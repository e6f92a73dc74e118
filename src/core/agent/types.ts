/**
 * The tool loop's contract (issue 28): what it is given (the path, injected effects), what it tells
 * (events), how it ends (an outcome). Modelled on pi's agent loop (`(context, config, emit, signal,
 * streamFn)`), with Grove's difference: every step becomes entries of the tree, appended through
 * `appendStep`, and each step's request is rebuilt from the path (`buildContext`), so compaction between
 * steps and "what the model sees" stay the one rule they are everywhere else.
 */
import type { LlmContext } from "../session/context";
import type {
  ApiKind,
  Entry,
  ImageBlock,
  MessageEntry,
  MessageError,
  ReasoningBlock,
  ServerToolBlock,
  StopReason,
  TextBlock,
  ThinkingBlock,
  ToolCallBlock,
  Usage,
} from "../session/entries";

/**
 * What the loop reads of a provider stream's reply so far: providers/types.ts's `AssistantPartial`
 * fits it. The loop copies it before storing (adapters mutate it in place).
 */
export type StepPartial = {
  readonly content: ReadonlyArray<TextBlock | ThinkingBlock | ReasoningBlock | ToolCallBlock | ServerToolBlock>;
  readonly providerId: string;
  readonly api: ApiKind;
  readonly model: string;
  readonly usage?: Usage;
  readonly stopReason?: StopReason;
};

/**
 * What the loop reads of a stream event: providers/types.ts's `StreamEvent` fits it. The stream
 * ends with exactly one `done` or `error` (carrying `error`), as every Grove stream does; every event
 * is passed on to `emit` as it came.
 */
export type StepStreamEvent = { readonly type: string; readonly partial: StepPartial; readonly error?: MessageError };

/**
 * One model call: the context and the loop's signal in, the provider's events out. The caller binds
 * the provider, model, tools and parameters (providers/registry.ts `stream` with the request's `tools`).
 * Contract: never throws once iterated; failures arrive as the final `error` event.
 */
export type StepStreamFn<E extends StepStreamEvent> = (context: LlmContext, signal: AbortSignal) => AsyncIterable<E>;

/** A message entry before the state layer gives it its id, parent, session and time. */
export type UnplacedMessage = Omit<MessageEntry, "id" | "sessionId" | "parentId" | "createdAt">;

/** What running one tool call gave. A tool's own failure is `isError: true`, not a throw. */
export type ToolOutcome = {
  readonly text: string;
  readonly isError: boolean;
  /** Images the tool returned, already stored as blobs by the executor: they follow the result. */
  readonly images?: readonly ImageBlock[];
};

export type ApprovalDecision = "allow" | "deny";

/** `beforeStep`'s answer: the path to go on from, and whether the loop goes on by itself. */
type BeforeStep = { readonly path: readonly Entry[]; readonly next: "continue" | "pause" };

export type AgentLoopConfig = {
  /**
   * The request for one step, from the path as it is now: `buildContext(path, {…, nativeTools: true})`
   * bound to the chat's system prompt and target. Contract: pure, must not throw.
   */
  buildContext(path: readonly Entry[]): LlmContext;
  /**
   * Appends one step's entry under the path's last entry (the state layer: ids, one transaction, the
   * leaf moves) and returns the path ending in it. Calls never overlap (the loop queues them).
   * Contract: may reject (the database failed); the loop then ends with an error outcome.
   */
  appendStep(message: UnplacedMessage, path: readonly Entry[]): Promise<readonly Entry[]>;
  /**
   * Whether a tool call may run: the user's answer ("Allow once", "Deny"), or a standing permission
   * ("Allow in this chat", "Always allow") the callback keeps. Asked for every call, one at a time; only
   * the model's calls are ever asked about — nothing a tool returned reaches here. Contract: must not
   * throw (a throw counts as "deny"); honours `signal` (Stop while the dialog is open).
   */
  approve(call: ToolCallBlock, signal: AbortSignal): Promise<ApprovalDecision>;
  /**
   * Runs one approved call (an MCP server's tool, Grove's own). Contract: a tool's failure (bad input,
   * server error, timeout) is an `isError` outcome; it rejects only when `signal` aborted (or by
   * mistake: the loop then records the reason as an error result).
   */
  executeTool(call: ToolCallBlock, signal: AbortSignal): Promise<ToolOutcome>;
  /**
   * Runs before every step but the first, where threshold compaction (and auto-continue) happen:
   * returns the path to go on from (the same one when there is nothing to do) and whether the loop
   * goes on by itself ("continue") or ends there, compacted ("pause": auto-continue is off). Contract:
   * may reject (the loop ends with an error outcome); honours `signal`.
   */
  beforeStep?(path: readonly Entry[], signal: AbortSignal): Promise<BeforeStep>;
  /**
   * The provider said the context overflowed: compact and return the path to retry the step on (once),
   * or null when nothing can be done (the failed step is then recorded). Contract as `beforeStep`.
   */
  onOverflow?(path: readonly Entry[], signal: AbortSignal): Promise<readonly Entry[] | null>;
  /** Model calls in one loop (one user turn, or one "Continue"). Default `DEFAULT_MAX_STEPS`. */
  maxSteps?: number;
  /** Characters of one result the model may see; the rest is cut with a note. Default `TOOL_RESULT_MODEL_MAX_CHARS`. */
  resultModelMaxChars?: number;
  /** Characters of one result that are stored; past it the stored text is cut too. Default `TOOL_RESULT_STORED_MAX_CHARS`. */
  resultStoredMaxChars?: number;
  /** Run a step's approved calls at once (default) or one after another. */
  toolExecution?: "parallel" | "sequential";
};

/** How a loop ended. */
export type LoopOutcome =
  /** The model answered without calling a tool. */
  | { readonly kind: "done" }
  /** `maxSteps` model calls were made and it still wanted tools: "Continue" starts a new loop. */
  | { readonly kind: "limit"; readonly steps: number }
  /** The user pressed Stop (what had arrived is kept). */
  | { readonly kind: "stopped" }
  /** The context was compacted between steps and auto-continue is off: "Continue" goes on. */
  | { readonly kind: "paused"; readonly reason: "compacted" }
  /** A step failed (provider error, a hook or the database failed): the reason, in plain words. */
  | { readonly kind: "error"; readonly error: MessageError };

/**
 * What the loop tells as it goes. Contract for `emit`: synchronous, must not throw; it may copy
 * (`stream` events carry the adapter's live partial).
 */
export type AgentEvent<E extends StepStreamEvent> =
  | { readonly type: "loop_start" }
  | { readonly type: "step_start"; readonly step: number }
  /** Every provider event of the step, as it came. */
  | { readonly type: "stream"; readonly step: number; readonly event: E }
  /** The provider overflowed; the context was compacted and the step is tried again. */
  | { readonly type: "step_retry"; readonly step: number; readonly reason: "overflow" }
  /** The step's reply, as appended. */
  | { readonly type: "step_end"; readonly step: number; readonly entry: MessageEntry }
  | { readonly type: "tool_approval"; readonly call: ToolCallBlock; readonly decision: ApprovalDecision }
  | { readonly type: "tool_start"; readonly call: ToolCallBlock }
  /** A call's result, as appended (error results for denied, stopped or uncompletable calls too). */
  | { readonly type: "tool_end"; readonly call: ToolCallBlock; readonly entry: MessageEntry }
  | { readonly type: "loop_end"; readonly outcome: LoopOutcome; readonly steps: number };

/** The loop's answer: how it ended, and the path it ended on. */
export type LoopResult = { readonly outcome: LoopOutcome; readonly path: readonly Entry[]; readonly steps: number };
