/**
 * Dead workers do not hang the UI (issue 9, hardening 8; issue 23: one worker kit). The page ends
 * each of the four workers — compaction, search, sync, transfer — mid-operation the way a crash or
 * an out-of-memory kill would: `worker.terminate()` through a test-only hook (present only with
 * localStorage `grove.testHooks` = "1"), which fires no event at all. The app must notice, fail the
 * operation with the same plain message, write nothing half, and start a new worker for the next
 * operation, which works.
 */
import type { Page, Worker as PageWorker } from "@playwright/test";
import { openChatMenu, openConfigured } from "./app";
import {
  compactFromHeader,
  compactionCards,
  conversationRequests,
  exchange,
  FIRST_SUMMARY,
  openSmallWindow,
  prose,
  summarizerReply,
} from "./compaction-helpers";
import { dbSnapshot, expectHeld, reloadSession } from "./faults-helpers";
import type { MockServer } from "./fixtures";
import { openSeeded, seed, TRIP, tripRows } from "./seed";
import {
  databaseName,
  expect,
  expectUpToDate,
  freshDatabase,
  startLongFirstSync,
  syncRegion,
  tableRows,
  test,
} from "./sync-helpers";

/** What every dead worker's operation says (src/worker-kit/worker-died.ts, WORKER_DIED). */
const WORKER_DIED = "The background worker stopped unexpectedly (it may have run out of memory).";

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("grove.testHooks", "1"));
});

type Hooks = {
  groveKillCompactionWorker?: () => void;
  groveKillSearchWorker?: () => void;
  groveKillSyncWorker?: () => void;
  groveKillTransferWorker?: () => void;
};

async function kill(page: Page, which: keyof Hooks): Promise<void> {
  await page.waitForFunction((name) => typeof (window as Hooks)[name as keyof Hooks] === "function", which);
  await page.evaluate((name) => (window as Hooks)[name as keyof Hooks]?.(), which);
}

const SMALL = { window: 16_000, maxOutput: 1_000, reserve: 2_000, keepRecent: 700, auto: false } as const;

async function converse(page: Page, mock: MockServer, from: number, to: number) {
  for (let i = from; i <= to; i++) {
    await exchange(page, mock, prose(`(U${i})`, 40), `(U${i})`, { text: prose(`(A${i})`, 350) });
  }
}

test("compaction worker killed mid-compaction: the dialog says so, nothing is written, the next send works", async ({
  page,
  mock,
}) => {
  test.setTimeout(60_000);
  await openSmallWindow(page, mock, SMALL);
  await converse(page, mock, 1, 3);
  const snapshot = await dbSnapshot(page);

  mock.enqueue(
    "openai",
    summarizerReply(FIRST_SUMMARY, {
      chunks: ["## Standing facts\n\n- half a summary", " never seen"],
      hold: { afterChunks: 1 },
    }),
  );
  const dialog = await compactFromHeader(page);
  await expectHeld(mock, "openai");
  await expect(dialog.getByRole("region", { name: "Summary so far" })).toContainText("half a summary");
  await kill(page, "groveKillCompactionWorker");
  await expect(dialog.getByRole("alert")).toContainText(WORKER_DIED);
  await page.screenshot({ path: "test-results/worker-death/compaction-killed.png" });
  mock.release("openai");
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(dialog).toBeHidden();
  await expect(compactionCards(page)).toHaveCount(0);

  await reloadSession(page);
  expect(await dbSnapshot(page)).toEqual(snapshot);

  await exchange(page, mock, "(U4) Still there?", "(U4)", { text: "Still here after the crash." });
  expect(conversationRequests(mock).at(-1)).toBeDefined();
});

test("compaction worker killed while idle: the next send still reaches the provider", async ({ page, mock }) => {
  test.setTimeout(60_000);
  // A small window: the path's bytes no longer prove it fits, so each send counts it in the worker
  // (~750 tokens: below the 3,000 of room and the 2,000 threshold, so nothing is compacted).
  await openSmallWindow(page, mock, { window: 4_000, maxOutput: 1_000, reserve: 2_000, keepRecent: 700 });
  await exchange(page, mock, "(U1) Hello", "(U1)", { text: prose("(A1)", 600) });
  await kill(page, "groveKillCompactionWorker");

  await exchange(page, mock, "(U2) Are you there?", "(U2)", { text: "Second answer, from a fresh worker." });
  expect(conversationRequests(mock)).toHaveLength(2);
});

test("transfer worker killed during an import: an error, nothing imported", async ({ page, mock }) => {
  await seed(page, tripRows());
  await openConfigured(page, mock);
  await openSeeded(page, TRIP);
  await openChatMenu(page);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("menuitem", { name: "Grove JSON", exact: true }).click(),
  ]);
  const exported = await download.createReadStream().then(async (stream) => {
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(part as Buffer);
    return Buffer.concat(parts);
  });
  const snapshot = await dbSnapshot(page);

  // The file's chat is already here: the import waits, worker alive, for Keep both / Skip.
  await page
    .getByLabel("Import file")
    .setInputFiles({ name: "again.json", mimeType: "application/json", buffer: exported });
  const dialog = page.getByRole("dialog", { name: "Import" });
  await expect(dialog).toContainText("One chat in again.json is already here");
  await kill(page, "groveKillTransferWorker");
  await dialog.getByRole("button", { name: "Keep both" }).click();
  await expect(dialog.getByRole("alert")).toContainText(WORKER_DIED);
  await expect(dialog).toContainText("Nothing was imported");
  await page.screenshot({ path: "test-results/worker-death/import-killed.png" });
  await dialog.getByRole("button", { name: "OK" }).click();
  expect(await dbSnapshot(page)).toEqual(snapshot);

  // The next import gets a worker of its own, and works.
  await page
    .getByLabel("Import file")
    .setInputFiles({ name: "again.json", mimeType: "application/json", buffer: exported });
  await expect(dialog).toContainText("One chat in again.json is already here");
  await dialog.getByRole("button", { name: "Keep both" }).click();
  await expect(dialog).toBeHidden();
  expect((await dbSnapshot(page)).sessions).toHaveLength(snapshot.sessions.length + 1);
});

/**
 * Counts the messages the page posts to each kind of worker (the kind is in the worker's name,
 * `grove-lifeline:<kind>:…`): a test can then wait until a query has really gone to the worker.
 */
function countPostsToWorkers(): void {
  const posted: Record<string, number> = {};
  (window as unknown as { grovePosted: Record<string, number> }).grovePosted = posted;
  const kinds = new WeakMap<object, string>();
  const Native = window.Worker;
  const post = Native.prototype.postMessage;
  Native.prototype.postMessage = function (this: Worker, ...args: unknown[]) {
    const kind = kinds.get(this) ?? "";
    posted[kind] = (posted[kind] ?? 0) + 1;
    return Reflect.apply(post, this, args);
  };
  window.Worker = class extends Native {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      kinds.set(this, options?.name?.split(":")[1] ?? "");
    }
  };
}

const posts = (page: Page, kind: string) =>
  page.evaluate((k) => (window as unknown as { grovePosted: Record<string, number> }).grovePosted[k] ?? 0, kind);

/**
 * Keeps `worker` busy (an endless loop) until it is terminated, so a query posted to it stays
 * unanswered: resolves once the loop has started (the worker says so on a BroadcastChannel first).
 */
async function keepBusy(page: Page, worker: PageWorker): Promise<void> {
  // The page listens first: a BroadcastChannel keeps no message for a later listener.
  await page.evaluate(() => {
    const channel = new BroadcastChannel("grove-e2e-busy");
    (window as unknown as { groveBusy: Promise<void> }).groveBusy = new Promise<void>((resolve) => {
      channel.onmessage = () => {
        channel.close();
        resolve();
      };
    });
  });
  // The loop runs as one of the worker's own tasks: terminate() cannot interrupt code the
  // inspector is evaluating, but it stops a task.
  await worker.evaluate(() => {
    setTimeout(() => {
      new BroadcastChannel("grove-e2e-busy").postMessage("busy");
      for (;;) {
        // busy until terminated
      }
    }, 0);
  });
  await page.evaluate(() => (window as unknown as { groveBusy: Promise<void> }).groveBusy);
}

test("search worker killed during a search: the search says so, nothing is written, the next search answers", async ({
  page,
}) => {
  await page.addInitScript(countPostsToWorkers);
  await seed(page, tripRows());
  await page.reload();
  const box = page.getByRole("searchbox", { name: "Search chats" });
  const results = page.getByRole("listbox", { name: "Search results" });
  await box.fill("Chamonix");
  await expect(results.getByRole("option").first()).toContainText("Alps trip");
  const snapshot = await dbSnapshot(page);

  const searchWorker = page.workers().find((w) => w.url().includes("search.worker"));
  if (!searchWorker) throw new Error("no search worker");
  await keepBusy(page, searchWorker);
  const before = await posts(page, "search");
  await box.fill("Geneva");
  await expect.poll(() => posts(page, "search")).toBeGreaterThan(before); // the query is with the worker
  await kill(page, "groveKillSearchWorker");
  const status = page.locator(".search-results .search-status");
  await expect(status).toContainText(WORKER_DIED);
  await expect(results.getByRole("option")).toHaveCount(0);
  await page.screenshot({ path: "test-results/worker-death/search-killed.png" });
  expect(await dbSnapshot(page)).toEqual(snapshot);

  await box.fill("hotel");
  await expect(results.getByRole("option").first()).toContainText("Alps trip");
  await expect(status).not.toContainText(WORKER_DIED);
});

test("sync worker killed during a sync run: the status says so, nothing is half-written, Sync now finishes it", async ({
  page,
  couch,
}) => {
  test.setTimeout(120_000);
  const N = 3000;
  const url = freshDatabase(couch);
  await startLongFirstSync(page, url, N, /^Uploading [\d,]+ of [\d,]+ entries$/);
  const before = { sessions: await tableRows(page, "sessions"), entries: await tableRows(page, "entries") };
  await kill(page, "groveKillSyncWorker");
  const region = syncRegion(page);
  await expect(region.getByRole("status")).toContainText(WORKER_DIED);
  await region.screenshot({ path: "test-results/worker-death/sync-killed.png" });
  expect(await tableRows(page, "sessions")).toEqual(before.sessions);
  expect(await tableRows(page, "entries")).toEqual(before.entries);

  await region.getByRole("button", { name: "Sync now" }).click();
  await expectUpToDate(page);
  // Every record once, each in its first revision: nothing was written twice or left half.
  const docs = await couch.allDocs(databaseName(url));
  expect(docs).toHaveLength(2 + N + 2);
  expect(docs.filter((d) => !String(d.doc._rev).startsWith("1-"))).toEqual([]);
  expect(await tableRows(page, "entries")).toEqual(before.entries);
});
