/** What a chat search answers (shared with state/ and ui/; no Dexie here). */
import type { SnippetPart } from "../../core/search/snippet";
import type { Entry } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";

type SearchResultKind = Entry["type"] | "title";

export type ChatSearchResult = {
  sessionId: SessionId;
  /** null: the chat's title matched. */
  entryId: EntryId | null;
  title: string;
  /** When the entry was written (ms); the chat's last update for a title. */
  at: number;
  kind: SearchResultKind;
  /** For messages: who wrote it. */
  role?: "user" | "assistant" | "tool";
  snippet: SnippetPart[];
};

export type ChatSearchAnswer = {
  query: string;
  results: ChatSearchResult[];
  /** Every hit, of which `results` are the best. */
  total: number;
  /**
   * While the index is being built or brought up to date: how far (results may be missing);
   * chatsTotal 0 while it is still finding out what changed.
   */
  indexing: { chatsDone: number; chatsTotal: number } | null;
  /**
   * While the saved index is still loading after a start: segments loaded of how many (total 0
   * while it is still counting them). The results are from the loaded ones (the newest chats).
   */
  loading: { done: number; total: number } | null;
  /**
   * Where the worker's time went (ms), for the search bench: waiting for its turn after the query
   * arrived, ranking, and reading the hits' entries and building their snippets.
   */
  took?: { waiting: number; ranking: number; describing: number };
  /** Set when the search could not run (its worker died under it): why, in plain words; no results. */
  failed?: string;
};
