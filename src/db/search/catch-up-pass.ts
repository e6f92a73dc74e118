/**
 * Bringing the chat index up to date with the database. No write path tells the index anything:
 * every append, import and delete changes the `sessions` table (an append moves the leaf and bumps
 * `updatedAt`; an import adds rows; a delete removes one), so a chat whose row differs from what
 * the index recorded is read again — only its entry ids, then the entries the index lacks — and a
 * chat that is gone is dropped. Entries are append-only, so "the ids it lacks" is the whole change.
 * The same pass builds a missing index from nothing.
 *
 * Work comes in batches with a pause between them, so searches asked for meanwhile are answered
 * (with what is indexed so far) instead of waiting for a 100 MB rebuild.
 */
import type { ChatIndex, ChatRow } from "../../core/search/chat-index";
import type { EntryId } from "../../core/session/ids";
import { getDb } from "../schema";

/** Entries read and indexed per step (a few ms of work each). */
const PASS_BATCH = 300;

export type CatchUpProgress = { chatsDone: number; chatsTotal: number };

export type CatchUpOptions = {
  /** Awaited between batches (default: yield to the event loop). */
  pause?: () => Promise<void>;
  onProgress?: (p: CatchUpProgress) => void;
};

const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** One catch-up pass: `index` brought up to date with the database; resolves to whether anything changed. */
export async function catchUpPass(index: ChatIndex, options: CatchUpOptions = {}): Promise<boolean> {
  const db = getDb();
  const rows = await db.sessions.toArray();
  const { changed, removed } = index.diff(rows);
  for (const id of removed) index.removeChat(id);
  await indexRows(index, changed, options);
  // A row can take entries without looking different (an append in the same millisecond as the
  // last, a clock set back, an imported chat dated in the future): the entry counts tell. Counting
  // the table is cheap; counting per chat happens only when the totals differ, once per total.
  const total = await db.entries.count();
  if (total === index.entryCount || total === verifiedAt.get(index)) return removed.length > 0 || changed.length > 0;
  verifiedAt.set(index, total);
  const behind: ChatRow[] = [];
  for (const row of rows) {
    const have = index.indexed(row.id)?.entryIds.length ?? 0;
    if ((await db.entries.where("sessionId").equals(row.id).count()) !== have) behind.push(row);
  }
  await indexRows(index, behind, options);
  return removed.length > 0 || changed.length > 0 || behind.length > 0;
}

/** The entry total at which each index was last checked chat by chat (orphaned rows would differ forever). */
const verifiedAt = new WeakMap<ChatIndex, number>();

/** Indexes what `rows`' chats hold and the index lacks. */
async function indexRows(index: ChatIndex, rows: readonly ChatRow[], options: CatchUpOptions): Promise<void> {
  const pause = options.pause ?? yieldToEvents;
  const db = getDb();
  const chatsTotal = rows.length;
  let chatsDone = 0;
  if (chatsTotal > 0) options.onProgress?.({ chatsDone, chatsTotal });
  for (const row of rows) {
    // Recorded as incomplete until every entry is in: an interrupted pass does this chat again.
    index.putChat(row, false);
    // Read after the row: every entry its updatedAt stands for is among these ids.
    const ids = await db.entries.where("sessionId").equals(row.id).primaryKeys();
    const missing = ids.filter((id: EntryId) => !index.has(row.id, id));
    for (let i = 0; i < missing.length; i += PASS_BATCH) {
      const entries = await db.entries.bulkGet(missing.slice(i, i + PASS_BATCH));
      index.addEntries(
        row.id,
        entries.filter((e) => e !== undefined),
      );
      await pause();
    }
    index.putChat(row, true);
    chatsDone++;
    if (missing.length === 0 && chatsDone % 50 === 0) await pause();
    options.onProgress?.({ chatsDone, chatsTotal });
  }
}
