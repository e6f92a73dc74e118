/**
 * Seeding IndexedDB straight from the page (rows are the entry types of src/core/session/entries.ts):
 * sessions with compactions, branch summaries, labels and handoffs that would take minutes of
 * chatting to build through the UI.
 */
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

export type Row = Record<string, unknown>;

/** Loads the app once so it creates the database, then writes rows in one transaction. */
export async function seed(page: Page, rows: { sessions: Row[]; entries: Row[]; labels?: Row[] }): Promise<void> {
  if (!page.url().startsWith("http")) await page.goto("/");
  await expect(page.getByRole("navigation", { name: "Sessions" })).toBeVisible();
  await page.waitForFunction(async () => (await indexedDB.databases()).some((d) => d.name === "grove"));
  await page.evaluate(
    async ({ sessions, entries, labels }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open("grove");
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction(["sessions", "entries", "labels"], "readwrite");
        for (const e of entries) tx.objectStore("entries").put(e);
        for (const s of sessions) tx.objectStore("sessions").put(s);
        for (const l of labels) tx.objectStore("labels").put(l);
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    },
    { labels: [], ...rows },
  );
}

/** Opens a seeded session by URL (a reload, so the app reads what was written behind its back). */
export async function openSeeded(page: Page, sessionId: string): Promise<void> {
  await page.goto(`/#/s/${encodeURIComponent(sessionId)}`);
  await page.reload();
  await expect(page.getByRole("navigation", { name: "Sessions" })).toBeVisible();
}

export const T0 = Date.UTC(2025, 4, 1, 9, 0, 0);
export const msg = (
  id: string,
  sessionId: string,
  parentId: string | null,
  at: number,
  role: string,
  text: string,
): Row => ({
  id,
  sessionId,
  parentId,
  createdAt: T0 + at * 60_000,
  type: "message",
  role,
  content: [{ type: "text", text }],
  status: "complete",
  ...(role === "assistant" ? { provider: "anthropic", model: "claude-sonnet-4-5" } : {}),
});

export const TRIP = "0196a000-0000-7000-8000-00000000a001";
export const TRIP_2 = "0196a000-0000-7000-8000-00000000a002";

/**
 * "Alps trip": a compaction (folding the first exchange, keeping two user turns and a verbatim
 * tail), an abandoned branch summarized by a branch summary, a regenerated reply, a label, and a
 * handoff to "Alps trip (part 2)".
 */
export function tripRows(): { sessions: Row[]; entries: Row[]; labels: Row[] } {
  const s = TRIP;
  const e = (id: string) => `${s.slice(0, 24)}e${id.padStart(11, "0")}`;
  const entries: Row[] = [
    msg(e("1"), s, null, 1, "user", "Plan a weekend trip to the Alps for four friends"),
    msg(e("2"), s, e("1"), 2, "assistant", "Zermatt or Chamonix both work; trains are easiest from Zurich."),
    msg(e("3"), s, e("2"), 3, "user", "What about trains from Geneva instead?"),
    msg(e("4"), s, e("3"), 4, "assistant", "From Geneva the train to Chamonix takes about two hours."),
    msg(e("5"), s, e("4"), 5, "user", "Compare hotel prices in Chamonix"),
    msg(e("6"), s, e("5"), 6, "assistant", "Mid-range hotels run 180–260 EUR a night in June."),
    {
      id: e("7"),
      sessionId: s,
      parentId: e("6"),
      createdAt: T0 + 7 * 60_000,
      type: "compaction",
      summary:
        "## Standing facts & constraints\n- Four friends, one weekend, the Alps.\n- Prefer trains.\n\n" +
        "## Progress\nChamonix chosen; trains from Geneva.\n\n<verbatim_tail>\nMid-range hotels run 180–260 EUR a night in June.\n</verbatim_tail>",
      shortSummary: "Chamonix by train from Geneva; hotels 180–260 EUR",
      firstKeptEntryId: e("5"),
      keptUserTurnIds: [e("1"), e("3")],
      tokensBefore: 48_210,
      tokensAfter: 3_120,
      reason: "manual",
      instructions: "Keep the budget numbers",
      model: "claude-haiku-4-5",
    },
    msg(e("8"), s, e("7"), 8, "user", "Book the cheapest hotel near the station"),
    msg(e("9"), s, e("8"), 9, "assistant", "Hotel Le Faucigny is closest: 185 EUR a night."),
    // An abandoned branch (tried flying), later summarized when the user switched back.
    msg(e("10"), s, e("4"), 10, "user", "Or should we fly into Geneva?"),
    msg(e("11"), s, e("10"), 11, "assistant", "Flying only makes sense from outside Switzerland."),
    {
      id: e("12"),
      sessionId: s,
      parentId: e("9"),
      createdAt: T0 + 12 * 60_000,
      type: "branch_summary",
      fromId: e("11"),
      summary: "Explored flying into Geneva: only worth it from abroad; trains stay the plan.",
      model: "claude-haiku-4-5",
    },
    msg(e("13"), s, e("12"), 13, "user", "Great, what should we pack?"),
    msg(e("14"), s, e("13"), 14, "assistant", "Layers, rain jackets and good walking shoes."),
    // A regenerated reply (another version of 14).
    msg(e("15"), s, e("13"), 15, "assistant", "Pack light: the weather changes fast up there."),
  ];
  const two = TRIP_2;
  const f = (id: string) => `${two.slice(0, 24)}f${id.padStart(11, "0")}`;
  const partTwo: Row[] = [
    {
      id: f("1"),
      sessionId: two,
      parentId: null,
      createdAt: T0 + 20 * 60_000,
      type: "handoff",
      document: "## Goal\nA weekend in Chamonix for four.\n\n## Next steps\n- Book trains.",
      fromSessionId: s,
      fromEntryId: e("14"),
    },
    msg(f("2"), two, f("1"), 21, "user", "Which trains leave Friday evening?"),
    msg(f("3"), two, f("2"), 22, "assistant", "The 17:42 and the 18:42 from Geneva Cornavin."),
  ];
  return {
    sessions: [
      {
        id: s,
        title: "Alps trip",
        titleSource: "user",
        createdAt: T0,
        updatedAt: T0 + 15 * 60_000,
        leafId: e("14"),
      },
      {
        id: two,
        title: "Alps trip (part 2)",
        titleSource: "auto",
        createdAt: T0 + 20 * 60_000,
        updatedAt: T0 + 22 * 60_000,
        leafId: f("3"),
        parentSessionId: s,
        parentEntryId: e("14"),
      },
    ],
    entries: [...entries, ...partTwo],
    labels: [{ entryId: e("4"), sessionId: s, text: "Train plan" }],
  };
}
