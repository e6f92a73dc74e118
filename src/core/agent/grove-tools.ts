/**
 * Grove's own tools (issue 28 item 3): "Search my chats" and "Read a chat", so the model can recall
 * other conversations in this browser. Their definitions, and the text the model is shown of what
 * they found — the only part of the user's other chats that leaves the browser, and only when the
 * model asks. Pure: the state layer runs the search and reads the chat (state/tools/grove-tools.ts).
 */
import type { GroveToolKind } from "../session/chat-tools";
import type { Entry } from "../session/entries";
import type { FunctionToolSpec } from "./tool-spec";

export const GROVE_TOOL_SPECS: Readonly<Record<GroveToolKind, FunctionToolSpec>> = {
  search_my_chats: {
    kind: "function",
    name: "search_my_chats",
    description:
      "Search the user's other chats in this app by words. Returns matching chats with their id, title, date and a snippet. Use read_chat with an id to read one.",
    parameters: {
      type: "object",
      properties: { query: { type: "string", description: "Words to look for" } },
      required: ["query"],
    },
  },
  read_chat: {
    kind: "function",
    name: "read_chat",
    description: "Read one of the user's chats (its current branch) by the id search_my_chats gave.",
    parameters: {
      type: "object",
      properties: { chat_id: { type: "string", description: "The chat's id from search_my_chats" } },
      required: ["chat_id"],
    },
  },
};

/** The tool kind a call's name is, when it is one of Grove's own. */
export function groveToolOf(name: string): GroveToolKind | null {
  return name === "search_my_chats" || name === "read_chat" ? name : null;
}

/** One search hit as the model is shown it. */
export type ChatHit = {
  readonly chatId: string;
  readonly title: string;
  readonly at: number;
  readonly role?: string;
  readonly snippet: string;
};

/** Most hits one search shows the model. */
export const SEARCH_TOOL_MAX_HITS = 10;

const day = (at: number): string => new Date(at).toISOString().slice(0, 10);

/** The search's answer as text: one hit a line, with the id `read_chat` takes. */
export function chatHitsText(query: string, hits: readonly ChatHit[]): string {
  if (hits.length === 0) return `No chat matches "${query}".`;
  const lines = hits
    .slice(0, SEARCH_TOOL_MAX_HITS)
    .map(
      (h) =>
        `- chat_id ${h.chatId} · "${h.title}" · ${day(h.at)}${h.role ? ` · ${h.role}` : ""}: ${h.snippet.replace(/\s+/g, " ").trim()}`,
    );
  return [`Chats matching "${query}":`, ...lines].join("\n");
}

/** A chat's branch as text for the model: its title and each message's text, in order (tool work summarized by name). */
export function chatTranscriptText(title: string, path: readonly Entry[]): string {
  const lines = [`Chat "${title}":`];
  for (const e of path) {
    if (e.type === "compaction") lines.push(`[earlier messages summarized]\n${e.summary}`);
    if (e.type !== "message") continue;
    const text = e.content
      .map((b) =>
        b.type === "text"
          ? b.text
          : b.type === "tool_call"
            ? `[called ${b.name}]`
            : b.type === "tool_result"
              ? b.text
              : "",
      )
      .filter((t) => t !== "")
      .join("\n");
    if (text !== "") lines.push(`${e.role}: ${text}`);
  }
  return lines.join("\n\n");
}
