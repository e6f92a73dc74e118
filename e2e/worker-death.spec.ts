/**
 * Dead workers do not hang the UI (issue 9, hardening 8). The page ends a worker the way a crash
 * or an out-of-memory kill would: `worker.terminate()` through a test-only hook (present only with
 * localStorage `grove.testHooks` = "1"), which fires no event at all. The app must notice, fail the
 * operation with a plain message, write nothing, and start a new worker for the next call.
 */
import type { Page } from "@playwright/test";
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
import { expect, type MockServer, test } from "./fixtures";
import { openSeeded, seed, TRIP, tripRows } from "./seed";

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("grove.testHooks", "1"));
});

type Hooks = { groveKillCompactionWorker?: () => void; groveKillTransferWorker?: () => void };

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
  await expect(dialog.getByRole("alert")).toContainText("The background worker stopped unexpectedly");
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
  await expect(dialog.getByRole("alert")).toContainText("The background worker stopped unexpectedly");
  await expect(dialog).toContainText("Nothing was imported");
  await page.screenshot({ path: "test-results/worker-death/import-killed.png" });
  await dialog.getByRole("button", { name: "OK" }).click();
  expect(await dbSnapshot(page)).toEqual(snapshot);
});
