/**
 * What one v3 line means to Grove: an unplaced entry (a message, a model or thinking-level change,
 * extension data, a context note, a command), a compaction, a branch summary, a handoff, a label,
 * a title, or nothing (skipped). The choices made here are listed in import.ts's header and
 * README.md. Whatever a line holds that Grove does not interpret comes back through the entry's
 * `piExtra` patch (patch.ts), computed by import.ts.
 */
import type { z } from "zod";
import {
  type ApiKind,
  assertNever,
  type Block,
  type CommandEntry,
  type ContextNoteEntry,
  type CustomDataEntry,
  type ImageBlock,
  type MessageEntry,
  type MessageError,
  type MessageStatus,
  type ModelChangeEntry,
  type ReasoningBlock,
  type Session,
  type StopReason,
  type ThinkingLevelChangeEntry,
  type Usage,
} from "../../session/entries";
import {
  assistantSchema,
  bashSchema,
  branchSummaryLine,
  compactionLine,
  customMessageLine,
  customSchema,
  GROVE_HANDOFF_CUSTOM_TYPE,
  handoffDetails,
  isJson,
  labelLine,
  messageLine,
  modelChangeLine,
  ok,
  type PiBlock,
  type Result,
  sessionInfoLine,
  textBlockGrove,
  thinkingLevelLine,
  toolResultGrove,
  toolResultSchema,
  userSchema,
} from "./format";
import { type PiRecord, parseLine } from "./migrate";

/** What one pi entry means to Grove. */
export type Item =
  | { kind: "entry"; entry: UnplacedEntry; userTurn: boolean }
  | { kind: "compaction"; line: z.output<typeof compactionLine> }
  | { kind: "branch_summary"; line: z.output<typeof branchSummaryLine> }
  | { kind: "handoff"; details: z.output<typeof handoffDetails> }
  | { kind: "label"; targetId: string; label: string | null }
  | { kind: "session_info"; name: string; titleSource: Session["titleSource"] }
  | { kind: "skip" };

type Unplaced<E> = E extends unknown ? Omit<E, "id" | "sessionId" | "parentId" | "createdAt"> : never;
type UnplacedMessageEntry = Unplaced<MessageEntry>;
/** The entries a line becomes by itself (compactions, summaries and handoffs need the tree). */
type UnplacedEntry = Unplaced<
  MessageEntry | ModelChangeEntry | ThinkingLevelChangeEntry | CustomDataEntry | ContextNoteEntry | CommandEntry
>;

/** Takes a pi image's base64 data and gives the blob id its Grove image block refers to. */
export type ImageSink = (data: string, mimeType: string) => ImageBlock["blobId"];

/** pi's api names → Grove's. Others (google-…, azure-…) have no Grove adapter: undefined. */
function apiOf(api: string | undefined): ApiKind | undefined {
  if (api === "anthropic-messages") return "anthropic-messages";
  if (api === "openai-responses") return "openai-responses";
  if (api === "openai-completions") return "openai-chat";
  return undefined;
}

function stopReasonOf(reason: string | undefined): StopReason | undefined {
  switch (reason) {
    case "stop":
      return "end";
    case "length":
      return "length";
    case "toolUse":
      return "tool_use";
    case "aborted":
      return "aborted";
    case "error":
      return "error";
    default:
      return undefined;
  }
}

/**
 * pi keeps an OpenAI Responses reasoning item as a thinking block whose `thinkingSignature` is the
 * item as JSON (`{type: "reasoning", id, summary, encrypted_content}`). It becomes Grove's reasoning
 * block for `provider`, so it goes back to that provider as pi would send it; anything else: undefined.
 */
function reasoningFromPi(signature: string, provider: string): ReasoningBlock | undefined {
  let item: unknown;
  try {
    item = JSON.parse(signature);
  } catch {
    return undefined;
  }
  if (!isJson(item) || item.type !== "reasoning" || typeof item.id !== "string") return undefined;
  const summary = Array.isArray(item.summary)
    ? item.summary.flatMap((s) => (isJson(s) && typeof s.text === "string" ? [s.text] : []))
    : [];
  const block: ReasoningBlock = { type: "reasoning", api: "openai-responses", provider, id: item.id, summary };
  if (typeof item.encrypted_content === "string") block.encryptedContent = item.encrypted_content;
  return block;
}

/** pi's image block as Grove's: the bytes go to a blob; without data, a visible note. */
function imageOf(b: { data?: unknown; mimeType?: string | undefined }, images: ImageSink): Block {
  const mimeType = b.mimeType ?? "application/octet-stream";
  if (typeof b.data !== "string") return { type: "text", text: "[image omitted]" };
  return { type: "image", blobId: images(b.data, mimeType), mimeType };
}

function blocksOf(blocks: readonly PiBlock[], images: ImageSink, api?: ApiKind, provider?: string): Block[] {
  return blocks.map((b): Block => {
    switch (b.type) {
      case "text":
        return textOf(b);
      case "image":
        return imageOf(b, images);
      case "thinking": {
        const sig = b.thinkingSignature ? b.thinkingSignature : undefined;
        const reasoning = api === "openai-responses" && sig ? reasoningFromPi(sig, provider ?? "unknown") : undefined;
        if (reasoning) return reasoning;
        // Like Grove's own adapters: signedBy only with something the provider can verify.
        const signedBy = api && sig ? { signedBy: api } : {};
        if (b.redacted === true && sig) return { type: "thinking", text: b.thinking, redactedData: sig, ...signedBy };
        return { type: "thinking", text: b.thinking, ...(sig ? { signature: sig } : {}), ...signedBy };
      }
      case "toolCall":
        return { type: "tool_call", id: b.id, name: b.name, args: b.arguments ?? {} };
      case "other":
        return { type: "text", text: `[${b.was} omitted]` };
      default:
        return assertNever(b, "pi block");
    }
  });
}

/** A text block, or what Grove's `grove` field on it says it stands for (citations, a server tool). */
function textOf(b: Extract<PiBlock, { type: "text" }>): Block {
  const grove = b.grove === undefined ? null : textBlockGrove.safeParse(b.grove);
  if (grove?.success && grove.data.serverTool) return grove.data.serverTool;
  if (grove?.success && grove.data.citations) return { type: "text", text: b.text, citations: grove.data.citations };
  return { type: "text", text: b.text };
}

/** A tool result's text blocks as one text; other blocks as visible notes (images are kept apart). */
function plainText(blocks: readonly PiBlock[]): string {
  return blocks
    .filter((b) => b.type !== "image")
    .map((b) => (b.type === "text" ? b.text : `[${b.type === "other" ? b.was : b.type} omitted]`))
    .join("\n");
}

function commandEntry(m: z.output<typeof bashSchema>): Unplaced<CommandEntry> {
  return {
    type: "command",
    command: m.command,
    output: m.output ?? "",
    ...(m.exitCode !== undefined ? { exitCode: m.exitCode } : {}),
    ...(m.cancelled !== undefined ? { cancelled: m.cancelled } : {}),
    ...(m.truncated !== undefined ? { truncated: m.truncated } : {}),
    ...(m.fullOutputPath !== undefined ? { fullOutputPath: m.fullOutputPath } : {}),
    ...(m.excludeFromContext !== undefined ? { excludeFromContext: m.excludeFromContext } : {}),
  };
}

function noteEntry(
  m: { customType: string; content: readonly PiBlock[]; display?: unknown; details?: unknown },
  images: ImageSink,
  asMessage: boolean,
): Unplaced<ContextNoteEntry> {
  return {
    type: "context_note",
    customType: m.customType,
    content: blocksOf(m.content, images),
    // pi's TUI hides a note only when display is false.
    display: m.display !== false,
    ...(m.details !== undefined ? { details: m.details } : {}),
    ...(asMessage ? { asMessage } : {}),
  };
}

function assistantMessage(m: z.output<typeof assistantSchema>, images: ImageSink): UnplacedMessageEntry {
  const api = apiOf(m.api);
  const stopReason = stopReasonOf(m.stopReason);
  const status: MessageStatus = stopReason === "aborted" ? "stopped" : stopReason === "error" ? "error" : "complete";
  let error: MessageError | undefined;
  if (status === "stopped" && m.errorMessage) error = { kind: "aborted", message: m.errorMessage };
  if (status === "error")
    error = { kind: "unknown", message: m.errorMessage || "The request failed (pi recorded no message)." };
  const u = m.usage;
  // Grove's `input` includes cache reads and writes (entries.ts); pi's does not.
  const usage: Usage | undefined = u && {
    input: u.input + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0),
    output: u.output,
    ...(u.cacheRead ? { cacheRead: u.cacheRead } : {}),
    ...(u.cacheWrite ? { cacheWrite: u.cacheWrite } : {}),
  };
  return {
    type: "message",
    role: "assistant",
    content: blocksOf(m.content, images, api, m.provider),
    status,
    ...(error ? { error } : {}),
    ...(m.provider ? { provider: m.provider } : {}),
    ...(api ? { api } : {}),
    ...(m.model ? { model: m.model } : {}),
    ...(usage ? { usage } : {}),
    ...(stopReason ? { stopReason } : {}),
  };
}

const userMessage = (content: Block[]): UnplacedMessageEntry => ({
  type: "message",
  role: "user",
  content,
  status: "complete",
});

/** A `message` entry by role; unknown roles are skipped (see the header). */
function messageItem(r: PiRecord, images: ImageSink): Result<Item> {
  const line = parseLine(messageLine, r.value, r, "message");
  if (!line.ok) return line;
  const message = line.value.message;
  const what = `message, role ${message.role}`;
  switch (message.role) {
    case "user": {
      const m = parseLine(userSchema, message, r, what);
      return m.ok ? ok({ kind: "entry", entry: userMessage(blocksOf(m.value.content, images)), userTurn: true }) : m;
    }
    case "assistant": {
      const m = parseLine(assistantSchema, message, r, what);
      return m.ok ? ok({ kind: "entry", entry: assistantMessage(m.value, images), userTurn: false }) : m;
    }
    case "toolResult": {
      const m = parseLine(toolResultSchema, message, r, what);
      if (!m.ok) return m;
      const { toolCallId, toolName, content, isError } = m.value;
      // A result Grove cut for the model: the whole text and the cut come back from `grove`.
      const grove = m.value.grove === undefined ? null : toolResultGrove.safeParse(m.value.grove);
      const cut = grove?.success ? grove.data : null;
      const block: Block = {
        type: "tool_result",
        callId: toolCallId,
        ...(toolName ? { toolName } : {}),
        text: cut ? cut.text : plainText(content),
        isError: isError === true,
        ...(cut?.shownChars !== undefined ? { shownChars: cut.shownChars } : {}),
        ...(cut?.originalChars !== undefined ? { originalChars: cut.originalChars } : {}),
      };
      // Images a tool returned (a read image file) follow the result as image blocks.
      const pictures = content.flatMap((b) => (b.type === "image" ? [imageOf(b, images)] : []));
      return ok({
        kind: "entry",
        entry: { type: "message", role: "tool", content: [block, ...pictures], status: "complete" },
        userTurn: false,
      });
    }
    case "bashExecution": {
      const m = parseLine(bashSchema, message, r, what);
      return m.ok ? ok({ kind: "entry", entry: commandEntry(m.value), userTurn: false }) : m;
    }
    case "custom": {
      const m = parseLine(customSchema, message, r, what);
      return m.ok ? ok({ kind: "entry", entry: noteEntry(m.value, images, true), userTurn: false }) : m;
    }
    default:
      return ok({ kind: "skip" });
  }
}

export function itemOf(r: PiRecord, type: string, images: ImageSink): Result<Item> {
  switch (type) {
    case "message":
      return messageItem(r, images);
    case "model_change": {
      const m = parseLine(modelChangeLine, r.value, r, type);
      if (!m.ok) return m;
      const { provider, modelId } = m.value;
      return ok({ kind: "entry", entry: { type: "model_change", provider, modelId }, userTurn: false });
    }
    case "thinking_level_change": {
      const m = parseLine(thinkingLevelLine, r.value, r, type);
      if (!m.ok) return m;
      return ok({
        kind: "entry",
        entry: { type: "thinking_level_change", thinkingLevel: m.value.thinkingLevel },
        userTurn: false,
      });
    }
    case "custom": {
      const customType = typeof r.value.customType === "string" ? r.value.customType : "unknown";
      const entry: Unplaced<CustomDataEntry> = {
        type: "custom",
        customType,
        ...(r.value.data !== undefined ? { data: r.value.data } : {}),
      };
      return ok({ kind: "entry", entry, userTurn: false });
    }
    case "compaction": {
      const m = parseLine(compactionLine, r.value, r, type);
      return m.ok ? ok({ kind: "compaction", line: m.value }) : m;
    }
    case "branch_summary": {
      const m = parseLine(branchSummaryLine, r.value, r, type);
      return m.ok ? ok({ kind: "branch_summary", line: m.value }) : m;
    }
    case "custom_message": {
      const m = parseLine(customMessageLine, r.value, r, type);
      if (!m.ok) return m;
      if (m.value.customType === GROVE_HANDOFF_CUSTOM_TYPE) {
        const details = handoffDetails.safeParse(m.value.details);
        if (details.success) return ok({ kind: "handoff", details: details.data });
      }
      return ok({ kind: "entry", entry: noteEntry(m.value, images, false), userTurn: false });
    }
    case "label": {
      const m = parseLine(labelLine, r.value, r, type);
      return m.ok ? ok({ kind: "label", targetId: m.value.targetId, label: m.value.label || null }) : m;
    }
    case "session_info": {
      const m = parseLine(sessionInfoLine, r.value, r, type);
      if (!m.ok) return m;
      const name = m.value.name?.trim() ?? "";
      return ok(
        name ? { kind: "session_info", name, titleSource: m.value.grove?.titleSource ?? "user" } : { kind: "skip" },
      );
    }
    default:
      // Types from a newer pi: see the header.
      return ok({ kind: "skip" });
  }
}

export const becomesEntry = (item: Item): boolean =>
  item.kind === "entry" || item.kind === "compaction" || item.kind === "branch_summary" || item.kind === "handoff";
