/**
 * What the model sees (DESIGN §3): the one function that turns a root→leaf path of entries into
 * the system prompt and messages sent to a provider. The chat, the context meter, the threshold
 * checks, the compactor and the handoff all call it, and `contextTokens` counts its output, so
 * there is exactly one answer to "what is in the context".
 *
 * Rules, in order:
 * 1. System prompt as given; if a compaction summary is in the context, the compacted-system note
 *    (prompts/compacted-system-note.md) is appended after a blank line.
 * Which compaction counts, where its kept region starts, which user turns it keeps and which
 * continuations are joined is the context plan's answer (plan-context.ts); this module only turns
 * that plan into messages.
 * 2. Only the LATEST compaction on the path counts. It becomes one user-role message
 *    (prompts/compaction-summary-context.md): the handoff framing, then the kept user turns
 *    (`keptUserTurnIds` found on the path before the kept region, in path order, each verbatim in
 *    `<user_message>` tags; ids not on the path are skipped), then the pinned messages (each
 *    verbatim in `<pinned_message role="…">` tags), then the stored `summary`. A
 *    compaction made with a user-edited framing (Settings → Prompts) records it and is sent in it.
 *    2b. When that compaction holds provider-native material for the target (same api and provider
 *    id, native-compaction.ts), the material goes first instead (`LlmContext.native`), and one
 *    user-role "floor" message follows it: the kept user turns verbatim and the `<verbatim_tail>`.
 *    Every other target gets Grove's summary as above.
 * 3. Then the path from `firstKeptEntryId` on (from the root without a compaction). If
 *    `firstKeptEntryId` is null, or not on the path before the compaction entry, the kept region
 *    is what follows the compaction entry. Compaction entries inside the kept region are skipped
 *    (superseded by the latest one).
 *    - `branch_summary` / `handoff` → user-role messages from their prompts/ templates.
 *    - `context_note` → a user-role message of its content; `command` → pi's text for the run
 *      (none for a `!!` run); `model_change`, `thinking_level_change`, `custom` → nothing.
 *    - messages with status `error` and no content are skipped; every other message (stopped,
 *      interrupted, error with a partial) is sent as the user saw it.
 *    - a "Continue" reply (`continues` = the assistant message just before it) is joined to that
 *      message with no delimiter, so the continued text reads as one reply.
 *    - `tool` role messages become user-role messages. Tool blocks become text (`[Tool call: name]`
 *      + compact JSON args, `[Tool result: name]` + text; ` (error)` when `isError`; a server tool
 *      by `serverToolText`) — unless `nativeTools` is set: then the tool calls of a reply made by the
 *      target (same api AND provider id as the message) stay `tool_call` blocks, their results
 *      `tool_result` blocks, and the target's own server tool blocks stay verbatim; pairs from
 *      another api or provider stay text, and normalize leaves native only complete pairs
 *      (tool-pairs.ts). A result is sent as `toolResultModelText`: cut to `shownChars` with a
 *      note when it was larger than the model may see. Citations on text are never sent back.
 *      In user messages, images and PDFs stay
 *      references to their blobs (the request builder sends their data); text files become their
 *      fenced text under the file name; elsewhere (and in the kept user turns quoted into a compaction
 *      message) images and PDFs are named (`[image: name.png]`).
 *    - old tool outputs are pruned by prune-tool-outputs.ts's rule (a pure function of the sent
 *      part of the path): each is sent as `[Output truncated - N tokens]`.
 * 4. `normalizeMessages` for the target api (normalize-messages.ts): merging, user first, thinking
 *    only for the api that signed it, reasoning items only for the provider that made them, no
 *    empty messages.
 *
 * Pure: no I/O, no token counting (context-tokens.ts), no tree walking (the caller passes the path).
 */

import {
  BRANCH_SUMMARY_CONTEXT,
  COMPACTED_SYSTEM_NOTE,
  COMPACTION_KEPT_USER_TURNS,
  COMPACTION_PINNED,
  COMPACTION_SUMMARY_CONTEXT,
  fillTemplate,
  HANDOFF_CONTEXT,
} from "../prompts-context";
import { atPause, finish, type Steps } from "../steps";
import { commandContextText, isCommandSent } from "./agent-entries";
import type { ContextAssistantMessage, ContextMessage, ContextUserMessage, LlmContext } from "./context";
import {
  type ApiKind,
  assertNever,
  type Block,
  type CompactionEntry,
  type Entry,
  type MessageEntry,
  type TextBlock,
  type ToolResultBlock,
} from "./entries";
import { blockText, toolResultModelText } from "./entry-text";
import { nativeFloorText, nativePrefixFor } from "./native-compaction";
import { normalizeMessagesSteps } from "./normalize-messages";
import { type ContextPlan, isSkippedMessage, joinContinuation, planContext } from "./plan-context";
import { type PrunedOutputs, prunedToolOutputs, withPrunedOutputs } from "./prune-tool-outputs";

export type BuildContextOptions = {
  /** The session's system prompt, else the global default. "" = none. */
  systemPrompt: string;
  /** The wire api of the provider the context is for: decides which thinking blocks go back. */
  targetApi: ApiKind;
  /**
   * The provider config id the context is sent to: reasoning items go back only to the provider
   * that produced them. Unset (counting, handoff): none go back.
   */
  targetProviderId?: string;
  /**
   * Send tool steps as the api's own tool messages (rule 3): for a request that declares tools (the
   * tool loop). Unset: every tool block is text, as for a plain chat request (some providers reject
   * tool blocks in a request that declares no tools).
   */
  nativeTools?: boolean;
};

function textBlocks(content: readonly Block[]): TextBlock[] {
  const out: TextBlock[] = [];
  for (const b of content) {
    const text = blockText(b, { thinking: "drop" });
    if (text !== null) out.push({ type: "text", text });
  }
  return out;
}

/** A user turn's blocks: images and PDFs stay references (their data is sent), the rest becomes text. */
function userBlocks(content: readonly Block[]): ContextUserMessage["content"] {
  const out: ContextUserMessage["content"] = [];
  for (const b of content) {
    if (b.type === "image" || b.type === "document") out.push(b);
    else {
      const text = blockText(b, { thinking: "drop" });
      if (text !== null) out.push({ type: "text", text });
    }
  }
  return out;
}

/** Where native tool blocks may go (rule 3): the target, when the request declares tools. */
type NativeTools = {
  readonly targetApi: ApiKind;
  readonly targetProviderId: string;
  /** Ids of the calls sent native so far on this path: their results go native too. */
  readonly calls: Set<string>;
};

function nativeToolsFor(opts: BuildContextOptions): NativeTools | null {
  if (opts.nativeTools !== true || opts.targetProviderId === undefined) return null;
  return { targetApi: opts.targetApi, targetProviderId: opts.targetProviderId, calls: new Set() };
}

/** A result as the model is sent it: its (pruned or cut) text, none of the storage fields. */
function sentResult(b: ToolResultBlock): ToolResultBlock {
  return {
    type: "tool_result",
    callId: b.callId,
    ...(b.toolName !== undefined ? { toolName: b.toolName } : {}),
    text: toolResultModelText(b),
    isError: b.isError,
  };
}

function toolMessage(blocks: readonly Block[], native: NativeTools | null): ContextUserMessage {
  if (native === null) return { role: "user", content: textBlocks(blocks) };
  const content: ContextUserMessage["content"] = [];
  for (const b of blocks) {
    if (b.type === "tool_result" && native.calls.has(b.callId)) content.push(sentResult(b));
    else {
      const text = blockText(b, { thinking: "drop" });
      if (text !== null) content.push({ type: "text", text });
    }
  }
  return { role: "user", content };
}

function assistantMessage(entry: MessageEntry, blocks: readonly Block[], native: NativeTools | null) {
  // The reply's own calls go native only to the api and provider that made them.
  const ownCalls = native !== null && entry.api === native.targetApi && entry.provider === native.targetProviderId;
  const content: ContextAssistantMessage["content"] = [];
  for (const b of blocks) {
    if (b.type === "thinking" || b.type === "reasoning") content.push(b);
    else if (b.type === "tool_call" && ownCalls) {
      native.calls.add(b.id);
      content.push(b);
    } else if (
      b.type === "server_tool" &&
      native !== null &&
      b.api === native.targetApi &&
      b.provider === native.targetProviderId
    ) {
      content.push(b);
    } else content.push({ type: "text", text: blockText(b, { thinking: "drop" }) ?? "" });
  }
  return { role: "assistant" as const, content };
}

function messageToContext(entry: MessageEntry, pruned: PrunedOutputs, native: NativeTools | null): ContextMessage {
  const blocks = withPrunedOutputs(entry.content, pruned.get(entry.id));
  switch (entry.role) {
    case "user":
      return { role: "user", content: userBlocks(entry.content) };
    case "tool":
      return toolMessage(blocks, native);
    case "assistant":
      return assistantMessage(entry, blocks, native);
    default:
      return assertNever(entry.role, "role");
  }
}

const userMessage = (text: string): ContextUserMessage => ({ role: "user", content: [{ type: "text", text }] });

const userTurnText = (e: MessageEntry): string =>
  textBlocks(e.content)
    .map((b) => b.text)
    .join("\n\n");

/** A pinned message as it is quoted into the compaction message (rule 2): its text, verbatim, tagged with its role. */
const pinnedMessageText = (e: MessageEntry): string =>
  `<pinned_message role="${e.role}">\n${userTurnText(e)}\n</pinned_message>`;

/** A pinned passage as it is quoted into the compaction message: its exact text, tagged with its message's role. */
const pinnedPassageText = ({ message, passage }: PlannedPassage): string =>
  `<pinned_passage role="${message.role}">\n${passage.text}\n</pinned_passage>`;

type PlannedPassage = ContextPlan["pinnedPassages"][number];

/** The pins of the floor (messages, then passages), each in its tags. */
const pinTexts = (pinned: readonly MessageEntry[], passages: readonly PlannedPassage[]): string[] => [
  ...pinned.map(pinnedMessageText),
  ...passages.map(pinnedPassageText),
];

/**
 * The floor of a compaction message: the kept user turns verbatim, then the pinned messages and
 * passages verbatim (plan-context.ts rule 3); "" when there are none. Goes where the framing says
 * `{{keptUserTurns}}`, so a user-edited framing recorded before pins existed carries them too.
 */
function floorText(
  keptTurns: readonly MessageEntry[],
  pinned: readonly MessageEntry[] = [],
  passages: readonly PlannedPassage[] = [],
): string {
  const turns = keptTurns.map((e) => `<user_message>\n${userTurnText(e)}\n</user_message>`);
  const parts: string[] = [];
  if (turns.length > 0) parts.push(fillTemplate(COMPACTION_KEPT_USER_TURNS, { turns: turns.join("\n\n") }));
  const pins = pinTexts(pinned, passages);
  if (pins.length > 0) parts.push(fillTemplate(COMPACTION_PINNED, { messages: pins.join("\n\n") }));
  return parts.join("\n\n");
}

/** The text of the compaction's context message: the framing, the kept user turns and pins verbatim, the summary (rule 2). */
export function compactionContextText(
  summary: string,
  keptTurns: readonly MessageEntry[],
  framing: string = COMPACTION_SUMMARY_CONTEXT,
  pinned: readonly MessageEntry[] = [],
  passages: readonly PlannedPassage[] = [],
): string {
  return fillTemplate(framing, { keptUserTurns: floorText(keptTurns, pinned, passages), summary });
}

function compactionMessage(compaction: CompactionEntry, plan: ContextPlan): ContextUserMessage {
  return userMessage(
    compactionContextText(compaction.summary, plan.keptUserTurns, compaction.framing, plan.pinned, plan.pinnedPassages),
  );
}

/** The context for `path` (root first, as `pathToRoot` returns it), normalized for `opts.targetApi`. */
export function buildContext(path: readonly Entry[], opts: BuildContextOptions): LlmContext {
  return finish(buildContextSteps(path, opts));
}

/**
 * `buildContext` in steps (core/steps.ts): pauses every few entries and messages, so the meter can
 * build a 2,000-message context a few milliseconds per task. Same result. The plan and the pruned
 * outputs (one pass over the path each) are made in the first step.
 */
export function* buildContextSteps(path: readonly Entry[], opts: BuildContextOptions): Steps<LlmContext> {
  const messages: ContextMessage[] = [];
  const plan = planContext(path);
  const native = nativeToolsFor(opts);
  const pruned = prunedToolOutputs(path, plan.keptStart);
  const nativePrefix =
    plan.compaction !== null ? nativePrefixFor(plan.compaction, opts.targetApi, opts.targetProviderId) : null;
  if (plan.compaction !== null && nativePrefix !== null) {
    // The provider's own compaction replaces Grove's summary; the floor still travels (rule 2b).
    const floor = nativeFloorText(
      plan.compaction,
      plan.keptUserTurns.map(userTurnText),
      pinTexts(plan.pinned, plan.pinnedPassages),
    );
    if (floor !== null) messages.push(userMessage(floor));
  } else if (plan.compaction !== null) {
    messages.push(compactionMessage(plan.compaction, plan));
  }

  for (let i = plan.keptStart; i < path.length; i++) {
    if (atPause(i - plan.keptStart)) yield;
    const entry = path[i];
    if (!entry) continue;
    switch (entry.type) {
      case "compaction":
        continue;
      case "branch_summary":
        messages.push(userMessage(fillTemplate(BRANCH_SUMMARY_CONTEXT, { summary: entry.summary })));
        continue;
      case "handoff":
        messages.push(userMessage(fillTemplate(HANDOFF_CONTEXT, { document: entry.document })));
        continue;
      // pi's rules (its convertToLlm): a note is a user message of its content, a command pi's text for it.
      case "context_note":
        messages.push({ role: "user", content: textBlocks(entry.content) });
        continue;
      case "command":
        if (isCommandSent(entry)) messages.push(userMessage(commandContextText(entry)));
        continue;
      case "model_change":
      case "thinking_level_change":
      case "custom":
        continue;
      case "message": {
        if (isSkippedMessage(entry)) continue;
        const message = messageToContext(entry, pruned, native);
        const prev = messages[messages.length - 1];
        // The plan joins a continuation only to an assistant message sent just before it.
        if (plan.joins.has(entry.id) && message.role === "assistant" && prev?.role === "assistant") {
          messages[messages.length - 1] = {
            role: "assistant",
            content: joinContinuation(prev.content, message.content),
          };
        } else {
          messages.push(message);
        }
        continue;
      }
      default:
        assertNever(entry, "entry");
    }
  }

  const system =
    plan.compaction !== null
      ? [opts.systemPrompt.trimEnd(), COMPACTED_SYSTEM_NOTE].filter(Boolean).join("\n\n")
      : opts.systemPrompt;
  const normalized = yield* normalizeMessagesSteps(messages, opts.targetApi, opts.targetProviderId);
  return nativePrefix !== null
    ? { system, messages: normalized, native: nativePrefix }
    : { system, messages: normalized };
}
