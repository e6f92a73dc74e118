/**
 * Where the serialized chat search index lives between page loads: one row of the `searchIndex`
 * table (schema v6). It is a cache: losing it costs a rebuild, never data.
 */
import type { SerializedIndex } from "../../core/search/chat-index";
import { getDb } from "../schema";

const KEY = "chats";

/** The saved index as stored, unchecked (ChatIndex.load checks it); undefined when there is none. */
export async function loadSavedIndex(): Promise<unknown> {
  return (await getDb().searchIndex.get(KEY))?.data;
}

export async function saveIndex(data: SerializedIndex, now: number = Date.now()): Promise<void> {
  await getDb().searchIndex.put({ key: KEY, data, savedAt: now });
}

/** Tests and recovery: forget the saved index (the next start rebuilds it). */
export async function clearSavedIndex(): Promise<void> {
  await getDb().searchIndex.delete(KEY);
}
