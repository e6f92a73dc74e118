/**
 * Import of a LibreChat conversation export (the chat menu's "Export" as JSON): one object
 * `{conversationId, title, endpoint, options, branches, recursive, messages}`. Messages link by
 * `parentMessageId` (the root's parent is the all-zero id); with `recursive` they are nested
 * in `children` instead of listed flat. Exported without branches, it is one line; with them, a
 * tree, opened on its newest leaf (the export does not say which branch was on screen).
 *
 * A message is `text`, or (agents, newer versions) `content` parts: `text`, `think` (a thinking
 * block) and `tool_call` (a tool call and its output). `sender` / `model` name the model; the
 * preset's `promptPrefix` is the chat's system prompt. Pure: JSON in, sessions out.
 */
import type { Block, Entry, MessageEntry, Session } from "../session/entries";
import { type EntryId, newEntryId, newSessionId, type SessionId } from "../session/ids";
import { checkSessionGraph, type ImportResult } from "./grove-json";
import { asRecord, childrenByParent, dateMs, newestLeaf, str, type TreeNode, walkTree } from "./message-tree";
import { recordTitle, SKIP_REASON, type SkippedRecord } from "./skipped";

export type LibreChatImportOptions = {
  newSessionId?: () => SessionId;
  newEntryId?: () => EntryId;
  now?: () => number;
};

const NO_PARENT = "00000000-0000-0000-0000-000000000000";

/** A LibreChat export: an object with a `conversationId` and a `messages` list. */
export function isLibreChatShaped(raw: unknown): boolean {
  const o = asRecord(raw);
  return o !== undefined && typeof o.conversationId === "string" && Array.isArray(o.messages);
}

type Flat = { key: string; parent: string | null; value: Record<string, unknown> };

/** Every message with its parent, nested `children` flattened (iteratively: a long chat is deep). */
function flatten(messages: readonly unknown[]): Flat[] {
  const out: Flat[] = [];
  const stack: { raw: unknown; parent: string | null }[] = [];
  for (let i = messages.length - 1; i >= 0; i--) stack.push({ raw: messages[i], parent: null });
  let n = 0;
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const value = asRecord(item.raw);
    if (!value) continue;
    const key = str(value.messageId) ?? `#${n++}`;
    const named = str(value.parentMessageId);
    const parent = named && named !== NO_PARENT ? named : item.parent;
    out.push({ key, parent, value });
    const kids = Array.isArray(value.children) ? value.children : [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ raw: kids[i], parent: key });
  }
  return out;
}

function contentOf(m: Record<string, unknown>): Block[] {
  const parts = Array.isArray(m.content) ? m.content : [];
  const out: Block[] = [];
  for (const raw of parts) {
    const p = asRecord(raw);
    switch (str(p?.type)) {
      case "text": {
        // `text` is a string, or `{ value }` in the Assistants API shape.
        const text = str(p?.text) ?? str(asRecord(p?.text)?.value) ?? "";
        if (text.trim() !== "") out.push({ type: "text", text });
        break;
      }
      case "think": {
        const text = str(p?.think) ?? "";
        if (text.trim() !== "") out.push({ type: "thinking", text });
        break;
      }
      case "tool_call": {
        const call = asRecord(p?.tool_call);
        if (!call) break;
        const id = str(call.id) ?? `call-${out.length}`;
        out.push({ type: "tool_call", id, name: str(call.name) ?? "tool", args: parsedArgs(call.args) });
        const output = str(call.output);
        if (output !== undefined && output !== "") {
          out.push({ type: "tool_result", callId: id, toolName: str(call.name), text: output, isError: false });
        }
        break;
      }
      default:
        break;
    }
  }
  if (out.length > 0) return out;
  const text = str(m.text) ?? "";
  return text.trim() === "" ? [] : [{ type: "text", text }];
}

function parsedArgs(args: unknown): unknown {
  if (typeof args !== "string") return args ?? {};
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return { input: args };
  }
}

export function parseLibreChatValue(raw: unknown, options: LibreChatImportOptions = {}): ImportResult {
  const conv = asRecord(raw);
  if (!conv || !isLibreChatShaped(conv)) {
    return { kind: "error", message: "Not a LibreChat export: expected an object with conversationId and messages." };
  }
  const makeEntryId = options.newEntryId ?? newEntryId;
  const now = options.now ?? Date.now;
  const title = recordTitle(conv.title, 0);
  const skipped: SkippedRecord[] = [];
  const flat = flatten(conv.messages as unknown[]);
  const byKey = new Map(flat.map((f) => [f.key, f]));
  const nodes: TreeNode[] = flat.map((f) => ({ key: f.key, parent: f.parent }));
  const sessionId = (options.newSessionId ?? newSessionId)();
  const entries: Entry[] = [];
  const createdOf = new Map<EntryId, number>();
  const unreached = walkTree<EntryId | null>(childrenByParent(nodes), null, (key, parent) => {
    const m = byKey.get(key)?.value;
    const content = m ? contentOf(m) : [];
    const failed = m?.error === true;
    if (!m || (content.length === 0 && !failed)) return parent;
    const role = m.isCreatedByUser === true ? "user" : "assistant";
    const id = makeEntryId();
    const createdAt = dateMs(m.createdAt) ?? (parent ? createdOf.get(parent) : undefined) ?? now();
    const model = role === "assistant" ? (str(m.model) ?? str(m.sender)) : undefined;
    const entry: MessageEntry = {
      type: "message",
      id,
      sessionId,
      parentId: parent,
      createdAt,
      role,
      // A failed reply's text is the error LibreChat showed, not words of the model.
      content: failed ? [] : content,
      status: failed ? "error" : m.unfinished === true ? "interrupted" : "complete",
      ...(failed ? { error: { kind: "unknown", message: str(m.text) ?? "The reply failed." } } : {}),
      ...(model ? { model } : {}),
    };
    entries.push(entry);
    createdOf.set(id, createdAt);
    return id;
  });
  if (unreached.length > 0 || entries.length === 0) {
    skipped.push({ title, reason: unreached.length > 0 ? SKIP_REASON.loops : SKIP_REASON.noMessages });
    return { kind: "ok", sessions: [], skipped };
  }
  const options_ = asRecord(conv.options);
  const systemPrompt = str(options_?.promptPrefix)?.trim();
  const createdAt = dateMs(conv.createdAt) ?? entries[0]?.createdAt ?? now();
  let last = createdAt;
  for (const e of entries) if (e.createdAt > last) last = e.createdAt;
  const session: Session = {
    id: sessionId,
    title: str(conv.title)?.trim() || "Imported LibreChat conversation",
    titleSource: "user",
    createdAt,
    updatedAt: dateMs(conv.updatedAt) ?? last,
    leafId: newestLeaf(entries),
    importedFrom: `librechat:${str(conv.conversationId)}`,
    ...(systemPrompt ? { systemPrompt } : {}),
  };
  const sessions = [{ session, entries, labels: {} }];
  const problem = checkSessionGraph(sessions);
  if (problem) return { kind: "error", message: `LibreChat import produced an invalid session: ${problem}` };
  return { kind: "ok", sessions, skipped };
}
