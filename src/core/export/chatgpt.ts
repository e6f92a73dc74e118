/**
 * Import of a ChatGPT data export (`conversations.json`, or its split `conversations-000.json…`
 * files): each conversation's `mapping` tree becomes one Grove session with every branch.
 * A conversation that cannot be read (a stub with no `mapping`, one with no message) is skipped
 * with its title and the reason; the others are imported.
 *
 * Reasoning never becomes a message: `thoughts` nodes gather into a thinking block on the next
 * assistant message below them (the reply or tool call they led to), labelled by the
 * `reasoning_recap` ("Thought for 16s"); empty thoughts vanish. Hidden nodes (system prompts,
 * custom instructions, memory) are passed over: their children hang on the nearest shown
 * ancestor. Node contents: chatgpt-content.ts. Pure: JSON in, sessions out.
 */
import type { Block, Entry, MessageEntry, Session } from "../session/entries";
import { type EntryId, newEntryId, newSessionId, type SessionId } from "../session/ids";
import {
  type ChatGptAssets,
  type ChatGptMessage,
  classifyNode,
  modelOf,
  readMessage,
  statusOf,
  stopReasonOf,
} from "./chatgpt-content";
import { checkSessionGraph, type ExportedSession, type ImportResult, parseJsonText } from "./grove-json";
import { asRecord, childrenByParent, epochMs, newestLeaf, str, type TreeNode, walkTree } from "./message-tree";
import { recordTitle, SKIP_REASON, type SkippedRecord } from "./skipped";

export type ChatGptImportOptions = {
  /** Id factories; tests pass deterministic ones. */
  newSessionId?: () => SessionId;
  newEntryId?: () => EntryId;
  /** Used when a conversation has no timestamps at all. */
  now?: () => number;
  /** The export .zip's images and files, stored already (db/transfer); absent for a bare conversations.json. */
  assets?: ChatGptAssets;
};

type Options = Required<Omit<ChatGptImportOptions, "assets">> & { assets: ChatGptAssets | undefined };

/** Reasoning seen on the way down a branch, waiting for the assistant message it belongs to. */
type Thinking = { readonly text: string; readonly label: string };

/** What each node hands its children; `call`: the last tool call on the branch, which a tool's result answers. */
type Carry = { readonly parent: EntryId | null; readonly thinking: Thinking | null; readonly call: string | null };

type Converted = { ok: true; value: ExportedSession } | { ok: false; reason: string };

function convertConversation(conv: Record<string, unknown>, opts: Options, title: string): Converted {
  const mapping = asRecord(conv.mapping);
  if (!mapping) return { ok: false, reason: SKIP_REASON.noMessages };
  const keys = Object.keys(mapping);
  const nodes: TreeNode[] = [];
  for (const key of keys) nodes.push({ key, parent: str(asRecord(mapping[key])?.parent) ?? null });
  const children = childrenByParent(nodes, (key) => {
    const list = asRecord(mapping[key])?.children;
    return Array.isArray(list) ? list.filter((c): c is string => typeof c === "string") : undefined;
  });

  const sessionId = opts.newSessionId();
  const convCreated = epochMs(conv.create_time);
  const entries: Entry[] = [];
  const createdOf = new Map<EntryId, number>();
  /** Node key -> the entry it became, or its nearest kept ancestor's (null = root). */
  const keptAs = new Map<string, EntryId | null>();
  let messagesSeen = 0;

  const append = (
    m: ChatGptMessage | undefined,
    parent: EntryId | null,
    role: MessageEntry["role"],
    content: Block[],
  ): EntryId => {
    const id = opts.newEntryId();
    const createdAt = m?.createdAt ?? (parent ? createdOf.get(parent) : undefined) ?? convCreated ?? opts.now();
    const model = m && role === "assistant" ? modelOf(m) : undefined;
    const stopReason = m && role === "assistant" ? stopReasonOf(m) : undefined;
    const entry: MessageEntry = {
      type: "message",
      id,
      sessionId,
      parentId: parent,
      createdAt,
      role,
      content,
      status: m ? statusOf(m) : "interrupted",
      ...(model ? { model } : {}),
      ...(stopReason ? { stopReason } : {}),
    };
    entries.push(entry);
    createdOf.set(id, createdAt);
    return id;
  };

  const unreached = walkTree<Carry>(children, { parent: null, thinking: null, call: null }, (key, carry, isLeaf) => {
    const m = readMessage(asRecord(mapping[key])?.message, key);
    if (m) messagesSeen++;
    const node = classifyNode(m, opts.assets);
    let next: Carry = carry;
    switch (node.kind) {
      case "pass":
        keptAs.set(key, carry.parent);
        break;
      case "thoughts": {
        const text = [carry.thinking?.text ?? "", node.text].filter((t) => t.trim() !== "").join("\n\n");
        next = { ...carry, thinking: { text, label: carry.thinking?.label ?? "" } };
        keptAs.set(key, carry.parent);
        break;
      }
      case "recap":
        next = { ...carry, thinking: { text: carry.thinking?.text ?? "", label: node.label } };
        keptAs.set(key, carry.parent);
        break;
      case "message": {
        // Thinking goes on the assistant message it led to (across tool calls and results); one
        // that led to nothing before the user spoke again stands alone, an unfinished reply.
        const thinking = thinkingBlock(carry.thinking);
        let parent = carry.parent;
        if (thinking && node.role === "user") parent = append(undefined, parent, "assistant", [thinking]);
        let content = thinking && node.role === "assistant" ? [thinking, ...node.content] : node.content;
        if (node.role === "tool" && carry.call !== null) content = answering(content, carry.call);
        const id = append(m, parent, node.role, content);
        keptAs.set(key, id);
        const call = node.content.find((b) => b.type === "tool_call");
        next = {
          parent: id,
          thinking: node.role === "tool" ? carry.thinking : null,
          call: call?.type === "tool_call" ? call.id : node.role === "user" ? null : carry.call,
        };
        break;
      }
    }
    // A branch that ends in reasoning (stopped while thinking): the reasoning is the reply, unfinished.
    if (isLeaf && node.kind !== "message") {
      const thinking = thinkingBlock(next.thinking);
      if (thinking) keptAs.set(key, append(m, next.parent, "assistant", [thinking]));
    }
    return next;
  });
  if (unreached.some((k) => asRecord(mapping[k])?.message)) return { ok: false, reason: SKIP_REASON.loops };
  if (messagesSeen === 0 || entries.length === 0) return { ok: false, reason: SKIP_REASON.noMessages };

  const current = str(conv.current_node);
  const leafId = current !== undefined && keptAs.has(current) ? (keptAs.get(current) ?? null) : newestLeaf(entries);
  const createdAt = convCreated ?? entries[0]?.createdAt ?? opts.now();
  let lastEntry = createdAt;
  for (const e of entries) if (e.createdAt > lastEntry) lastEntry = e.createdAt;
  const sourceId = str(conv.conversation_id) ?? str(conv.id);
  const session: Session = {
    id: sessionId,
    title,
    titleSource: "user",
    createdAt,
    updatedAt: epochMs(conv.update_time) ?? lastEntry,
    leafId,
    ...(sourceId ? { importedFrom: `chatgpt:${sourceId}` } : {}),
  };
  return { ok: true, value: { session, entries, labels: {} } };
}

/** A tool's results, linked to the call they answer. */
const answering = (content: Block[], callId: string): Block[] =>
  content.map((b) => (b.type === "tool_result" ? { ...b, callId } : b));

/** The gathered reasoning as a block; none when it has no words (a recap alone folds nothing). */
function thinkingBlock(t: Thinking | null): Block | null {
  if (!t || t.text.trim() === "") return null;
  return { type: "thinking", text: t.text, ...(t.label !== "" ? { label: t.label } : {}) };
}

export function parseChatGptExport(text: string, options: ChatGptImportOptions = {}): ImportResult {
  const json = parseJsonText(text, "ChatGPT export");
  return json.ok ? parseChatGptValue(json.value, options) : { kind: "error", message: json.message };
}

/** The same conversion as parseChatGptExport, on JSON already parsed. */
export function parseChatGptValue(raw: unknown, options: ChatGptImportOptions = {}): ImportResult {
  const opts: Options = {
    newSessionId: options.newSessionId ?? newSessionId,
    newEntryId: options.newEntryId ?? newEntryId,
    now: options.now ?? Date.now,
    assets: options.assets,
  };
  const list: unknown[] | null = Array.isArray(raw) ? raw : asRecord(raw) ? [raw] : null;
  if (!list) {
    return {
      kind: "error",
      message: "Not a ChatGPT export: expected conversations.json (a list of conversations, or one conversation).",
    };
  }
  const sessions: ExportedSession[] = [];
  const skipped: SkippedRecord[] = [];
  for (const [i, item] of list.entries()) {
    const conv = asRecord(item);
    const title = recordTitle(conv?.title, i);
    if (!conv) {
      skipped.push({ title, reason: SKIP_REASON.notAConversation });
      continue;
    }
    const converted = convertConversation(conv, opts, str(conv.title)?.trim() || "Imported ChatGPT conversation");
    if (converted.ok) sessions.push(converted.value);
    else skipped.push({ title, reason: converted.reason });
  }
  const problem = checkSessionGraph(sessions);
  if (problem) return { kind: "error", message: `ChatGPT import produced an invalid session: ${problem}` };
  return { kind: "ok", sessions, skipped };
}
