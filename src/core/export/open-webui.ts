/**
 * Import of Open WebUI chat exports ("Export chat (.json)", or Settings › Chats › "Export all
 * chats"): a list of `{id, title, chat: {models, history: {currentId, messages}}, created_at}`.
 * `history.messages` is the tree (`parentId`, `childrenIds`), `currentId` the message the user
 * last saw; older chats have only the flat `chat.messages`, read as one line.
 *
 * An assistant reply's content holds Open WebUI's own `<details>` markup: `type="reasoning"`
 * (the thinking, HTML-escaped and quoted with "> ", its summary "Thought for 3 seconds") becomes
 * a thinking block with that label; `type="tool_calls"` a tool call and its result;
 * `type="code_interpreter"` the code and its output. Newer replies also carry the same as an
 * `output` list, which is read first. A user's images (`files` with a `data:` URL) come in as
 * image attachments. Model names and titles are kept. Pure: JSON in, sessions out.
 */
import type { Block, Entry, MessageEntry, Session } from "../session/entries";
import { type BlobId, type EntryId, newBlobId, newEntryId, newSessionId, type SessionId } from "../session/ids";
import { checkSessionGraph, type ExportedSession, type ImportResult } from "./grove-json";
import { asRecord, childrenByParent, epochMs, newestLeaf, str, type TreeNode, walkTree } from "./message-tree";
import { recordTitle, SKIP_REASON, type SkippedRecord } from "./skipped";

export type OpenWebUiImportOptions = {
  newSessionId?: () => SessionId;
  newEntryId?: () => EntryId;
  now?: () => number;
};

/** An Open WebUI chat: an object with `chat.history` or `chat.messages`. */
function isChat(item: unknown): boolean {
  const chat = asRecord(asRecord(item)?.chat);
  return chat !== undefined && (asRecord(chat.history) !== undefined || Array.isArray(chat.messages));
}

/** True for an Open WebUI export: a list of chats (or one chat). */
export function isOpenWebUiShaped(raw: unknown): boolean {
  return Array.isArray(raw) ? raw.some(isChat) : isChat(raw);
}

type Images = Map<BlobId, { data: string; mimeType: string }>;

type Ids = { newSessionId: () => SessionId; newEntryId: () => EntryId; now: () => number };

type RawMessage = { key: string; parent: string | null; value: Record<string, unknown> };

/** The chat's messages: the `history` tree, else the flat list (each the child of the one before). */
function messagesOf(chat: Record<string, unknown>): { messages: RawMessage[]; current: string | undefined } {
  const history = asRecord(chat.history);
  const tree = asRecord(history?.messages);
  if (tree && Object.keys(tree).length > 0) {
    const messages: RawMessage[] = [];
    for (const [key, raw] of Object.entries(tree)) {
      const value = asRecord(raw);
      if (value) messages.push({ key: str(value.id) ?? key, parent: str(value.parentId) ?? null, value });
    }
    return { messages, current: str(history?.currentId) };
  }
  const list = Array.isArray(chat.messages) ? chat.messages : [];
  const messages: RawMessage[] = [];
  let previous: string | null = null;
  for (const [i, raw] of list.entries()) {
    const value = asRecord(raw);
    if (!value) continue;
    const key = str(value.id) ?? `#${i}`;
    messages.push({ key, parent: str(value.parentId) ?? previous, value });
    previous = key;
  }
  return { messages, current: undefined };
}

function convertChat(item: Record<string, unknown>, title: string, ids: Ids, images: Images): ExportedSession | string {
  const chat = asRecord(item.chat) ?? {};
  const { messages, current } = messagesOf(chat);
  const byKey = new Map(messages.map((m) => [m.key, m]));
  const nodes: TreeNode[] = messages.map((m) => ({ key: m.key, parent: m.parent }));
  const children = childrenByParent(nodes, (key) => {
    const list = byKey.get(key)?.value.childrenIds;
    return Array.isArray(list) ? list.filter((c): c is string => typeof c === "string") : undefined;
  });
  const sessionId = ids.newSessionId();
  const convCreated = epochMs(item.created_at) ?? epochMs(chat.timestamp);
  const chatModel = Array.isArray(chat.models) ? str(chat.models[0]) : undefined;
  const entries: Entry[] = [];
  const keptAs = new Map<string, EntryId | null>();
  const createdOf = new Map<EntryId, number>();
  const unreached = walkTree<EntryId | null>(children, null, (key, parent) => {
    const m = byKey.get(key)?.value;
    const role = str(m?.role);
    const content =
      m && role === "user" ? userContent(m, images) : m && role === "assistant" ? assistantContent(m) : [];
    if (!m || content.length === 0 || (role !== "user" && role !== "assistant")) {
      keptAs.set(key, parent);
      return parent;
    }
    const id = ids.newEntryId();
    const createdAt = epochMs(m.timestamp) ?? (parent ? createdOf.get(parent) : undefined) ?? convCreated ?? ids.now();
    const model = role === "assistant" ? (str(m.model) ?? chatModel) : undefined;
    const failed = asRecord(m.error) !== undefined || m.error === true;
    const entry: MessageEntry = {
      type: "message",
      id,
      sessionId,
      parentId: parent,
      createdAt,
      role,
      content,
      status: failed ? "error" : m.done === false ? "interrupted" : "complete",
      ...(failed
        ? { error: { kind: "unknown", message: str(asRecord(m.error)?.content) ?? "The reply failed." } }
        : {}),
      ...(model ? { model } : {}),
    };
    entries.push(entry);
    createdOf.set(id, createdAt);
    keptAs.set(key, id);
    return id;
  });
  if (unreached.length > 0) return SKIP_REASON.loops;
  if (entries.length === 0) return SKIP_REASON.noMessages;
  const leafId = current && keptAs.has(current) ? (keptAs.get(current) ?? null) : newestLeaf(entries);
  const createdAt = convCreated ?? entries[0]?.createdAt ?? ids.now();
  let last = createdAt;
  for (const e of entries) if (e.createdAt > last) last = e.createdAt;
  const sourceId = str(item.id);
  const session: Session = {
    id: sessionId,
    title,
    titleSource: "user",
    createdAt,
    updatedAt: epochMs(item.updated_at) ?? last,
    leafId,
    ...(sourceId ? { importedFrom: `open-webui:${sourceId}` } : {}),
  };
  return { session, entries, labels: {} };
}

const DATA_IMAGE = /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/]+={0,2})$/;

function userContent(m: Record<string, unknown>, images: Images): Block[] {
  const out: Block[] = [];
  const text = str(m.content) ?? "";
  if (text.trim() !== "") out.push({ type: "text", text });
  const notes: string[] = [];
  for (const raw of Array.isArray(m.files) ? m.files : []) {
    const f = asRecord(raw);
    if (!f) continue;
    const name = str(f.name) ?? str(asRecord(f.file)?.filename) ?? str(asRecord(f.meta)?.name);
    const data = DATA_IMAGE.exec(str(f.url) ?? "");
    if (str(f.type) === "image" && data?.[1] && data[2]) {
      // A temporary id: the import job stores the bytes under their SHA-256 and points the block there.
      const blobId = newBlobId();
      images.set(blobId, { data: data[2], mimeType: data[1] });
      out.push({ type: "image", blobId, mimeType: data[1], ...(name ? { name } : {}) });
    } else {
      notes.push(`[file: ${name ?? "attachment"} — not in the export]`);
    }
  }
  if (notes.length > 0) out.push({ type: "text", text: notes.join("\n") });
  return out;
}

function assistantContent(m: Record<string, unknown>): Block[] {
  const fromOutput = Array.isArray(m.output) ? outputBlocks(m.output) : [];
  return fromOutput.length > 0 ? fromOutput : contentBlocks(str(m.content) ?? "");
}

/** Newer Open WebUI's `output` items (Responses-like): reasoning, function calls and outputs, messages. */
function outputBlocks(output: readonly unknown[]): Block[] {
  const out: Block[] = [];
  for (const raw of output) {
    const item = asRecord(raw);
    switch (str(item?.type)) {
      case "reasoning": {
        const text = outputText(item?.content) || outputText(item?.summary);
        const duration = item?.duration;
        const label = typeof duration === "number" ? `Thought for ${Math.round(duration)} seconds` : undefined;
        if (text.trim() !== "") out.push({ type: "thinking", text, ...(label ? { label } : {}) });
        break;
      }
      case "function_call":
        out.push({
          type: "tool_call",
          id: str(item?.call_id) ?? str(item?.id) ?? "call",
          name: str(item?.name) ?? "tool",
          args: parseArgs(str(item?.arguments) ?? ""),
        });
        break;
      case "function_call_output":
        out.push({
          type: "tool_result",
          callId: str(item?.call_id) ?? "call",
          text: outputText(item?.output),
          isError: false,
        });
        break;
      case "message": {
        const text = outputText(item?.content);
        if (text.trim() !== "") out.push({ type: "text", text });
        break;
      }
      default:
        break;
    }
  }
  return out;
}

function outputText(value: unknown): string {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return "";
  return value
    .map((p) => str(asRecord(p)?.text) ?? "")
    .filter((t) => t !== "")
    .join("\n\n");
}

function parseArgs(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    return asRecord(parsed) ?? { input: text };
  } catch {
    return text.trim() === "" ? {} : { input: text };
  }
}

/** One of Open WebUI's `<details type="…" …>…</details>` blocks (never nested in what it writes). */
const DETAILS = /<details\s+type="(\w+)"([^>]*)>\s*<summary>([\s\S]*?)<\/summary>([\s\S]*?)<\/details>/g;
const ATTRIBUTE = /(\w+)="([^"]*)"/g;

/** The reply's `content` string: its `<details>` blocks as thinking and tool blocks, the rest as text. */
function contentBlocks(content: string): Block[] {
  const out: Block[] = [];
  const pushText = (text: string) => {
    if (text.trim() !== "") out.push({ type: "text", text: text.trim() });
  };
  let at = 0;
  let n = 0;
  for (const match of content.matchAll(DETAILS)) {
    pushText(content.slice(at, match.index));
    at = match.index + match[0].length;
    const [, type, rawAttributes = "", summary = "", body = ""] = match;
    const attributes = new Map<string, string>();
    for (const a of rawAttributes.matchAll(ATTRIBUTE)) attributes.set(a[1] ?? "", unescapeHtml(a[2] ?? ""));
    if (type === "reasoning") {
      const text = unquote(unescapeHtml(body)).trim();
      const label = unescapeHtml(summary).trim();
      if (text !== "") out.push({ type: "thinking", text, ...(label ? { label } : {}) });
    } else if (type === "tool_calls") {
      const id = attributes.get("id") || `call-${++n}`;
      out.push({
        type: "tool_call",
        id,
        name: attributes.get("name") || "tool",
        args: parseArgs(attributes.get("arguments") ?? ""),
      });
      const result = attributes.get("result") ?? unescapeHtml(body).trim();
      if (result !== "") out.push({ type: "tool_result", callId: id, text: jsonString(result), isError: false });
    } else if (type === "code_interpreter") {
      const id = `code-${++n}`;
      out.push({ type: "tool_call", id, name: "code_interpreter", args: { code: unescapeHtml(body).trim() } });
      const output = attributes.get("output");
      if (output) out.push({ type: "tool_result", callId: id, text: jsonString(output), isError: false });
    } else {
      pushText(match[0]);
    }
  }
  pushText(content.slice(at));
  return out;
}

/** Open WebUI writes a tool's result as a JSON string; its text is what a reader wants. */
function jsonString(value: string): string {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === "string" ? parsed : JSON.stringify(parsed, null, 2);
  } catch {
    return value;
  }
}

/** The reasoning is written quoted, "> " before each line. */
const unquote = (text: string): string => text.replace(/^[ \t]*> ?/gm, "");

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'" };

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_m, name: string) => ENTITIES[name] ?? _m);
}

export function parseOpenWebUiValue(raw: unknown, options: OpenWebUiImportOptions = {}): ImportResult {
  const ids: Ids = {
    newSessionId: options.newSessionId ?? newSessionId,
    newEntryId: options.newEntryId ?? newEntryId,
    now: options.now ?? Date.now,
  };
  const list = Array.isArray(raw) ? raw : [raw];
  const sessions: ExportedSession[] = [];
  const skipped: SkippedRecord[] = [];
  for (const [i, item] of list.entries()) {
    const chat = asRecord(item);
    const rawTitle = chat ? (str(chat.title) ?? str(asRecord(chat.chat)?.title)) : undefined;
    const title = recordTitle(rawTitle, i);
    if (!chat || !isChat(chat)) {
      skipped.push({ title, reason: chat ? SKIP_REASON.noMessages : SKIP_REASON.notAConversation });
      continue;
    }
    const images: Images = new Map();
    const converted = convertChat(chat, rawTitle?.trim() || "Imported Open WebUI chat", ids, images);
    if (typeof converted === "string") skipped.push({ title, reason: converted });
    else sessions.push(images.size > 0 ? { ...converted, images } : converted);
  }
  const problem = checkSessionGraph(sessions);
  if (problem) return { kind: "error", message: `Open WebUI import produced an invalid session: ${problem}` };
  return { kind: "ok", sessions, skipped };
}
