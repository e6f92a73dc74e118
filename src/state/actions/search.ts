/**
 * "Search chats": queries go to the search worker (db/search); choosing a result opens its chat on
 * the branch that holds the entry and asks the chat to scroll it into view.
 */
import type { EntryId, SessionId } from "../../core/session/ids";
import { buildTreeIndex, deepestLeafFrom, pathToRoot } from "../../core/session/tree";
import { getEntries, moveLeaf } from "../../db/entries";
import type { ChatSearchAnswer } from "../../db/search/client";
import { getSession } from "../../db/sessions";
import { useMaintenanceStore, useStreamStore, useUiStore } from "../stores";
import { reportActionError } from "./report-error";
import { openSession } from "./sessions";

export type { ChatSearchAnswer, ChatSearchResult, SearchResultKind, SnippetPart } from "../../db/search/client";

/** The search client (and comlink) is fetched at boot, off the entry chunk. */
const client = () => import("../../db/search/client");

export function startChatSearch(): void {
  void client()
    .then((c) => c.startChatSearch())
    .catch(() => {}); // the first query tries again
}

/** A message is being stored or answered in some chat (not a reply kept on screen unsaved). */
function sending(): boolean {
  if (Object.keys(useMaintenanceStore.getState().busy).length > 0) return true;
  return Object.values(useStreamStore.getState().replies).some((r) => r !== undefined && r.phase !== "unsaved");
}

/**
 * Holds the search worker's background indexing while a message is sent and answered, from the
 * Enter to the reply's end: indexing a big chat (after an import, or a tab that never stayed open
 * long enough to save the index) read the database in batches beside the send, and the first token
 * of a reply in a 20,000-entry chat came twice as late as in a small one. Returns the stop function.
 */
export function holdSearchWhileSending(): () => void {
  let held = false;
  const update = () => {
    const now = sending();
    if (now === held) return;
    held = now;
    void client()
      .then((c) => c.holdIndexing(now))
      .catch(() => {});
  };
  const stopMaintenance = useMaintenanceStore.subscribe(update);
  const stopStream = useStreamStore.subscribe(update);
  return () => {
    stopMaintenance();
    stopStream();
  };
}

export async function searchChats(query: string): Promise<ChatSearchAnswer | null> {
  return (await client()).searchChats(query);
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
