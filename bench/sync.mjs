/**
 * First sync to a local pouchdb-server, through the UI: Settings › Sync, Connect, until the status
 * reads "Up to date". Prints entries/s (key derivation, encryption in the sync worker, HTTP
 * replication) and the main-thread long tasks meanwhile (a `longtask` observer installed before the
 * app's scripts; target: none over 50 ms). Numbers only.
 * - `sync`: the seeded 10,000-entry session (lib/fixtures.mjs);
 * - `sync-large` (opt-in): the 100 MB ChatGPT export of `import-large`, imported through the UI
 *   first (`--quick`: the 10 MB one).
 */
import { rm } from "node:fs/promises";
import { startCouchServer } from "../scripts/couch-server.mjs";
import { generate } from "./import-large.mjs";
import { launchBrowser } from "./lib/browser.mjs";
import { seededSessions } from "./lib/fixtures.mjs";
import { installLongTasks, readLongTasks } from "./lib/probe.mjs";
import { countEntries } from "./lib/seed.mjs";
import { ms } from "./lib/stats.mjs";

/** Connects the open app page (longtask observer installed) to a fresh database and waits for "Up to date". */
async function firstSync(ctx, page, couch, label) {
  const entries = await countEntries(page);
  await page.getByRole("button", { name: "Settings" }).click();
  const region = page.getByRole("dialog", { name: "Settings" }).getByRole("region", { name: "Sync" });
  await region.getByRole("textbox", { name: "Server URL" }).fill(`${couch.url}/bench-${Date.now()}`);
  await region.getByLabel("Sync passphrase").fill("bench passphrase");
  const from = await page.evaluate(() => performance.now());
  await region.getByRole("button", { name: "Connect" }).click();
  const status = region.getByRole("status");
  let progressSeen = "";
  for (;;) {
    const text = await status.innerText();
    if (/^Up to date/.test(text)) break;
    if (/ of /.test(text)) progressSeen = text;
    const problem = region.getByRole("alert");
    if (await problem.count()) throw new Error(`sync failed: ${await problem.innerText()}`);
    await page.waitForTimeout(200);
  }
  const to = await page.evaluate(() => performance.now());
  const tasks = (await readLongTasks(page)).filter((t) => t.start >= from && t.start <= to);
  const longest = tasks.reduce((m, t) => Math.max(m, t.duration), 0);
  const rate = Math.round(entries / ((to - from) / 1000));
  ctx.log(
    `first sync of ${entries.toLocaleString("en-US")} entries: ${ms(to - from)} (${rate.toLocaleString("en-US")} entries/s; key derivation included)`,
  );
  ctx.log(`main-thread tasks over 50 ms meanwhile: ${tasks.length}, longest ${tasks.length ? ms(longest) : "none"}`);
  if (progressSeen) ctx.log(`a progress reading on the way: "${progressSeen}"`);
  ctx.summary(
    `sync: first sync, ${label}`,
    `${rate} entries/s, longest task ${tasks.length ? ms(longest) : "< 50 ms"}`,
  );
}

export default {
  name: "sync",
  description: "first sync of a 10,000-entry history to pouchdb-server: entries/s, longest main-thread task",
  uses: ["app", "browser"],
  async run(ctx) {
    const seeded = await seededSessions(ctx);
    const { context } = await ctx.browser();
    const couch = await startCouchServer({
      port: Number(process.env.GROVE_BENCH_COUCH_PORT) || undefined,
      root: ctx.root ?? process.cwd(),
      tmpPrefix: "grove-bench-couch-",
    });
    const page = await context.newPage();
    try {
      await page.addInitScript(installLongTasks);
      await page.goto(`${seeded.url}/`);
      await page.locator('nav[aria-label="Sessions"]').waitFor();
      await firstSync(ctx, page, couch, "10k entries");
    } finally {
      await page.close();
      await couch.close();
    }
  },
};

export const syncLarge = {
  name: "sync-large",
  optIn: true,
  description: "first sync of the 100 MB import bench's history (imported through the UI first)",
  uses: ["app"],
  async run(ctx) {
    const { url } = await ctx.app();
    const file = await generate(ctx.options.quick);
    const browser = await launchBrowser();
    const couch = await startCouchServer({
      port: Number(process.env.GROVE_BENCH_COUCH_PORT) || undefined,
      root: ctx.root ?? process.cwd(),
      tmpPrefix: "grove-bench-couch-",
    });
    try {
      const page = await browser.context.newPage();
      await page.addInitScript(installLongTasks);
      await page.goto(`${url}/`);
      await page.getByRole("button", { name: "Import", exact: true }).waitFor();
      await page.getByLabel("Import file").setInputFiles(file.path);
      await page.getByText(/^Imported \d[\d,]* chats/).waitFor({ timeout: 600_000 });
      ctx.log(`imported ${(file.bytes / 2 ** 20).toFixed(1)} MB (${file.messages.toLocaleString("en")} messages)`);
      await firstSync(ctx, page, couch, `${Math.round(file.bytes / 2 ** 20)} MB import history`);
    } finally {
      await browser.close();
      await couch.close();
      await rm(file.path, { force: true });
    }
  },
};
