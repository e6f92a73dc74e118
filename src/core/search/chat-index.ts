/**
 * The chat search index (issue 11): every message, compaction, branch summary and handoff of every
 * chat, plus each chat's title, in MiniSearch indexes (BM25 ranking, prefix and fuzzy matching),
 * with the words cut by tokenize.ts. Beside the words it keeps, per chat, what it holds (the
 * chat's `updatedAt` and title when indexed, and its entry ids), so a catch-up pass can tell what is new and
 * a deleted chat can be taken out without reading its entries.
 *
 * The index is cut into segments of whole chats (about SEGMENT_DOCS documents each; a new chat
 * joins the newest segment until it is full), each serialized on its own: after a reload the
 * newest segments load first and are searched while the rest load, and a change re-saves only the
 * segments it touched instead of the whole index. Queries rank over all loaded segments at once
 * with their statistics summed (rank.ts), so a hit scores the same in whichever segment it is.
 *
 * The text indexed is `entryText` (core/session/entry-text.ts), the one definition of an entry's
 * words that "Copy text" and the graph search use too. Pure: the caller (db/search) reads the
 * database and persists the segments `takeChanges()` hands over.
 */
import MiniSearch from "minisearch";
import type { Entry, Session } from "../session/entries";
import { entryText } from "../session/entry-text";
import type { EntryId, SessionId } from "../session/ids";
import { viewOf } from "./minisearch-view";
import { columnsCurrent, type DocColumns, docColumns, rank, type TermSpec } from "./rank";
import { segmentJson } from "./segment-json";
import { isCjkTerm, processTerm, tokenize } from "./tokenize";

/**
 * Bumped whenever what is indexed or how it is cut changes: a persisted index of another format
 * is rebuilt, never mixed with new terms. 2: segments, and each document's date stored (ties).
 */
export const INDEX_FORMAT = 2;

/** Documents per segment: about 1.5 MB serialized, loaded in a few tens of ms. */
const SEGMENT_DOCS = 4_000;

/** `prepare()` ranks a word only this common (below it, ranking is fast however cold)… */
const PREPARE_MIN_POSTINGS = 1_000;
/** …keeping as many hits as a real query does. */
const PREPARE_LIMIT = 50;

/** `at`: when the entry was written (the chat's last update for its title): ties rank newer first. */
type Doc = { id: string; sessionId: SessionId; at: number; text: string };

/** What the index holds of one chat. */
export type IndexedChat = { updatedAt: number; title: string; entryIds: EntryId[] };

/** A chat as a catch-up pass sees it (the light row). */
export type ChatRow = Pick<Session, "id" | "updatedAt" | "title">;

/** One hit: an entry, or the chat's title (entryId null). `terms` are the index terms it matched. */
export type IndexHit = { sessionId: SessionId; entryId: EntryId | null; score: number; terms: string[] };

const TITLE_PREFIX = "t:";
const titleDocId = (sessionId: SessionId) => `${TITLE_PREFIX}${sessionId}`;

const OPTIONS = {
  fields: ["text"],
  storeFields: ["sessionId", "at"],
  tokenize,
  processTerm,
};

/**
 * How a query word is matched. A word being typed matches the words it begins, from its second
 * letter (a lone Latin letter would match nearly every message, and costs as much to rank as it
 * is useless); one typo is forgiven in a word of 5 letters or more (two from 13); CJK pairs are
 * exact (a "typo" there is another word).
 */
function termSpec(term: string): TermSpec {
  const cjk = isCjkTerm(term);
  return {
    term,
    prefix: term.length >= 2 || cjk,
    maxDistance: term.length >= 5 && !cjk ? Math.min(2, Math.round(term.length * 0.2)) : 0,
  };
}

/** One segment as persisted by db/search: the MiniSearch JSON and the record of its chats. */
type SerializedSegment = { format: number; index: string; chats: Record<string, IndexedChat> };

/** What changed since the last `takeChanges()`: segments to (re)write and segments to delete. */
export type SegmentChanges = { put: Array<{ id: number; data: SerializedSegment }>; removed: number[] };

type Segment = {
  id: number;
  search: MiniSearch<Doc>;
  chats: Map<SessionId, IndexedChat>;
  dirty: boolean;
  /** Its documents' lengths and dates in arrays, kept across queries until it changes (rank.ts). */
  columns?: DocColumns;
};

export class ChatIndex {
  /** Oldest first; the last one takes new chats. */
  private readonly segments: Segment[] = [];
  private readonly chatSegment = new Map<SessionId, Segment>();
  private readonly removedSegments = new Set<number>();
  private nextSegmentId = 0;

  private constructor(private readonly segmentDocs: number) {}

  static empty(segmentDocs: number = SEGMENT_DOCS): ChatIndex {
    return new ChatIndex(segmentDocs);
  }

  /**
   * Adds a saved segment. Throws when it is not one (corrupt, another format, its parts disagree,
   * or it holds a chat another segment holds): the caller then `forgetSegment`s it, and the next
   * catch-up pass indexes its chats again.
   */
  loadSegment(id: number, data: unknown): void {
    const d = data as Partial<SerializedSegment> | undefined;
    if (d?.format !== INDEX_FORMAT) throw new Error(`search index format ${d?.format}, expected ${INDEX_FORMAT}`);
    if (typeof d.index !== "string" || typeof d.chats !== "object" || d.chats === null)
      throw new Error("search index segment is malformed");
    const search = MiniSearch.loadJSON<Doc>(d.index, OPTIONS);
    const chats = new Map(Object.entries(d.chats) as Array<[SessionId, IndexedChat]>);
    let docs = 0;
    for (const [sessionId, chat] of chats) {
      if (this.chatSegment.has(sessionId)) throw new Error("search index segments overlap");
      docs += chat.entryIds.length + 1;
    }
    if (docs !== search.documentCount) throw new Error("search index does not match its record of chats");
    const segment: Segment = { id, search, chats, dirty: false };
    for (const sessionId of chats.keys()) this.chatSegment.set(sessionId, segment);
    // Kept oldest first whatever order they load in (newest first, after a reload).
    const at = this.segments.findIndex((s) => s.id > id);
    this.segments.splice(at < 0 ? this.segments.length : at, 0, segment);
    this.nextSegmentId = Math.max(this.nextSegmentId, id + 1);
  }

  /** A saved segment that could not be read: deleted at the next save. */
  forgetSegment(id: number): void {
    this.removedSegments.add(id);
    this.nextSegmentId = Math.max(this.nextSegmentId, id + 1);
  }

  /**
   * The segments changed since the last call (serialized now; at most `limit` of them, the rest
   * stay for the next call) and the ones to delete.
   */
  takeChanges(limit = Number.POSITIVE_INFINITY): SegmentChanges {
    const steps = this.serializeChanges(limit);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * `takeChanges` a slice at a time (segment-json.ts): the caller lets other work in at every
   * yield, and may change the index meanwhile — a segment that changed while it was written is
   * left out and stays changed, for the next save.
   */
  *serializeChanges(limit = Number.POSITIVE_INFINITY): Generator<void, SegmentChanges, void> {
    const put: SegmentChanges["put"] = [];
    for (const segment of [...this.segments]) {
      if (!segment.dirty || put.length >= limit) continue;
      segment.dirty = false;
      const index = yield* segmentJson(segment.search);
      // Removed meanwhile (emptied): deleted instead. Changed meanwhile: already marked again.
      if (!this.segments.includes(segment)) continue;
      if (index === null) {
        segment.dirty = true;
        continue;
      }
      // Copied: the record must say what this JSON holds, not what the chats hold by the time
      // the caller writes it.
      const chats = Object.fromEntries(
        [...segment.chats].map(([id, chat]) => [id, { ...chat, entryIds: [...chat.entryIds] }]),
      );
      put.push({ id: segment.id, data: { format: INDEX_FORMAT, index, chats } });
    }
    const removed = [...this.removedSegments];
    this.removedSegments.clear();
    return { put, removed };
  }

  /** Changes a failed save did not write: handed over again by the next `takeChanges()`. */
  keepChanges(changes: SegmentChanges): void {
    for (const { id } of changes.put) {
      const segment = this.segments.find((s) => s.id === id);
      if (segment) segment.dirty = true;
    }
    for (const id of changes.removed) if (!this.segments.some((s) => s.id === id)) this.removedSegments.add(id);
  }

  /** Whether anything changed since the last `takeChanges()`. */
  get changed(): boolean {
    return this.removedSegments.size > 0 || this.segments.some((s) => s.dirty);
  }

  get segmentCount(): number {
    return this.segments.length;
  }

  /** Documents in the index (entries and titles). */
  get size(): number {
    return this.segments.reduce((n, s) => n + s.search.documentCount, 0);
  }

  /** Entries in the index (titles not counted). */
  get entryCount(): number {
    return this.size - this.chatSegment.size;
  }

  indexed(sessionId: SessionId): IndexedChat | undefined {
    return this.chatSegment.get(sessionId)?.chats.get(sessionId);
  }

  has(sessionId: SessionId, entryId: EntryId): boolean {
    return this.chatSegment.get(sessionId)?.search.has(entryId) ?? false;
  }

  /** Chats whose row changed since they were indexed (or are new), and indexed chats that are gone. */
  diff(rows: readonly ChatRow[]): { changed: ChatRow[]; removed: SessionId[] } {
    const present = new Set<SessionId>();
    const changed: ChatRow[] = [];
    for (const row of rows) {
      present.add(row.id);
      const chat = this.indexed(row.id);
      if (!chat || chat.updatedAt !== row.updatedAt || chat.title !== row.title) changed.push(row);
    }
    const removed = [...this.chatSegment.keys()].filter((id) => !present.has(id));
    return { changed, removed };
  }

  /** The newest segment while it has room, else a new one. */
  private openSegment(): Segment {
    const last = this.segments[this.segments.length - 1];
    if (last && last.search.documentCount < this.segmentDocs) return last;
    const segment: Segment = {
      id: this.nextSegmentId++,
      search: new MiniSearch<Doc>(OPTIONS),
      chats: new Map(),
      dirty: true,
    };
    this.segments.push(segment);
    return segment;
  }

  /**
   * Records the chat's row (its title is indexed too) without touching its entries; `updatedAt`
   * is recorded only once its entries are all in (`complete`), so an interrupted catch-up pass redoes it.
   */
  putChat(row: ChatRow, complete: boolean): void {
    const segment = this.chatSegment.get(row.id);
    const titleDoc = { id: titleDocId(row.id), sessionId: row.id, at: row.updatedAt, text: row.title };
    if (!segment) {
      const open = this.openSegment();
      open.search.add(titleDoc);
      open.chats.set(row.id, { updatedAt: complete ? row.updatedAt : -1, title: row.title, entryIds: [] });
      open.dirty = true;
      this.chatSegment.set(row.id, open);
      return;
    }
    const chat = segment.chats.get(row.id)!;
    if (chat.title !== row.title) {
      segment.search.replace(titleDoc);
      chat.title = row.title;
    }
    chat.updatedAt = complete ? row.updatedAt : -1;
    segment.dirty = true;
  }

  /** Adds entries of a chat recorded with putChat (entries already in are skipped: entries never change). */
  addEntries(sessionId: SessionId, entries: readonly Entry[]): void {
    const segment = this.chatSegment.get(sessionId);
    const chat = segment?.chats.get(sessionId);
    if (!segment || !chat) throw new Error(`chat ${sessionId} is not in the search index`);
    for (const entry of entries) {
      if (entry.sessionId !== sessionId || segment.search.has(entry.id)) continue;
      segment.search.add({ id: entry.id, sessionId, at: entry.createdAt, text: entryText(entry) });
      chat.entryIds.push(entry.id);
      segment.dirty = true;
    }
  }

  removeChat(sessionId: SessionId): void {
    const segment = this.chatSegment.get(sessionId);
    const chat = segment?.chats.get(sessionId);
    if (!segment || !chat) return;
    segment.search.discardAll([titleDocId(sessionId), ...chat.entryIds]);
    segment.chats.delete(sessionId);
    this.chatSegment.delete(sessionId);
    segment.dirty = true;
    if (segment.chats.size === 0) {
      this.segments.splice(this.segments.indexOf(segment), 1);
      this.removedSegments.add(segment.id);
    }
  }

  /**
   * Readies the index for the first real query: builds what queries keep (each segment's columns)
   * and ranks the newest segment's commonest word, alone and with the next commonest, so the first
   * keystroke finds the ranking code already optimized — the engine optimizes a loop only after
   * running it a while, and the first common word after a start ranked ~50 ms slower than the next
   * one. Returns false (nothing done) while no word is common enough for it to matter.
   */
  prepare(): boolean {
    const newest = this.segments[this.segments.length - 1];
    if (!newest) return false;
    const common: Array<[string, number]> = [];
    for (const [term, data] of viewOf(newest.search).terms.atPrefix("")) {
      const n = data.get(0)?.size ?? 0;
      if (n < PREPARE_MIN_POSTINGS) continue;
      common.push([term, n]);
      common.sort((a, b) => b[1] - a[1]);
      common.length = Math.min(common.length, 2);
    }
    if (common.length === 0) return false;
    const words = common.map(([term]) => term);
    this.query(words[0]!, PREPARE_LIMIT);
    this.query(words.join(" "), PREPARE_LIMIT);
    return true;
  }

  /** The best `limit` hits for `query` (BM25, ties newer first) and how many there are. */
  query(query: string, limit = Number.POSITIVE_INFINITY): { hits: IndexHit[]; total: number } {
    const terms = [...new Set(tokenize(query).flatMap((t) => processTerm(t) ?? []))];
    if (terms.length === 0 || this.segments.length === 0) return { hits: [], total: 0 };
    const views = this.segments.map((s) => viewOf(s.search));
    // Built once per segment and change (only the newest segment changes as chats grow).
    const columns = this.segments.map((s, i) => {
      if (!columnsCurrent(s.columns, views[i]!)) s.columns = docColumns(views[i]!);
      return s.columns;
    });
    const { hits, total } = rank(views, terms.map(termSpec), limit, columns);
    return {
      hits: hits.map((h) => {
        const view = views[h.segment]!;
        const id = view.documentIds.get(h.shortId)!;
        return {
          sessionId: view.storedFields.get(h.shortId)?.sessionId as SessionId,
          entryId: id.startsWith(TITLE_PREFIX) ? null : (id as EntryId),
          score: h.score,
          terms: h.terms,
        };
      }),
      total,
    };
  }
}
