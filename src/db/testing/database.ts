/**
 * Test helpers for db/ (fake-indexeddb, Node). Not imported by app code.
 * `freshDatabase()` in a beforeEach gives every test its own empty database.
 */
import "fake-indexeddb/auto";
import type { BranchSummaryEntry, CompactionEntry, MessageEntry, Session } from "../../core/session/entries";
import { type EntryId, newEntryId, newSessionId, type SessionId } from "../../core/session/ids";
import { closeDb, getDb, setTestDatabase } from "../schema";

let counter = 0;

/** Points getDb() at a new, empty database. */
export function freshDatabase(): void {
  counter += 1;
  setTestDatabase(`grove-test-${counter}-${newSessionId()}`);
}

export { closeDb, getDb };

export function makeSession(overrides: Partial<Session> = {}): Session {
  return {
    id: newSessionId(),
    title: "New chat",
    titleSource: "auto",
    createdAt: 1_000,
    updatedAt: 1_000,
    leafId: null,
    ...overrides,
  };
}

export function userMessage(
  sessionId: SessionId,
  parentId: EntryId | null,
  text: string,
  createdAt = 2_000,
): MessageEntry {
  return {
    id: newEntryId(),
    sessionId,
    parentId,
    createdAt,
    type: "message",
    role: "user",
    content: [{ type: "text", text }],
    status: "complete",
  };
}

export function assistantMessage(
  sessionId: SessionId,
  parentId: EntryId | null,
  text: string,
  createdAt = 3_000,
): MessageEntry {
  return { ...userMessage(sessionId, parentId, text, createdAt), role: "assistant", model: "test-model" };
}

export function compaction(sessionId: SessionId, parentId: EntryId, summary: string): CompactionEntry {
  return {
    id: newEntryId(),
    sessionId,
    parentId,
    createdAt: 4_000,
    type: "compaction",
    summary,
    shortSummary: "short",
    firstKeptEntryId: null,
    keptUserTurnIds: [],
    tokensBefore: 100,
    tokensAfter: 10,
    reason: "manual",
    model: "test-model",
  };
}

export function branchSummary(
  sessionId: SessionId,
  parentId: EntryId,
  fromId: EntryId,
  summary: string,
): BranchSummaryEntry {
  return {
    id: newEntryId(),
    sessionId,
    parentId,
    createdAt: 5_000,
    type: "branch_summary",
    fromId,
    summary,
    model: "test-model",
  };
}

/** Every row of every table, for "the database is exactly as before" assertions. */
export async function snapshot(): Promise<Record<string, unknown[]>> {
  const db = getDb();
  const out: Record<string, unknown[]> = {};
  for (const table of db.tables) out[table.name] = await table.toArray();
  return out;
}

/**
 * A full disk for reply writes: every write to the entries and the reply checkpoints (`drafts`)
 * fails with the browser's QuotaExceededError until `free()`. Reopens the database with the failure
 * in Dexie's core stack, so transactions fail as a real quota error does.
 */
export async function fillDiskForReplies(): Promise<{ free(): void }> {
  const db = getDb();
  const quota = () => new DOMException("The quota has been exceeded.", "QuotaExceededError");
  let full = true;
  db.close();
  db.use({
    stack: "dbcore",
    name: "disk-full",
    create: (down) => ({
      ...down,
      table: (name) => {
        const t = down.table(name);
        return {
          ...t,
          mutate: (req) =>
            full && (name === "entries" || name === "drafts") ? Promise.reject(quota()) : t.mutate(req),
        };
      },
    }),
  });
  await db.open();
  return {
    free: () => {
      full = false;
    },
  };
}
