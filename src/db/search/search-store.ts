/**
 * Where the chat search index lives between page loads: one row of the `searchIndex` table per
 * segment (`segment:<n>`, schema v6; see core/search/chat-index.ts). It is a cache: losing it
 * costs a rebuild, never data.
 */
import type { SegmentChanges } from "../../core/search/chat-index";
import { getDb } from "../schema";

const PREFIX = "segment:";
const key = (id: number) => `${PREFIX}${id}`;

/** The saved segments' numbers, newest (highest) first. */
export async function savedSegments(): Promise<number[]> {
  const keys = await getDb().searchIndex.where("key").startsWith(PREFIX).primaryKeys();
  return keys
    .map((k) => Number(k.slice(PREFIX.length)))
    .filter((n) => Number.isSafeInteger(n) && n >= 0)
    .sort((a, b) => b - a);
}

/** A saved segment as stored, unchecked (ChatIndex.loadSegment checks it); undefined when there is none. */
export async function loadSavedSegment(id: number): Promise<unknown> {
  return (await getDb().searchIndex.get(key(id)))?.data;
}

/**
 * Writes changed segments and deletes removed ones, together (one transaction). One put at a
 * time: each copies its 1.5 MB segment when it is issued, and a bulk put of every segment copied
 * them all in one task that held the search worker (and a query typed meanwhile) for 100+ ms.
 */
export async function saveSegments(changes: SegmentChanges, now: number = Date.now()): Promise<void> {
  if (changes.put.length === 0 && changes.removed.length === 0) return;
  const db = getDb();
  await db.transaction("rw", db.searchIndex, async () => {
    await db.searchIndex.bulkDelete(changes.removed.map(key));
    // A segment emptied after it was serialized is gone (numbers are never reused).
    for (const { id, data } of changes.put) {
      if (!changes.removed.includes(id)) await db.searchIndex.put({ key: key(id), data, savedAt: now });
    }
  });
}

/** Tests and recovery: forget the saved index (the next start rebuilds it). */
export async function clearSavedIndex(): Promise<void> {
  await getDb().searchIndex.clear();
}
