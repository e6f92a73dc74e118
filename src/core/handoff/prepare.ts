/**
 * Preparing a handoff (DESIGN §5): the request that asks the chat model for a handoff document.
 *
 * The request is the live context EXACTLY as the chat would send it — `buildContext(path, …)`,
 * same system prompt, same messages, same thinking blocks — plus ONE user message carrying
 * prompts/handoff-document.md (with the user's focus, if any). Sharing the chat's prefix byte for
 * byte is what lets the provider's prompt cache serve the whole conversation. If the context ends
 * with a user message, the handoff message is joined to it the way `normalizeMessages` joins any
 * two user messages (strict chat templates reject two user turns in a row); the prefix before it
 * is unchanged either way.
 *
 * Output budget: like a compaction summary, 0.8 × reserveTokens, capped at the model's output
 * limit and a quarter of its window. With a counter, the request is checked to fit the window:
 * the budget shrinks to the room left, and below `HANDOFF_MIN_OUTPUT_TOKENS` the plan is
 * `too_long` (the caller falls back to compaction, which can fold in windows).
 *
 * Pure: no I/O, no provider call.
 */
import type { CountTokens } from "../compaction/entry-text";
import { SUMMARY_OUTPUT_RESERVE_FRACTION, safetyMarginTokens } from "../compaction/requests";
import { DEFAULT_COMPACTION_SETTINGS } from "../compaction/settings";
import { fillTemplate, HANDOFF_DOCUMENT, HANDOFF_FOCUS } from "../prompts";
import { buildContext } from "../session/build-context";
import type { ContextUserMessage, LlmContext } from "../session/context";
import { countContextTokens } from "../session/context-tokens";
import type { ApiKind, Entry } from "../session/entries";
import type { EntryId } from "../session/ids";
import { normalizeMessages } from "../session/normalize-messages";

/** Below this many tokens of room for the document, a handoff is not attempted: `too_long`. */
const HANDOFF_MIN_OUTPUT_TOKENS = 1_024;
/** No output budget takes more than this share of the window. */
const HANDOFF_OUTPUT_MAX_WINDOW_FRACTION = 0.25;

export type HandoffOptions = {
  /** The session's system prompt, else the global default (as for the chat). */
  systemPrompt: string;
  /** The chat provider's api (the request goes to the chat model, so its cache can hit). */
  targetApi: ApiKind;
  /** What the next session should focus on, e.g. "next: write the tests". Blank = none. */
  focus?: string;
  contextWindow: number;
  maxOutput: number;
  /** Base of the output budget (0.8 × this); default `CompactionSettings.reserveTokens`. */
  reserveTokens?: number;
  /** With a counter, the request is checked to fit the window (see the header). */
  countTokens?: CountTokens;
  /** The user's version of prompts/handoff-document.md (Settings → Prompts); absent: the shipped one. */
  prompt?: string;
};

/** The request: a whole context (not one prompt), and its output budget. */
type HandoffRequest = { context: LlmContext; maxOutputTokens: number };

export type HandoffPlan = {
  readonly request: HandoffRequest;
  /** The leaf the document is written from: the new session's `parentEntryId`, the entry's `fromEntryId`. */
  readonly fromEntryId: EntryId;
  readonly focus: string | null;
  /** Tokens of the live context without the handoff message (null without a counter). */
  readonly contextTokens: number | null;
};

export type HandoffPrepareResult =
  | { kind: "plan"; plan: HandoffPlan }
  | { kind: "nothing_to_hand_off"; reason: string }
  /** The context leaves no room for the document: compact instead. */
  | { kind: "too_long"; reason: string; contextTokens: number };

/** The handoff message: prompts/handoff-document.md with the focus block (or none). */
function handoffMessage(focus: string | null, prompt: string = HANDOFF_DOCUMENT): ContextUserMessage {
  const focusBlock = focus === null ? "" : fillTemplate(HANDOFF_FOCUS, { focus });
  return { role: "user", content: [{ type: "text", text: fillTemplate(prompt, { focus: focusBlock }) }] };
}

/** `built` (already normalized for `targetApi`) with the handoff message appended. */
function withHandoffMessage(built: LlmContext, focus: string | null, targetApi: ApiKind, prompt?: string): LlmContext {
  // normalizeMessages is idempotent on its own output: every message of `built` stays as it is,
  // except a final user message, which the handoff message is joined to.
  return {
    system: built.system,
    messages: normalizeMessages([...built.messages, handoffMessage(focus, prompt)], targetApi),
  };
}

export function prepareHandoff(path: readonly Entry[], opts: HandoffOptions): HandoffPrepareResult {
  const leaf = path[path.length - 1];
  if (leaf === undefined) return { kind: "nothing_to_hand_off", reason: "This chat has no messages yet." };
  const built = buildContext(path, { systemPrompt: opts.systemPrompt, targetApi: opts.targetApi });
  if (built.messages.length === 0) {
    return { kind: "nothing_to_hand_off", reason: "This chat has nothing the model could hand off yet." };
  }
  const focus = opts.focus?.trim() ? opts.focus.trim() : null;
  const context = withHandoffMessage(built, focus, opts.targetApi, opts.prompt);

  const reserve = opts.reserveTokens ?? DEFAULT_COMPACTION_SETTINGS.reserveTokens;
  let maxOutputTokens = Math.max(
    1,
    Math.floor(
      Math.min(
        reserve * SUMMARY_OUTPUT_RESERVE_FRACTION,
        opts.maxOutput,
        opts.contextWindow * HANDOFF_OUTPUT_MAX_WINDOW_FRACTION,
      ),
    ),
  );
  let contextTokens: number | null = null;
  if (opts.countTokens) {
    contextTokens = countContextTokens(built, opts.countTokens);
    const requestTokens = countContextTokens(context, opts.countTokens);
    const room = opts.contextWindow - requestTokens - safetyMarginTokens(opts.contextWindow);
    if (room < Math.min(HANDOFF_MIN_OUTPUT_TOKENS, maxOutputTokens)) {
      return {
        kind: "too_long",
        reason: `The conversation (${contextTokens.toLocaleString("en-US")} tokens) leaves no room in the ${opts.contextWindow.toLocaleString("en-US")}-token window to write a handoff document.`,
        contextTokens,
      };
    }
    maxOutputTokens = Math.min(maxOutputTokens, room);
  }

  return { kind: "plan", plan: { request: { context, maxOutputTokens }, fromEntryId: leaf.id, focus, contextTokens } };
}
