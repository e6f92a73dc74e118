/**
 * First sync of the 10,000-entry session (lib/fixtures.mjs) to a local pouchdb-server, through the
 * UI: Settings › Sync, Connect, until the status reads "Up to date". Prints entries/s (encrypt in the
 * sync worker + replicate over HTTP) and the longest main-thread task meanwhile (a `longtask`
 * observer installed before the app's scripts; target: none over 50 ms). Numbers only.
 */
import { startCouch } from "./lib/couch.mjs";
import { seededSessions } from "./lib/fixtures.mjs";
import { ms } from "./lib/stats.mjs";

function installLongTasks() {
  const tasks = [];
  window.__groveLongTasks = tasks;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) tasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
}

export default {
  name: "sync",
  description: "first sync of a 10,000-entry history to pouchdb-server: entries/s, longest main-thread task",
  uses: ["app", "browser"],
  async run(ctx) {
    const seeded = await seededSessions(ctx);
    const entries = seeded.big.entries.length + seeded.small.entries.length;
    const { context } = await ctx.browser();
    const couch = await startCouch(ctx.root ?? process.cwd());
    const page = await context.newPage();
    try {
      await page.addInitScript(installLongTasks);
      await page.goto(`${seeded.url}/`);
      await page.locator('nav[aria-label="Sessions"]').waitFor();
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
        await page.waitForTimeout(100);
      }
      const to = await page.evaluate(() => performance.now());
      const tasks = (await page.evaluate(() => window.__groveLongTasks)).filter(
        (t) => t.start >= from && t.start <= to,
      );
      const longest = tasks.reduce((m, t) => Math.max(m, t.duration), 0);
      const seconds = (to - from) / 1000;
      ctx.log(
        `first sync of ${entries.toLocaleString("en-US")} entries: ${ms(to - from)} (${Math.round(entries / seconds).toLocaleString("en-US")} entries/s; key derivation included)`,
      );
      ctx.log(
        `main-thread tasks over 50 ms meanwhile: ${tasks.length}, longest ${tasks.length ? ms(longest) : "none"}`,
      );
      if (progressSeen) ctx.log(`a progress reading on the way: "${progressSeen}"`);
      ctx.summary(
        "sync: first sync, 10k entries",
        `${Math.round(entries / seconds)} entries/s, longest task ${tasks.length ? ms(longest) : "< 50 ms"}`,
      );
    } finally {
      await page.close();
      await couch.close();
    }
  },
};
