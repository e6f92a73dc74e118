/**
 * "Search chats": queries go to the search worker (db/search); choosing a result opens its chat on
 * the branch that holds the entry and asks the chat to scroll it into view.
 */
import type { EntryId, SessionId } from "../../core/session/ids";
import { buildTreeIndex, deepestLeafFrom, pathToRoot } from "../../core/session/tree";
import { getEntries, moveLeaf } from "../../db/entries";
import type { ChatSearchAnswer } from "../../db/search/search-types";
import { getSession } from "../../db/sessions";
import { reportActionError } from "../app/report-error";
import { useUiStore } from "../app/ui-store";
import { openSession } from "../sessions/sessions";

// The search client (and comlink) is fetched at boot, off the entry chunk.

export function startChatSearch(): void {
  void import("../../db/search/client").then((c) => c.startChatSearch()).catch(() => {}); // the first query tries again
}

/** Holds the search worker's background indexing, or lets it go on (hold-while-sending.ts). */
export function holdSearchIndexing(held: boolean): void {
  void import("../../db/search/client").then((c) => c.holdIndexing(held)).catch(() => {});
}

export async function searchChats(query: string): Promise<ChatSearchAnswer | null> {
  const { searchChats } = await import("../../db/search/client");
  return searchChats(query);
}

/**
 * Opens `sessionId` showing `entryId` (null: a title match, the chat as it is). An entry off the
 * active path is shown the way "switch versions" does it: the leaf moves to the newest leaf below
 * the entry (nothing is written but the leaf; the branch left stays in the tree). The leaf moves
 * before the chat opens, so it opens on the right branch instead of flashing the old one.
 */
export async function openSearchResult(sessionId: SessionId, entryId: EntryId | null): Promise<void> {
  try {
    if (entryId !== null) {
      const [session, entries] = await Promise.all([getSession(sessionId), getEntries(sessionId)]);
      const index = buildTreeIndex(entries);
      if (session && index.byId.has(entryId)) {
        const onPath = session.leafId !== null && pathToRoot(index, session.leafId).some((e) => e.id === entryId);
        if (!onPath) await moveLeaf(sessionId, deepestLeafFrom(index, entryId));
      }
    }
  } catch (e) {
    reportActionError("Could not open the search result on its branch", e);
  }
  openSession(sessionId);
  // The same request the history graph makes (ui/graph/use-scroll-to-entry.ts acts on it).
  if (entryId !== null) useUiStore.setState((s) => ({ scrollTo: { entryId, nonce: (s.scrollTo?.nonce ?? 0) + 1 } }));
}
