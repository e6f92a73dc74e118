/**
 * Import of a ChatGPT data export (`conversations.json`): each conversation's `mapping` tree
 * becomes one Grove session with every branch. Pure: text in, sessions out.
 */
import { z } from "zod";
import type { Block, Entry, MessageEntry, MessageStatus, Session, StopReason } from "../session/entries";
import { type EntryId, newEntryId, newSessionId, type SessionId } from "../session/ids";
import { checkSessionGraph, type ExportedSession, type ImportResult, parseJsonText } from "./grove-json";

export type ChatGptImportOptions = {
  /** Id factories; tests pass deterministic ones. */
  newSessionId?: () => SessionId;
  newEntryId?: () => EntryId;
  /** Used when a conversation has no timestamps at all. */
  now?: () => number;
};

const seconds = z.number().finite().nullish();

const messageSchema = z.looseObject({
  id: z.string().optional(),
  author: z.looseObject({ role: z.string(), name: z.string().nullish() }),
  create_time: seconds,
  content: z
    .looseObject({
      content_type: z.string(),
      parts: z.array(z.unknown()).nullish(),
      text: z.string().nullish(),
    })
    .nullish(),
  status: z.string().nullish(),
  recipient: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
type ChatGptMessage = z.infer<typeof messageSchema>;

const nodeSchema = z.looseObject({
  id: z.string().optional(),
  message: messageSchema.nullish(),
  parent: z.string().nullish(),
  children: z.array(z.string()).nullish(),
});

const conversationSchema = z.looseObject({
  title: z.string().nullish(),
  create_time: seconds,
  update_time: seconds,
  mapping: z.record(z.string(), nodeSchema),
  current_node: z.string().nullish(),
  id: z.string().nullish(),
  conversation_id: z.string().nullish(),
});
type Conversation = z.infer<typeof conversationSchema>;

const toMs = (s: number | null | undefined): number | undefined =>
  typeof s === "number" ? Math.round(s * 1000) : undefined;

/** A part that isn't text becomes a visible note saying what was left out. */
function omittedNote(part: unknown): string {
  if (part !== null && typeof part === "object") {
    const type = (part as { content_type?: unknown }).content_type;
    if (typeof type === "string") {
      if (type.includes("image")) return "[image omitted]";
      if (type.includes("audio")) return "[audio omitted]";
      if (type.includes("video")) return "[video omitted]";
      return `[${type} omitted]`;
    }
  }
  return "[attachment omitted]";
}

/** The message's visible text, non-text parts replaced by notes. Empty string = nothing to show. */
function messageTextOf(msg: ChatGptMessage): string {
  const content = msg.content;
  if (!content) return "";
  const pieces: string[] = [];
  if (content.parts) {
    for (const part of content.parts) {
      if (typeof part === "string") {
        if (part.trim() !== "") pieces.push(part);
      } else if (part !== null && part !== undefined) {
        pieces.push(omittedNote(part));
      }
    }
  } else if (typeof content.text === "string") {
    if (content.text.trim() !== "") {
      pieces.push(content.content_type === "code" ? `\`\`\`\n${content.text}\n\`\`\`` : content.text);
    }
  } else {
    pieces.push(`[${content.content_type} omitted]`);
  }
  return pieces.join("\n\n");
}

function statusOf(msg: ChatGptMessage): MessageStatus {
  switch (msg.status) {
    case "in_progress":
      return "interrupted";
    case "finished_partial_completion":
      return "stopped";
    default:
      return "complete";
  }
}

function stopReasonOf(msg: ChatGptMessage): StopReason | undefined {
  const fd = msg.metadata?.finish_details;
  const type = fd !== null && typeof fd === "object" ? (fd as { type?: unknown }).type : undefined;
  switch (type) {
    case "stop":
      return "end";
    case "max_tokens":
      return "length";
    case "interrupted":
      return "aborted";
    default:
      return undefined;
  }
}

const isHidden = (msg: ChatGptMessage): boolean => msg.metadata?.is_visually_hidden_from_conversation === true;

function convertConversation(
  conv: Conversation,
  index: number,
  opts: Required<ChatGptImportOptions>,
): { ok: true; value: ExportedSession } | { ok: false; message: string } {
  const title = conv.title?.trim() || "Imported ChatGPT conversation";
  const where = `Conversation ${index + 1} ("${title}")`;
  const mapping = conv.mapping;
  const keys = Object.keys(mapping);

  for (const key of keys) {
    const parent = mapping[key]?.parent;
    if (parent != null && !(parent in mapping)) {
      return { ok: false, message: `${where}: node ${key} has parent ${parent}, which is not in the mapping.` };
    }
  }

  // Children in the export's own order (the `children` list), then any only linked by `parent`.
  const childrenOf = new Map<string | null, string[]>();
  const push = (parent: string | null, child: string) => {
    const list = childrenOf.get(parent) ?? [];
    if (!list.includes(child)) list.push(child);
    childrenOf.set(parent, list);
  };
  for (const key of keys) {
    for (const child of mapping[key]?.children ?? []) {
      if (mapping[child]?.parent === key) push(key, child);
    }
  }
  for (const key of keys) push(mapping[key]?.parent ?? null, key);

  const sessionId = opts.newSessionId();
  const convCreated = toMs(conv.create_time);
  const entries: Entry[] = [];
  /** Original node id -> the Grove entry it became, or of its nearest kept ancestor (null = root). */
  const keptAs = new Map<string, EntryId | null>();
  /** Grove entry id -> the tool call id it made (assistant messages addressed to a tool). */
  const toolCallOf = new Map<EntryId, string>();
  const createdOf = new Map<EntryId, number>();

  // Iterative DFS from the roots, parents before children.
  const stack: { key: string; parentEntry: EntryId | null }[] = (childrenOf.get(null) ?? [])
    .map((key) => ({ key, parentEntry: null }))
    .reverse();
  while (stack.length > 0) {
    const item = stack.pop();
    if (!item) break;
    const { key, parentEntry } = item;
    if (keptAs.has(key)) continue;
    const msg = mapping[key]?.message;
    let self: EntryId | null = parentEntry;
    const role = msg?.author.role;
    if (msg && !isHidden(msg) && (role === "user" || role === "assistant" || role === "tool")) {
      const text = messageTextOf(msg);
      if (text !== "") {
        const id = opts.newEntryId();
        const parentCreated = parentEntry ? createdOf.get(parentEntry) : undefined;
        const createdAt = toMs(msg.create_time) ?? parentCreated ?? convCreated ?? opts.now();
        const originalId = msg.id ?? key;
        let content: Block[];
        if (role === "tool") {
          const callId = (parentEntry && toolCallOf.get(parentEntry)) ?? originalId;
          content = [{ type: "tool_result", callId, toolName: msg.author.name ?? undefined, text, isError: false }];
        } else if (role === "assistant" && msg.recipient && msg.recipient !== "all") {
          content = [{ type: "tool_call", id: originalId, name: msg.recipient, args: { input: text } }];
          toolCallOf.set(id, originalId);
        } else {
          content = [{ type: "text", text }];
        }
        const model = msg.metadata?.model_slug;
        const entry: MessageEntry = {
          type: "message",
          id,
          sessionId,
          parentId: parentEntry,
          createdAt,
          role,
          content,
          status: statusOf(msg),
          ...(role === "assistant" && typeof model === "string" ? { model } : {}),
          ...(role === "assistant" && stopReasonOf(msg) ? { stopReason: stopReasonOf(msg) } : {}),
        };
        entries.push(entry);
        createdOf.set(id, createdAt);
        self = id;
      }
    }
    keptAs.set(key, self);
    const kids = childrenOf.get(key) ?? [];
    for (let i = kids.length - 1; i >= 0; i--) {
      const child = kids[i];
      if (child !== undefined) stack.push({ key: child, parentEntry: self });
    }
  }

  const unreached = keys.find((k) => !keptAs.has(k));
  if (unreached !== undefined) {
    return { ok: false, message: `${where}: node ${unreached} is part of a parent cycle and never reaches a root.` };
  }

  let leafId: EntryId | null = null;
  if (conv.current_node && keptAs.has(conv.current_node)) {
    leafId = keptAs.get(conv.current_node) ?? null;
  } else {
    // No usable current_node: the newest entry that has no children.
    const parents = new Set(entries.map((e) => e.parentId));
    let best: Entry | undefined;
    for (const e of entries) if (!parents.has(e.id) && (!best || e.createdAt >= best.createdAt)) best = e;
    leafId = best?.id ?? null;
  }

  const createdAt = convCreated ?? entries[0]?.createdAt ?? opts.now();
  const lastEntry = entries.reduce((m, e) => Math.max(m, e.createdAt), createdAt);
  const sourceId = conv.conversation_id ?? conv.id;
  const session: Session = {
    id: sessionId,
    title,
    titleSource: "user",
    createdAt,
    updatedAt: toMs(conv.update_time) ?? lastEntry,
    leafId,
    ...(sourceId ? { importedFrom: `chatgpt:${sourceId}` } : {}),
  };
  return { ok: true, value: { session, entries, labels: {} } };
}

export function parseChatGptExport(text: string, options: ChatGptImportOptions = {}): ImportResult {
  const json = parseJsonText(text, "ChatGPT export");
  return json.ok ? parseChatGptValue(json.value, options) : { kind: "error", message: json.message };
}

/** The same conversion as parseChatGptExport, on JSON already parsed. */
export function parseChatGptValue(raw: unknown, options: ChatGptImportOptions = {}): ImportResult {
  const opts: Required<ChatGptImportOptions> = {
    newSessionId: options.newSessionId ?? newSessionId,
    newEntryId: options.newEntryId ?? newEntryId,
    now: options.now ?? Date.now,
  };
  const list: unknown[] | null = Array.isArray(raw) ? raw : raw !== null && typeof raw === "object" ? [raw] : null;
  if (!list) {
    return {
      kind: "error",
      message: "Not a ChatGPT export: expected conversations.json (a list of conversations, or one conversation).",
    };
  }
  const sessions: ExportedSession[] = [];
  for (const [i, item] of list.entries()) {
    const parsed = conversationSchema.safeParse(item);
    if (!parsed.success) {
      const rawTitle = item !== null && typeof item === "object" ? (item as { title?: unknown }).title : undefined;
      const name = typeof rawTitle === "string" ? ` ("${rawTitle}")` : "";
      const issue = parsed.error.issues[0];
      const path = issue?.path.map(String).join(".") ?? "";
      const missingMapping =
        item === null ||
        typeof item !== "object" ||
        !("mapping" in item) ||
        (issue?.path[0] === "mapping" && issue.path.length === 1);
      return {
        kind: "error",
        message: missingMapping
          ? `Not a ChatGPT export: conversation ${i + 1}${name} has no "mapping" message tree.`
          : `Conversation ${i + 1}${name}: invalid at ${path || "(top level)"}: ${issue?.message ?? "invalid"}.`,
      };
    }
    const converted = convertConversation(parsed.data, i, opts);
    if (!converted.ok) return { kind: "error", message: converted.message };
    sessions.push(converted.value);
  }
  const problem = checkSessionGraph(sessions);
  if (problem) return { kind: "error", message: `ChatGPT import produced an invalid session: ${problem}` };
  return { kind: "ok", sessions };
}
