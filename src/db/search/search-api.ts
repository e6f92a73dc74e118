/** What the search worker exposes (over comlink) and the in-process stand-in provides. */
import type { ChatSearchAnswer } from "./search-types";

export type SearchApi = {
  search(query: string, seq: number): Promise<ChatSearchAnswer | null>;
  /** Resolves when the index has caught up with the database. */
  refresh(): Promise<void>;
  /** Indexing waits while held (see SearchService.hold). */
  hold(held: boolean): void;
};
