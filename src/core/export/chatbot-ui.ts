/**
 * Import of a chatbot-ui export (mckaywrigley/chatbot-ui, "Export data"): `{version, history,
 * folders, prompts}` (versions 2-4; version 1 was the bare `history` list). Each conversation is
 * `{id, name, messages: [{role, content}], model: {id, name}, prompt, temperature, folderId}`: one
 * line, no timestamps. The name is the title, the model's id is each reply's model, `prompt` the
 * system prompt. Pure: JSON in, sessions out.
 */
import type { Entry, MessageEntry, Session } from "../session/entries";
import { type EntryId, newEntryId, newSessionId, type SessionId } from "../session/ids";
import { checkSessionGraph, type ExportedSession, type ImportResult } from "./grove-json";
import { asRecord, str } from "./message-tree";
import { recordTitle, SKIP_REASON, type SkippedRecord } from "./skipped";

export type ChatbotUiImportOptions = {
  newSessionId?: () => SessionId;
  newEntryId?: () => EntryId;
  now?: () => number;
};

/** A chatbot-ui conversation: a `name` and `messages` of `{role, content}`, and no other app's fields. */
function isConversation(item: unknown): boolean {
  const o = asRecord(item);
  return o !== undefined && Array.isArray(o.messages) && "name" in o && !("mapping" in o) && !("chat" in o);
}

/** `{history, folders}` (with a `version` from 3 on), or version 1's bare list of conversations. */
export function isChatbotUiShaped(raw: unknown): boolean {
  const o = asRecord(raw);
  if (o) return Array.isArray(o.history) && (typeof o.version === "number" || Array.isArray(o.folders));
  return Array.isArray(raw) && raw.some(isConversation) && raw.every((item) => !asRecord(item) || isConversation(item));
}

export function parseChatbotUiValue(raw: unknown, options: ChatbotUiImportOptions = {}): ImportResult {
  const makeSessionId = options.newSessionId ?? newSessionId;
  const makeEntryId = options.newEntryId ?? newEntryId;
  const now = options.now ?? Date.now;
  const history = Array.isArray(raw) ? raw : asRecord(raw)?.history;
  if (!Array.isArray(history)) {
    return { kind: "error", message: "Not a chatbot-ui export: expected its history of conversations." };
  }
  const sessions: ExportedSession[] = [];
  const skipped: SkippedRecord[] = [];
  // No timestamps in the file: the chats get the import's time, a millisecond apart, in file order.
  let clock = now() - history.length;
  for (const [i, item] of history.entries()) {
    const conv = asRecord(item);
    const title = recordTitle(conv?.name, i);
    if (!conv || !Array.isArray(conv.messages)) {
      skipped.push({ title, reason: conv ? SKIP_REASON.noMessages : SKIP_REASON.notAConversation });
      continue;
    }
    const sessionId = makeSessionId();
    const model = str(asRecord(conv.model)?.id) ?? str(asRecord(conv.model)?.name);
    const createdAt = ++clock;
    const entries: Entry[] = [];
    let parentId: EntryId | null = null;
    for (const rawMessage of conv.messages) {
      const m = asRecord(rawMessage);
      const role = str(m?.role);
      const text = str(m?.content) ?? "";
      if ((role !== "user" && role !== "assistant") || text.trim() === "") continue;
      const id = makeEntryId();
      const entry: MessageEntry = {
        type: "message",
        id,
        sessionId,
        parentId,
        createdAt,
        role,
        content: [{ type: "text", text }],
        status: "complete",
        ...(role === "assistant" && model ? { model } : {}),
      };
      entries.push(entry);
      parentId = id;
    }
    if (entries.length === 0) {
      skipped.push({ title, reason: SKIP_REASON.noMessages });
      continue;
    }
    const prompt = str(conv.prompt)?.trim();
    const sourceId = str(conv.id);
    const session: Session = {
      id: sessionId,
      title: str(conv.name)?.trim() || "Imported chatbot-ui conversation",
      titleSource: "user",
      createdAt,
      updatedAt: createdAt,
      leafId: parentId,
      ...(prompt ? { systemPrompt: prompt } : {}),
      ...(sourceId ? { importedFrom: `chatbot-ui:${sourceId}` } : {}),
    };
    sessions.push({ session, entries, labels: {} });
  }
  const problem = checkSessionGraph(sessions);
  if (problem) return { kind: "error", message: `chatbot-ui import produced an invalid session: ${problem}` };
  return { kind: "ok", sessions, skipped };
}
