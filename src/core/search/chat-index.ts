/**
 * The chat search index (issue 11): every message, compaction, branch summary and handoff of every
 * chat, plus each chat's title, in one MiniSearch index (BM25 ranking, prefix and fuzzy matching),
 * with the words cut by tokenize.ts. Beside the index it keeps, per chat, what it holds (the
 * chat's `updatedAt` and title when indexed, and its entry ids), so a sync can tell what is new and
 * a deleted chat can be taken out without reading its entries.
 *
 * The text indexed is `entryText` (core/session/entry-text.ts), the one definition of an entry's
 * words that "Copy text" and the graph search use too. Pure: the caller (db/search) reads the
 * database and persists `serialize()`.
 */
import MiniSearch, { type SearchOptions, type SearchResult } from "minisearch";
import type { Entry, Session } from "../session/entries";
import { entryText } from "../session/entry-text";
import type { EntryId, SessionId } from "../session/ids";
import { isCjkTerm, processTerm, tokenize } from "./tokenize";

/**
 * Bumped whenever what is indexed or how it is cut changes: a persisted index of another format
 * is rebuilt, never mixed with new terms.
 */
export const INDEX_FORMAT = 1;

type Doc = { id: string; sessionId: SessionId; text: string };

/** What the index holds of one chat. */
export type IndexedChat = { updatedAt: number; title: string; entryIds: EntryId[] };

/** A chat as a sync sees it (the light row). */
export type ChatRow = Pick<Session, "id" | "updatedAt" | "title">;

/** One hit: an entry, or the chat's title (entryId null). `terms` are the index terms it matched. */
export type IndexHit = { sessionId: SessionId; entryId: EntryId | null; score: number; terms: string[] };

const TITLE_PREFIX = "t:";
const titleDocId = (sessionId: SessionId) => `${TITLE_PREFIX}${sessionId}`;

const SEARCH_OPTIONS: SearchOptions = {
  combineWith: "AND",
  // A word being typed matches the words it begins, from its second letter: a lone Latin letter
  // would match nearly every message, and costs as much to rank as it is useless.
  prefix: (term) => term.length >= 2 || isCjkTerm(term),
  // One typo in a word of 5 letters or more; CJK pairs are exact (a "typo" there is another word).
  fuzzy: (term) => (term.length >= 5 && !isCjkTerm(term) ? 0.2 : false),
  maxFuzzy: 2,
};

const OPTIONS = {
  fields: ["text"],
  storeFields: ["sessionId"],
  tokenize,
  processTerm,
  searchOptions: SEARCH_OPTIONS,
};

/** The serialized form persisted by db/search: the MiniSearch JSON and the per-chat record. */
export type SerializedIndex = { format: number; index: string; chats: Record<string, IndexedChat> };

export class ChatIndex {
  private readonly search: MiniSearch<Doc>;
  private readonly chats: Map<SessionId, IndexedChat>;

  private constructor(search: MiniSearch<Doc>, chats: Map<SessionId, IndexedChat>) {
    this.search = search;
    this.chats = chats;
  }

  static empty(): ChatIndex {
    return new ChatIndex(new MiniSearch<Doc>(OPTIONS), new Map());
  }

  /**
   * The index from its serialized form. Throws when it is not one (corrupt, another format, or its
   * parts disagree): the caller then rebuilds from the database.
   */
  static load(data: SerializedIndex): ChatIndex {
    if (data.format !== INDEX_FORMAT) throw new Error(`search index format ${data.format}, expected ${INDEX_FORMAT}`);
    const search = MiniSearch.loadJSON<Doc>(data.index, OPTIONS);
    const chats = new Map(Object.entries(data.chats) as Array<[SessionId, IndexedChat]>);
    let docs = 0;
    for (const chat of chats.values()) docs += chat.entryIds.length + 1;
    if (docs !== search.documentCount) throw new Error("search index does not match its record of chats");
    return new ChatIndex(search, chats);
  }

  serialize(): SerializedIndex {
    return { format: INDEX_FORMAT, index: JSON.stringify(this.search), chats: Object.fromEntries(this.chats) };
  }

  /** Documents in the index (entries and titles). */
  get size(): number {
    return this.search.documentCount;
  }

  /** Entries in the index (titles not counted). */
  get entryCount(): number {
    return this.search.documentCount - this.chats.size;
  }

  indexed(sessionId: SessionId): IndexedChat | undefined {
    return this.chats.get(sessionId);
  }

  has(entryId: EntryId): boolean {
    return this.search.has(entryId);
  }

  /** Chats whose row changed since they were indexed (or are new), and indexed chats that are gone. */
  diff(rows: readonly ChatRow[]): { changed: ChatRow[]; removed: SessionId[] } {
    const present = new Set<SessionId>();
    const changed: ChatRow[] = [];
    for (const row of rows) {
      present.add(row.id);
      const chat = this.chats.get(row.id);
      if (!chat || chat.updatedAt !== row.updatedAt || chat.title !== row.title) changed.push(row);
    }
    const removed = [...this.chats.keys()].filter((id) => !present.has(id));
    return { changed, removed };
  }

  /**
   * Records the chat's row (its title is indexed too) without touching its entries; `updatedAt`
   * is recorded only once its entries are all in (`complete`), so an interrupted sync redoes it.
   */
  putChat(row: ChatRow, complete: boolean): void {
    const chat = this.chats.get(row.id);
    if (!chat) {
      this.search.add({ id: titleDocId(row.id), sessionId: row.id, text: row.title });
      this.chats.set(row.id, { updatedAt: complete ? row.updatedAt : -1, title: row.title, entryIds: [] });
      return;
    }
    if (chat.title !== row.title) {
      this.search.replace({ id: titleDocId(row.id), sessionId: row.id, text: row.title });
      chat.title = row.title;
    }
    chat.updatedAt = complete ? row.updatedAt : -1;
  }

  /** Adds entries of a chat recorded with putChat (entries already in are skipped: entries never change). */
  addEntries(sessionId: SessionId, entries: readonly Entry[]): void {
    const chat = this.chats.get(sessionId);
    if (!chat) throw new Error(`chat ${sessionId} is not in the search index`);
    for (const entry of entries) {
      if (entry.sessionId !== sessionId || this.search.has(entry.id)) continue;
      this.search.add({ id: entry.id, sessionId, text: entryText(entry) });
      chat.entryIds.push(entry.id);
    }
  }

  removeChat(sessionId: SessionId): void {
    const chat = this.chats.get(sessionId);
    if (!chat) return;
    this.search.discardAll([titleDocId(sessionId), ...chat.entryIds]);
    this.chats.delete(sessionId);
  }

  /** The best `limit` hits for `query` (BM25) and how many there are; none for a query with no words. */
  query(query: string, limit = Number.POSITIVE_INFINITY): { hits: IndexHit[]; total: number } {
    if (tokenize(query).length === 0) return { hits: [], total: 0 };
    const results = this.search.search(query);
    return { hits: results.slice(0, limit).map(toHit), total: results.length };
  }
}

function toHit(r: SearchResult): IndexHit {
  const id = String(r.id);
  const sessionId = r.sessionId as SessionId;
  return {
    sessionId,
    entryId: id.startsWith(TITLE_PREFIX) ? null : (id as EntryId),
    score: r.score,
    terms: r.terms,
  };
}
