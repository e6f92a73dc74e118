/**
 * Import of a Claude.ai data export (`conversations.json`): a list of conversations, each a flat
 * `chat_messages` list. Each becomes one linear Grove session. Attachments' extracted text is kept
 * as a fenced text block (named by its file) in the message that carried it; uploaded files
 * without text (images, PDFs as `files`) become a visible note. Pure: JSON in, sessions out.
 */
import { z } from "zod";
import type { Entry, MessageEntry, Session } from "../session/entries";
import { type EntryId, newEntryId, newSessionId, type SessionId } from "../session/ids";
import { checkSessionGraph, type ExportedSession, type ImportResult } from "./grove-json";

export type ClaudeImportOptions = {
  newSessionId?: () => SessionId;
  newEntryId?: () => EntryId;
  now?: () => number;
};

const attachmentSchema = z.looseObject({
  file_name: z.string().nullish(),
  file_type: z.string().nullish(),
  file_size: z.number().nullish(),
  extracted_content: z.string().nullish(),
});

const fileSchema = z.looseObject({ file_name: z.string().nullish() });

const contentSchema = z.looseObject({ type: z.string(), text: z.string().nullish() });

const messageSchema = z.looseObject({
  uuid: z.string().nullish(),
  sender: z.enum(["human", "assistant"]),
  text: z.string().nullish(),
  content: z.array(contentSchema).nullish(),
  created_at: z.string().nullish(),
  attachments: z.array(attachmentSchema).nullish(),
  files: z.array(fileSchema).nullish(),
});
type ClaudeMessage = z.infer<typeof messageSchema>;

const conversationSchema = z.looseObject({
  uuid: z.string(),
  name: z.string().nullish(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  chat_messages: z.array(messageSchema),
});

/** True when `raw` looks like a Claude.ai export: a list whose items carry `chat_messages`. */
export function isClaudeShaped(raw: unknown): boolean {
  return (
    Array.isArray(raw) &&
    raw.length > 0 &&
    raw[0] !== null &&
    typeof raw[0] === "object" &&
    "chat_messages" in (raw[0] as object)
  );
}

const toMs = (iso: string | null | undefined): number | undefined => {
  if (!iso) return undefined;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : undefined;
};

/** A fence longer than any backtick run inside, so the file's own code fences can't close it. */
function fenced(fileName: string, text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fileName}:\n\n${fence}text\n${text}\n${fence}`;
}

function messageText(msg: ClaudeMessage): string {
  const textParts = (msg.content ?? []).filter((c) => c.type === "text" && typeof c.text === "string");
  // `content` is the newer, richer form; `text` holds the same words in older exports.
  const body = textParts.length > 0 ? textParts.map((c) => c.text ?? "").join("\n\n") : (msg.text ?? "");
  const pieces = body.trim() === "" ? [] : [body];
  for (const a of msg.attachments ?? []) {
    const name = a.file_name?.trim() || "attachment";
    if (a.extracted_content && a.extracted_content.trim() !== "") pieces.push(fenced(name, a.extracted_content));
    else pieces.push(`[attachment ${name} omitted]`);
  }
  for (const f of msg.files ?? []) pieces.push(`[file ${f.file_name?.trim() || "file"} omitted]`);
  return pieces.join("\n\n");
}

/** The same conversion on JSON already parsed (a list of Claude conversations). */
export function parseClaudeValue(raw: unknown, options: ClaudeImportOptions = {}): ImportResult {
  const makeSessionId = options.newSessionId ?? newSessionId;
  const makeEntryId = options.newEntryId ?? newEntryId;
  const now = options.now ?? Date.now;
  if (!Array.isArray(raw)) {
    return { kind: "error", message: "Not a Claude export: expected conversations.json (a list of conversations)." };
  }
  const sessions: ExportedSession[] = [];
  for (const [i, item] of raw.entries()) {
    const parsed = conversationSchema.safeParse(item);
    if (!parsed.success) {
      const rawName = item !== null && typeof item === "object" ? (item as { name?: unknown }).name : undefined;
      const name = typeof rawName === "string" && rawName !== "" ? ` ("${rawName}")` : "";
      const issue = parsed.error.issues[0];
      const path = issue?.path.map(String).join(".") ?? "";
      return {
        kind: "error",
        message: `Claude conversation ${i + 1}${name}: invalid at ${path || "(top level)"}: ${issue?.message ?? "invalid"}.`,
      };
    }
    const conv = parsed.data;
    const title = conv.name?.trim() || "Imported Claude conversation";
    const sessionId = makeSessionId();
    const convCreated = toMs(conv.created_at);
    const entries: Entry[] = [];
    let parentId: EntryId | null = null;
    let lastCreated = convCreated ?? now();
    for (const msg of conv.chat_messages) {
      const text = messageText(msg);
      if (text === "") continue;
      const id = makeEntryId();
      // Never earlier than the message before it: the chat's order is the list's order.
      const createdAt = Math.max(toMs(msg.created_at) ?? lastCreated, lastCreated);
      const entry: MessageEntry = {
        type: "message",
        id,
        sessionId,
        parentId,
        createdAt,
        role: msg.sender === "human" ? "user" : "assistant",
        content: [{ type: "text", text }],
        status: "complete",
      };
      entries.push(entry);
      parentId = id;
      lastCreated = createdAt;
    }
    const createdAt = convCreated ?? entries[0]?.createdAt ?? now();
    const session: Session = {
      id: sessionId,
      title,
      titleSource: "user",
      createdAt,
      updatedAt: toMs(conv.updated_at) ?? lastCreated,
      leafId: parentId,
      importedFrom: `claude:${conv.uuid}`,
    };
    sessions.push({ session, entries, labels: {} });
  }
  const problem = checkSessionGraph(sessions);
  if (problem) return { kind: "error", message: `Claude import produced an invalid session: ${problem}` };
  return { kind: "ok", sessions };
}
