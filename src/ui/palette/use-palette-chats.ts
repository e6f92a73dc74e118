import { useEffect, useState } from "react";
import type { SessionId } from "../../core/session/ids";
import type { ChatSearchResult } from "../../db/search/search-types";
import { openSearchResult, searchChats } from "../../state/search/search";

/** A chat the palette offers: its title, where the words were found, and what opening it does. */
export type PaletteChat = {
  readonly id: string;
  readonly label: string;
  readonly hint: string;
  readonly run: () => void;
};

/** At most this many chats under "Chats": the palette finds, the sessions list browses. */
const MAX_CHATS = 6;

/** One option per chat (its best hit first): a title match opens the chat, a message match shows the message. */
export function chatsFrom(results: readonly ChatSearchResult[]): PaletteChat[] {
  const seen = new Set<SessionId>();
  const chats: PaletteChat[] = [];
  for (const r of results) {
    if (seen.has(r.sessionId)) continue;
    seen.add(r.sessionId);
    const snippet = r.snippet
      .map((p) => p.text)
      .join("")
      .trim();
    chats.push({
      id: `chat-${r.sessionId}`,
      label: r.title || "Untitled chat",
      hint: r.entryId === null ? "Found in the title" : snippet,
      run: () => void openSearchResult(r.sessionId, r.entryId),
    });
    if (chats.length === MAX_CHATS) break;
  }
  return chats;
}

/**
 * The chats whose title or messages hold what was typed (the search worker of "Search chats"); an
 * empty list until a query is typed, and the previous answer while a new one runs (no flicker).
 */
export function usePaletteChats(query: string, active: boolean): PaletteChat[] {
  const [chats, setChats] = useState<PaletteChat[]>([]);
  const q = active ? query.trim() : "";
  useEffect(() => {
    if (q.length < 2) {
      setChats([]);
      return;
    }
    let current = true;
    searchChats(q)
      .then((answer) => {
        if (current) setChats(answer && !answer.failed ? chatsFrom(answer.results) : []);
      })
      .catch(() => current && setChats([]));
    return () => {
      current = false;
    };
  }, [q]);
  return chats;
}
