/**
 * How a tool call's answer becomes an entry (issue 28): one `tool` message per call, its text kept
 * whole up to the storage limit, marked for the model past its limit (`shownChars`: build-context
 * sends the start and a note), and the fixed texts of the answers Grove gives itself (declined,
 * stopped, not runnable). No I/O here.
 */
import type { ToolCallBlock, ToolResultBlock } from "../session/entries";
import type { ToolOutcome, UnplacedMessage } from "./types";

/** What the model sees of one result at most (≈12k tokens); the rest is cut with a note. */
export const TOOL_RESULT_MODEL_MAX_CHARS = 50_000;
/** What is stored of one result at most (a 20 MB answer keeps its first 5 MB, and says so). */
export const TOOL_RESULT_STORED_MAX_CHARS = 5_000_000;

/** The error result the model gets when the user said "Deny". */
export const TOOL_DECLINED_TEXT = "The user declined this tool call";
/** The error result of a call Stop cut short (or never started). */
export const TOOL_STOPPED_TEXT = "The user stopped the conversation before this tool call finished.";
/** The error result of a call in a reply cut by the output limit (its arguments may be incomplete). */
export const TOOL_CUT_OFF_TEXT =
  "This tool call was not run: the reply reached the output limit before the call was complete. Make the call again.";

export type ResultLimits = { readonly modelMaxChars: number; readonly storedMaxChars: number };

/** `text` cut to at most `max` UTF-16 units without splitting a surrogate pair. */
function head(text: string, max: number): string {
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** The result block for `call`: cut for storage and marked for the model as the limits say. */
function resultBlock(call: ToolCallBlock, outcome: ToolOutcome, limits: ResultLimits): ToolResultBlock {
  const total = outcome.text.length;
  const stored = total > limits.storedMaxChars ? head(outcome.text, limits.storedMaxChars) : outcome.text;
  return {
    type: "tool_result",
    callId: call.id,
    toolName: call.name,
    text: stored,
    isError: outcome.isError,
    ...(total > limits.modelMaxChars ? { shownChars: Math.min(limits.modelMaxChars, stored.length) } : {}),
    ...(stored.length < total ? { originalChars: total } : {}),
  };
}

/** The `tool` message of one answered call. */
export function resultMessage(call: ToolCallBlock, outcome: ToolOutcome, limits: ResultLimits): UnplacedMessage {
  return {
    type: "message",
    role: "tool",
    content: [resultBlock(call, outcome, limits), ...(outcome.images ?? [])],
    status: "complete",
  };
}

export const errorOutcome = (text: string): ToolOutcome => ({ text, isError: true });
