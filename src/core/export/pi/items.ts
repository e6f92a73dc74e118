/**
 * What one v3 line means to Grove: a message draft, a compaction, a branch summary, a handoff, a
 * label, a title, or nothing (skipped). The choices made here (model change → user note, aborted →
 * stopped, bash runs and custom messages → user text, images → a visible note, unknown types
 * skipped) are listed in import.ts's header and README.md.
 */
import type { z } from "zod";
import {
  type ApiKind,
  assertNever,
  type Block,
  type MessageEntry,
  type MessageError,
  type MessageStatus,
  type ReasoningBlock,
  type Session,
  type StopReason,
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
  modelChangeNote,
  ok,
  PI_IMAGE_OMITTED,
  type PiBlock,
  type Result,
  sessionInfoLine,
  toolResultSchema,
  userSchema,
} from "./format";
import { type PiRecord, parseLine } from "./migrate";

/** What one pi entry means to Grove. */
export type Item =
  | { kind: "message"; entry: MessageEntryDraft; userTurn: boolean }
  | { kind: "compaction"; line: z.output<typeof compactionLine> }
  | { kind: "branch_summary"; line: z.output<typeof branchSummaryLine> }
  | { kind: "handoff"; details: z.output<typeof handoffDetails> }
  | { kind: "label"; targetId: string; label: string | null }
  | { kind: "session_info"; name: string; titleSource: Session["titleSource"] }
  | { kind: "skip" };

export type MessageEntryDraft = Omit<MessageEntry, "id" | "sessionId" | "parentId" | "createdAt">;

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
export function reasoningFromPi(signature: string, provider: string): ReasoningBlock | undefined {
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

function blocksOf(blocks: readonly PiBlock[], api: ApiKind | undefined, provider?: string): Block[] {
  return blocks.map((b): Block => {
    switch (b.type) {
      case "text":
        return { type: "text", text: b.text };
      case "image":
        return { type: "text", text: PI_IMAGE_OMITTED };
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

/** A tool result's content as one text; images and other blocks as visible notes. */
function plainText(blocks: readonly PiBlock[]): string {
  return blocks
    .map((b) =>
      b.type === "text"
        ? b.text
        : b.type === "image"
          ? PI_IMAGE_OMITTED
          : `[${b.type === "other" ? b.was : b.type} omitted]`,
    )
    .join("\n");
}

/** pi's own text for a `!command` (what its model sees), so Grove's model sees the same. */
function bashText(m: z.output<typeof bashSchema>): string {
  let text = `Ran \`${m.command}\`\n`;
  text += m.output ? `\`\`\`\n${m.output}\n\`\`\`` : "(no output)";
  if (m.cancelled) text += "\n\n(command cancelled)";
  else if (m.exitCode !== null && m.exitCode !== undefined && m.exitCode !== 0) {
    text += `\n\nCommand exited with code ${m.exitCode}`;
  }
  if (m.truncated && m.fullOutputPath) text += `\n\n[Output truncated. Full output: ${m.fullOutputPath}]`;
  return text;
}

function assistantDraft(m: z.output<typeof assistantSchema>): MessageEntryDraft {
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
    content: blocksOf(m.content, api, m.provider),
    status,
    ...(error ? { error } : {}),
    ...(m.provider ? { provider: m.provider } : {}),
    ...(api ? { api } : {}),
    ...(m.model ? { model: m.model } : {}),
    ...(usage ? { usage } : {}),
    ...(stopReason ? { stopReason } : {}),
  };
}

const userDraft = (content: Block[]): MessageEntryDraft => ({
  type: "message",
  role: "user",
  content,
  status: "complete",
});

/** A `message` entry by role; unknown roles are skipped (see the header). */
function messageItem(r: PiRecord): Result<Item> {
  const line = parseLine(messageLine, r.value, r, "message");
  if (!line.ok) return line;
  const message = line.value.message;
  const what = `message, role ${message.role}`;
  switch (message.role) {
    case "user": {
      const m = parseLine(userSchema, message, r, what);
      return m.ok ? ok({ kind: "message", entry: userDraft(blocksOf(m.value.content, undefined)), userTurn: true }) : m;
    }
    case "assistant": {
      const m = parseLine(assistantSchema, message, r, what);
      return m.ok ? ok({ kind: "message", entry: assistantDraft(m.value), userTurn: false }) : m;
    }
    case "toolResult": {
      const m = parseLine(toolResultSchema, message, r, what);
      if (!m.ok) return m;
      const { toolCallId, toolName, content, isError } = m.value;
      const block: Block = {
        type: "tool_result",
        callId: toolCallId,
        ...(toolName ? { toolName } : {}),
        text: plainText(content),
        isError: isError === true,
      };
      return ok({
        kind: "message",
        entry: { type: "message", role: "tool", content: [block], status: "complete" },
        userTurn: false,
      });
    }
    case "bashExecution": {
      const m = parseLine(bashSchema, message, r, what);
      return m.ok
        ? ok({ kind: "message", entry: userDraft([{ type: "text", text: bashText(m.value) }]), userTurn: false })
        : m;
    }
    case "custom": {
      const m = parseLine(customSchema, message, r, what);
      return m.ok
        ? ok({ kind: "message", entry: userDraft(blocksOf(m.value.content, undefined)), userTurn: false })
        : m;
    }
    default:
      return ok({ kind: "skip" });
  }
}

export function itemOf(r: PiRecord, type: string): Result<Item> {
  switch (type) {
    case "message":
      return messageItem(r);
    case "model_change": {
      const m = parseLine(modelChangeLine, r.value, r, type);
      if (!m.ok) return m;
      const text = modelChangeNote(m.value.provider, m.value.modelId);
      return ok({ kind: "message", entry: userDraft([{ type: "text", text }]), userTurn: false });
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
      return ok({ kind: "message", entry: userDraft(blocksOf(m.value.content, undefined)), userTurn: false });
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
      // thinking_level_change, custom (extension state) and types from a newer pi: see the header.
      return ok({ kind: "skip" });
  }
}

export const becomesEntry = (item: Item): boolean =>
  item.kind === "message" || item.kind === "compaction" || item.kind === "branch_summary" || item.kind === "handoff";
