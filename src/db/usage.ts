/**
 * Replies that reported usage, for the spending summary (Settings). A scan of the entries table:
 * it runs when Settings opens, not on the chat's paths.
 */
import type { Entry } from "../core/session/entries";
import { getDb } from "./schema";

/** Every entry with provider-reported usage created at or after `since` (ms). */
export function entriesWithUsageSince(since: number): Promise<Entry[]> {
  return getDb()
    .entries.filter((e) => e.createdAt >= since && "usage" in e && e.usage !== undefined)
    .toArray();
}
