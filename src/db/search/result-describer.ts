/**
 * What a search result shows (search-types.ts): for each hit, its chat's title and, for an entry,
 * when it was written, what kind it is and a snippet of its text around the words found. Hits in
 * a chat deleted since it was indexed are left out.
 *
 * What results show of an entry is kept for the next queries: typing a word asks for nearly the
 * same best hits at every letter, and reading 50 entries was as slow as ranking 100,000 (one
 * IndexedDB get each). Entries never change, and a deleted chat's are caught by the sessions read.
 */
import type { IndexHit } from "../../core/search/chat-index";
import { buildSnippet } from "../../core/search/snippet";
import type { Entry, Session } from "../../core/session/entries";
import { entryText } from "../../core/session/entry-text";
import type { EntryId, SessionId } from "../../core/session/ids";
import { getDb } from "../schema";
import type { ChatSearchResult } from "./search-types";

/** Entries whose text is kept for results (about 1 KB each): ten queries' worth. */
const SHOWN_KEPT = 500;

/** What a result shows of an entry. */
export type Shown = { text: string; at: number; kind: Entry["type"]; role?: "user" | "assistant" | "tool" };

export function shownOf(e: Entry): Shown {
  return { text: entryText(e), at: e.createdAt, kind: e.type, ...(e.type === "message" ? { role: e.role } : {}) };
}

/**
 * The results for `hits`, best first, from their chats (`sessions`) and what their entries show
 * (`shown`). Pure.
 */
export function describeHits(
  hits: readonly IndexHit[],
  sessions: ReadonlyMap<SessionId, Pick<Session, "id" | "title" | "updatedAt">>,
  shown: ReadonlyMap<EntryId, Shown>,
): ChatSearchResult[] {
  const out: ChatSearchResult[] = [];
  for (const hit of hits) {
    const session = sessions.get(hit.sessionId);
    if (!session) continue; // deleted since it was indexed
    if (hit.entryId === null) {
      out.push({
        sessionId: session.id,
        entryId: null,
        title: session.title,
        at: session.updatedAt,
        kind: "title",
        snippet: buildSnippet(session.title, hit.terms),
      });
      continue;
    }
    const entry = shown.get(hit.entryId);
    if (!entry) continue;
    out.push({
      sessionId: session.id,
      entryId: hit.entryId,
      title: session.title,
      at: entry.at,
      kind: entry.kind,
      ...(entry.role ? { role: entry.role } : {}),
      snippet: buildSnippet(entry.text, hit.terms),
    });
  }
  return out;
}

/** Describes hits, reading what the database has and keeping what entries show (the last SHOWN_KEPT used). */
export function createDescriber(): (hits: readonly IndexHit[]) => Promise<ChatSearchResult[]> {
  // Map order is the order of last use: a kept entry used again is re-inserted.
  const kept = new Map<EntryId, Shown>();
  const shownFor = async (ids: readonly EntryId[]): Promise<Map<EntryId, Shown>> => {
    const out = new Map<EntryId, Shown>();
    const missing: EntryId[] = [];
    for (const id of ids) {
      const s = kept.get(id);
      if (!s) {
        missing.push(id);
        continue;
      }
      out.set(id, s);
      kept.delete(id);
      kept.set(id, s);
    }
    if (missing.length === 0) return out;
    for (const e of await getDb().entries.bulkGet(missing)) {
      if (!e) continue;
      const s = shownOf(e);
      out.set(e.id, s);
      kept.set(e.id, s);
    }
    for (const id of kept.keys()) {
      if (kept.size <= SHOWN_KEPT) break;
      kept.delete(id);
    }
    return out;
  };

  return async (hits) => {
    const ids = hits.flatMap((h) => (h.entryId ? [h.entryId] : []));
    // Both reads at once: two round trips to IndexedDB cost twice one.
    const [shown, sessionRows] = await Promise.all([
      shownFor(ids),
      getDb().sessions.bulkGet([...new Set(hits.map((h) => h.sessionId))]),
    ]);
    const sessions = new Map(sessionRows.flatMap((s) => (s ? [[s.id, s]] : [])));
    return describeHits(hits, sessions, shown);
  };
}
