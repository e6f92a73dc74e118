/**
 * Replies and maintenance entries that reported usage, for the spending summary (Settings). A scan of the entries table:
 * it runs when Settings opens, not on the chat's paths.
 */
import type { Entry } from "../core/session/entries";
import { getDb } from "./schema";

const reported = (e: Entry): boolean =>
  ("usage" in e && e.usage !== undefined) || ("sideUsage" in e && e.sideUsage !== undefined);

/** Every entry with provider-reported usage (a reply's, or a maintenance entry's `sideUsage`) created at or after `since` (ms). */
export function entriesWithUsageSince(since: number): Promise<Entry[]> {
  return getDb()
    .entries.filter((e) => e.createdAt >= since && reported(e))
    .toArray();
}
