/**
 * Start light (issue 25 item 1–2): a fresh tab opening a 2-message chat fetches no worker, no
 * tokenizer table and no precache before its first screen is shown and idle (the app marks that
 * moment `grove:first-screen-idle`, state/app/first-screen.ts); each comes when it is needed: the
 * meter's count (≈ estimate first, then the exact count), the search worker, the service worker.
 *
 * Each watched request is held by a route while the page is asked whether the mark is set: a
 * request made before the first screen was idle finds it unset (the check can only err towards
 * "after", never fail a request that really came after).
 *
 * And the first screen's code (what the build lists in `.vite/first-screen.json`, gzip-compressed:
 * bench/lib/entry-size.mjs) stays within its budget, without the parts it does not show.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { entrySize } from "../bench/lib/entry-size.mjs";
import { meterBox, openConfigured } from "./app";
import { expect, test } from "./fixtures";
import { msg, openSeeded, type Row, seed, T0 } from "./seed";

test.use({ serviceWorkers: "allow" });

const CHAT = "0196a000-0000-7000-8000-0000000c0a01";
const e = (n: string) => `${CHAT.slice(0, 24)}c${n.padStart(11, "0")}`;

function twoMessages(): { sessions: Row[]; entries: Row[] } {
  return {
    sessions: [
      {
        id: CHAT,
        title: "Light start",
        titleSource: "user",
        createdAt: T0,
        updatedAt: T0 + 2 * 60_000,
        leafId: e("2"),
        model: { providerId: "openai", modelId: "gpt-4o" },
      },
    ],
    entries: [
      msg(e("1"), CHAT, null, 1, "user", "What is the capital of Portugal?"),
      msg(e("2"), CHAT, e("1"), 2, "assistant", "Lisbon is the capital of Portugal."),
    ],
  };
}

/** What the watched requests are, by their file. */
const WATCHED: Record<string, RegExp> = {
  "compaction worker": /\/assets\/compaction\.worker-[^/]*\.js$/,
  "search worker": /\/assets\/search\.worker-[^/]*\.js$/,
  "o200k tokenizer table": /\/assets\/o200k_base-[^/]*\.js$/,
  "service worker": /\/sw\.js$/,
  precache: /\/assets\/KaTeX_[^/]*\.woff2$/,
};

type Seen = { what: string; url: string; afterFirstScreen: boolean; fromServiceWorker: boolean };

const firstScreenIdle = (page: Page) =>
  page.evaluate(() => performance.getEntriesByName("grove:first-screen-idle").length > 0).catch(() => false);

test("a cold open fetches no worker, tokenizer or precache before its first screen; each loads when needed", async ({
  page,
  context,
  mock,
}) => {
  // A tokenizer table parsed and a whole build precached on a shared machine.
  test.slow();
  await openConfigured(page, mock, { model: { provider: "openai", id: "gpt-4o" } });
  await seed(page, twoMessages());
  // A fresh start: the service worker the first load registered is gone, and so is its cache.
  await page.evaluate(async () => {
    for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
    for (const k of await caches.keys()) await caches.delete(k);
  });

  let watching = false;
  const seen: Seen[] = [];
  await context.route(
    (url) => Object.values(WATCHED).some((re) => re.test(url.pathname)),
    async (route) => {
      const request = route.request();
      if (watching) {
        const what = Object.entries(WATCHED).find(([, re]) => re.test(new URL(request.url()).pathname))?.[0] ?? "";
        seen.push({
          what,
          url: request.url(),
          afterFirstScreen: await firstScreenIdle(page),
          fromServiceWorker: request.serviceWorker() !== null,
        });
      }
      await route.continue();
    },
  );

  watching = true;
  await openSeeded(page, CHAT);
  const last = page.getByRole("article", { name: /^Assistant message: Lisbon/ });
  await expect(last).toBeVisible();
  // The meter shows the estimate, said to be one, until the count comes.
  const meterText = meterBox(page).locator(".meter-text");
  await expect(meterText).toBeVisible();

  await expect.poll(() => firstScreenIdle(page)).toBe(true);
  // A count is needed (the meter): the compaction worker and its table load, and the meter turns exact.
  await expect(meterText).not.toContainText("≈", { timeout: 30_000 });
  // The search worker started once the first screen was idle; a search answers.
  await page.getByRole("searchbox", { name: "Search chats" }).fill("Lisbon");
  await expect(page.getByRole("listbox", { name: "Search results" }).getByRole("option")).not.toHaveCount(0);
  // The service worker is registered after the first screen and precaches then.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

  const kinds = new Set(seen.map((s) => s.what));
  expect([...kinds].sort()).toEqual(
    ["compaction worker", "o200k tokenizer table", "search worker", "service worker", "precache"].sort(),
  );
  expect(seen.filter((s) => !s.afterFirstScreen)).toEqual([]);
});

/** The first screen's code, gzip (docs/decisions.md: React's floor is ~120 kB; what draws the first screen, the rest). */
const FIRST_SCREEN_BUDGET = 190_000;

/**
 * Parts that show only when something happened, each a chunk of its own (ui/lazy-reports.tsx,
 * chat/lazy-chat.tsx, chat/lazy-rows.tsx, chat/lazy-tools.tsx, chat/lazy-pins.tsx, sessions/lazy-sessions.tsx). A static import of one
 * would fold it into a first-screen chunk: no file of its own.
 */
const ON_DEMAND = [
  "Notices",
  "ImportReport",
  "ToolLoopContinue",
  "RowFailed",
  "DraftFailed",
  "EndNotice",
  "PromotionNotice",
  "MaintenanceBar",
  "AttachmentTray",
  "BulkDelete",
  "CompactionRow",
  "SummaryCards",
  "AgentEntryViews",
  "PinnedPassages",
  "PassagePinButton",
  "ChatInfoDialog",
];

test("the first screen's code is at most 190 kB gzip, and what it does not show is not in it", () => {
  const outDir = process.env.GROVE_E2E_OUTDIR || "dist";
  const entry = entrySize(outDir);
  expect(entry.gzip).toBeLessThanOrEqual(FIRST_SCREEN_BUDGET);
  const chunks = readdirSync(join(outDir, "assets"));
  const firstScreen = entry.files.map((f) => f.file.replace(/^\/assets\//, ""));
  for (const part of ON_DEMAND) {
    const own = chunks.filter((f) => f.startsWith(`${part}-`) && f.endsWith(".js"));
    expect(own, `${part} has a chunk of its own`).toHaveLength(1);
    expect(firstScreen, `${part} is not on the first screen`).not.toContain(own[0]);
  }
});
