/**
 * Import of a Claude.ai data export (`conversations.json`): a list of conversations, each with
 * its `chat_messages`. Messages name their parent (`parent_message_uuid`), so a retried reply or
 * an edited question is a sibling version, and the chat opens on the newest leaf (or the
 * conversation's `current_leaf_message_uuid`). Exports without parents are read as one line.
 *
 * Content blocks are kept as what they are: `thinking` a thinking block, `tool_use` a tool call,
 * `tool_result` a tool result, `text` text. An attachment's extracted text becomes a text-file
 * block under its file name; uploaded files without text (`files`, `files_v2`: images, PDFs) are
 * named. A conversation with no message is skipped with its name. Pure: JSON in, sessions out.
 */
import type { Block, Entry, MessageEntry, Session } from "../session/entries";
import { type EntryId, newEntryId, newSessionId, type SessionId } from "../session/ids";
import { checkSessionGraph, type ExportedSession, type ImportResult } from "./grove-json";
import { asRecord, childrenByParent, dateMs, newestLeaf, str, type TreeNode, walkTree } from "./message-tree";
import { recordTitle, SKIP_REASON, type SkippedRecord } from "./skipped";

export type ClaudeImportOptions = {
  newSessionId?: () => SessionId;
  newEntryId?: () => EntryId;
  now?: () => number;
};

/** True when `raw` looks like a Claude.ai export: a list in which conversations carry `chat_messages`. */
export function isClaudeShaped(raw: unknown): boolean {
  return Array.isArray(raw) && raw.some((item) => asRecord(item)?.chat_messages !== undefined);
}

type ClaudeMessage = {
  readonly key: string;
  readonly parent: string | null;
  readonly role: "user" | "assistant";
  readonly createdAt: number | undefined;
  readonly content: Block[];
  readonly stopped: boolean;
};

/** The conversation's root id: Claude.ai's first message names this parent, which is no message. */
const NO_PARENT = "00000000-0000-4000-8000-000000000000";

function readMessages(list: readonly unknown[]): ClaudeMessage[] {
  const out: ClaudeMessage[] = [];
  const hasParents = list.some((m) => str(asRecord(m)?.parent_message_uuid) !== undefined);
  let previous: string | null = null;
  for (const [i, raw] of list.entries()) {
    const m = asRecord(raw);
    const sender = str(m?.sender);
    if (!m || (sender !== "human" && sender !== "assistant")) continue;
    const key = str(m.uuid) ?? `#${i}`;
    const named = str(m.parent_message_uuid);
    const parent = hasParents ? (named && named !== NO_PARENT ? named : null) : previous;
    const role = sender === "human" ? "user" : "assistant";
    out.push({
      key,
      parent,
      role,
      createdAt: dateMs(m.created_at),
      content: role === "user" ? userContent(m) : assistantContent(m),
      stopped: str(m.stop_reason) === "user_canceled" || m.truncated === true,
    });
    previous = key;
  }
  return out;
}

/** A text-file block's type: the attachment's when it is a MIME type (older exports wrote "txt", "pdf"). */
function textMime(fileType: string | undefined): string {
  return fileType?.includes("/") && fileType.startsWith("text/") ? fileType : "text/plain";
}

function userContent(m: Record<string, unknown>): Block[] {
  const out: Block[] = [];
  const text = textOf(m);
  if (text.trim() !== "") out.push({ type: "text", text });
  const notes: string[] = [];
  for (const raw of Array.isArray(m.attachments) ? m.attachments : []) {
    const a = asRecord(raw);
    if (!a) continue;
    const name = str(a.file_name)?.trim() || "attachment";
    const extracted = str(a.extracted_content);
    if (extracted && extracted.trim() !== "") {
      out.push({ type: "text_file", name, mimeType: textMime(str(a.file_type)), text: extracted });
    } else {
      notes.push(`[file: ${name} — not in the export]`);
    }
  }
  // `files_v2` repeats `files` with more detail in newer exports: each name once.
  const named = new Set<string>();
  for (const list of [m.files, m.files_v2]) {
    for (const raw of Array.isArray(list) ? list : []) {
      const name = str(asRecord(raw)?.file_name)?.trim();
      if (!name || named.has(name)) continue;
      named.add(name);
      notes.push(`[file: ${name} — not in the export]`);
    }
  }
  if (notes.length > 0) {
    const note = notes.join("\n");
    const first = out[0];
    if (first?.type === "text") out[0] = { type: "text", text: `${first.text}\n\n${note}` };
    else out.unshift({ type: "text", text: note });
  }
  return out;
}

/** `content` is the newer, richer form; `text` holds the same words in older exports. */
function textOf(m: Record<string, unknown>): string {
  const parts = Array.isArray(m.content) ? m.content : [];
  const texts: string[] = [];
  for (const raw of parts) {
    const b = asRecord(raw);
    const text = str(b?.text);
    if (str(b?.type) === "text" && text !== undefined && text.trim() !== "") texts.push(text);
  }
  return texts.length > 0 ? texts.join("\n\n") : (str(m.text) ?? "");
}

function assistantContent(m: Record<string, unknown>): Block[] {
  const parts = Array.isArray(m.content) ? m.content : [];
  if (parts.length === 0) {
    const text = str(m.text) ?? "";
    return text.trim() === "" ? [] : [{ type: "text", text }];
  }
  const out: Block[] = [];
  let lastCall: string | undefined;
  for (const [i, raw] of parts.entries()) {
    const b = asRecord(raw);
    switch (str(b?.type)) {
      case "text": {
        const text = str(b?.text) ?? "";
        if (text.trim() !== "") out.push({ type: "text", text });
        break;
      }
      case "thinking": {
        const text = str(b?.thinking) ?? "";
        if (text.trim() !== "") out.push({ type: "thinking", text });
        break;
      }
      case "tool_use": {
        lastCall = str(b?.id) ?? `${str(m.uuid) ?? "message"}-tool-${i}`;
        out.push({ type: "tool_call", id: lastCall, name: str(b?.name) ?? "tool", args: b?.input ?? {} });
        break;
      }
      case "tool_result": {
        const callId = str(b?.tool_use_id) ?? lastCall ?? `${str(m.uuid) ?? "message"}-tool-${i}`;
        const name = str(b?.name);
        out.push({
          type: "tool_result",
          callId,
          ...(name ? { toolName: name } : {}),
          text: toolResultText(b?.content),
          isError: b?.is_error === true,
        });
        break;
      }
      default:
        break; // token budgets, citations' own blocks: nothing to show
    }
  }
  return out;
}

/** A tool result's content as text: its text parts, and search results as "title — url". */
function toolResultText(content: unknown): string {
  if (typeof content === "string") return content;
  const lines: string[] = [];
  for (const raw of Array.isArray(content) ? content : []) {
    const c = asRecord(raw);
    const text = str(c?.text);
    if (text !== undefined) lines.push(text);
    else if (str(c?.title) || str(c?.url)) lines.push([str(c?.title), str(c?.url)].filter(Boolean).join(" — "));
  }
  return lines.join("\n");
}

type Converted = { ok: true; value: ExportedSession } | { ok: false; reason: string };

function convertConversation(
  conv: Record<string, unknown>,
  title: string,
  ids: { newSessionId: () => SessionId; newEntryId: () => EntryId; now: () => number },
): Converted {
  if (!Array.isArray(conv.chat_messages)) return { ok: false, reason: SKIP_REASON.noMessages };
  const messages = readMessages(conv.chat_messages);
  const byKey = new Map(messages.map((m) => [m.key, m]));
  const nodes: TreeNode[] = messages.map((m) => ({ key: m.key, parent: m.parent }));
  const sessionId = ids.newSessionId();
  const convCreated = dateMs(conv.created_at);
  const entries: Entry[] = [];
  const keptAs = new Map<string, EntryId | null>();
  const createdOf = new Map<EntryId, number>();
  const unreached = walkTree<EntryId | null>(childrenByParent(nodes), null, (key, parent) => {
    const m = byKey.get(key);
    if (!m || m.content.length === 0) {
      keptAs.set(key, parent);
      return parent;
    }
    const id = ids.newEntryId();
    const createdAt = m.createdAt ?? (parent ? createdOf.get(parent) : undefined) ?? convCreated ?? ids.now();
    const entry: MessageEntry = {
      type: "message",
      id,
      sessionId,
      parentId: parent,
      createdAt,
      role: m.role,
      content: m.content,
      status: m.stopped ? "stopped" : "complete",
    };
    entries.push(entry);
    createdOf.set(id, createdAt);
    keptAs.set(key, id);
    return id;
  });
  if (unreached.length > 0) return { ok: false, reason: SKIP_REASON.loops };
  if (entries.length === 0) return { ok: false, reason: SKIP_REASON.noMessages };
  const current = str(conv.current_leaf_message_uuid);
  const leafId = current && keptAs.has(current) ? (keptAs.get(current) ?? null) : newestLeaf(entries);
  const createdAt = convCreated ?? entries[0]?.createdAt ?? ids.now();
  let last = createdAt;
  for (const e of entries) if (e.createdAt > last) last = e.createdAt;
  const uuid = str(conv.uuid);
  const session: Session = {
    id: sessionId,
    title,
    titleSource: "user",
    createdAt,
    updatedAt: dateMs(conv.updated_at) ?? last,
    leafId,
    ...(uuid ? { importedFrom: `claude:${uuid}` } : {}),
  };
  return { ok: true, value: { session, entries, labels: {} } };
}

/** The same conversion on JSON already parsed (a list of Claude conversations). */
export function parseClaudeValue(raw: unknown, options: ClaudeImportOptions = {}): ImportResult {
  const ids = {
    newSessionId: options.newSessionId ?? newSessionId,
    newEntryId: options.newEntryId ?? newEntryId,
    now: options.now ?? Date.now,
  };
  if (!Array.isArray(raw)) {
    return { kind: "error", message: "Not a Claude export: expected conversations.json (a list of conversations)." };
  }
  const sessions: ExportedSession[] = [];
  const skipped: SkippedRecord[] = [];
  for (const [i, item] of raw.entries()) {
    const conv = asRecord(item);
    const title = recordTitle(conv?.name, i);
    if (!conv) {
      skipped.push({ title, reason: SKIP_REASON.notAConversation });
      continue;
    }
    const converted = convertConversation(conv, str(conv.name)?.trim() || "Imported Claude conversation", ids);
    if (converted.ok) sessions.push(converted.value);
    else skipped.push({ title, reason: converted.reason });
  }
  const problem = checkSessionGraph(sessions);
  if (problem) return { kind: "error", message: `Claude import produced an invalid session: ${problem}` };
  return { kind: "ok", sessions, skipped };
}
