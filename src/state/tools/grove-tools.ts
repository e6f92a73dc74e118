/**
 * Grove's own tools run in this browser (issue 28 item 3): "Search my chats" asks the search worker
 * (the same index as the sidebar's "Search chats"), "Read a chat" reads a chat's current branch from
 * the database. What they return is the tool result the model sees (core/agent/grove-tools.ts); the
 * chat the loop runs in is left out of the search (the model has it already). Read-only: no approval.
 */
import { type ChatHit, chatHitsText, chatTranscriptText } from "../../core/agent/grove-tools";
import type { ToolOutcome } from "../../core/agent/types";
import type { GroveToolKind } from "../../core/session/chat-tools";
import type { ToolCallBlock } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { getSessionPath } from "../../db/entries";
import { searchChats } from "../search/search";

const error = (text: string): ToolOutcome => ({ text, isError: true });

async function search(query: string, from: SessionId): Promise<ToolOutcome> {
  // A query typed in the sidebar meanwhile makes this answer moot (null): asked once more.
  const answer = (await searchChats(query)) ?? (await searchChats(query));
  if (!answer) return error("The search was interrupted. Try again.");
  if (answer.failed) return error(`The search could not run: ${answer.failed}`);
  const hits: ChatHit[] = answer.results
    .filter((r) => r.sessionId !== from)
    .map((r) => ({
      chatId: r.sessionId,
      title: r.title,
      at: r.at,
      ...(r.role ? { role: r.role } : {}),
      snippet: r.snippet.map((p) => p.text).join(""),
    }));
  return { text: chatHitsText(query, hits), isError: false };
}

async function read(chatId: string, from: SessionId): Promise<ToolOutcome> {
  if (chatId === from) return error("That is this chat: you have it already.");
  const read = await getSessionPath(chatId as SessionId);
  if (!read) return error(`There is no chat with the id "${chatId}".`);
  return { text: chatTranscriptText(read.session.title, read.path), isError: false };
}

/** Runs one of Grove's own tools for a call made in the chat `from`. */
export async function runGroveTool(kind: GroveToolKind, call: ToolCallBlock, from: SessionId): Promise<ToolOutcome> {
  const args = (call.args ?? {}) as Record<string, unknown>;
  if (kind === "search_my_chats") {
    const query = typeof args.query === "string" ? args.query.trim() : "";
    return query === "" ? error('search_my_chats needs a "query".') : search(query, from);
  }
  const chatId = typeof args.chat_id === "string" ? args.chat_id.trim() : "";
  return chatId === "" ? error('read_chat needs a "chat_id".') : read(chatId, from);
}
