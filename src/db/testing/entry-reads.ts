import { getDb } from "./database";

/** One read of the entries table: by key (`get`, `getMany`), by range (`query`, `cursor`); its rows. */
export type EntryRead = { kind: "get" | "getMany" | "query" | "cursor"; rows: number };

/**
 * Records every read of the entries table from now on (reopens the database with a DBCore
 * middleware): the list fills as reads happen. Key-only range reads (no values) are not rows.
 */
export async function recordEntryReads(): Promise<EntryRead[]> {
  const reads: EntryRead[] = [];
  const db = getDb();
  db.close();
  db.use({
    stack: "dbcore",
    name: "record-entry-reads",
    create: (down) => ({
      ...down,
      table: (name) => {
        const t = down.table(name);
        if (name !== "entries") return t;
        return {
          ...t,
          get: async (req) => {
            reads.push({ kind: "get", rows: 1 });
            return t.get(req);
          },
          getMany: async (req) => {
            const res = await t.getMany(req);
            reads.push({ kind: "getMany", rows: res.length });
            return res;
          },
          query: async (req) => {
            const res = await t.query(req);
            reads.push({ kind: "query", rows: req.values ? res.result.length : 0 });
            return res;
          },
          openCursor: async (req) => {
            reads.push({ kind: "cursor", rows: 0 });
            return t.openCursor(req);
          },
        };
      },
    }),
  });
  await db.open();
  return reads;
}
