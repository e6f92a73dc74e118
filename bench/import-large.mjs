/**
 * Importing a 100 MB ChatGPT `conversations.json` through the UI, and whether the page stays
 * responsive meanwhile. The file is generated here into the OS temp dir (never committed):
 * conversations of ~50 messages of prose, some with a regenerated answer (a fork), in ChatGPT's
 * `mapping` tree shape. The app imports it from the "Import file" input in a fresh Chromium profile.
 *
 * Printed: the file's size and shape; when the dialog first showed bytes read, when reading ended
 * ("Checking…"), when writing started and ended (the "Imported … chats" report); rows written per
 * second; and on the main thread, the long tasks (> 50 ms) and the longest gap between animation
 * frames during the import — a frozen page would show one gap as long as the parse. Finally the
 * entry count read back from IndexedDB. Numbers only, never asserted.
 */
import { createWriteStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchBrowser } from "./lib/browser.mjs";
import { countEntries } from "./lib/seed.mjs";
import { ms } from "./lib/stats.mjs";

const TARGET_BYTES = 100 * 1024 * 1024;
const MESSAGES_PER_CONVERSATION = 50;
const WORDS_PER_MESSAGE = 160;

const VOCABULARY = (
  "river copper lantern meadow orbit harbor velvet quarry summit glacier ember falcon timber canyon " +
  "mosaic prairie beacon thistle cobalt marble saddle willow garnet compass ledger pepper voyage " +
  "orchard basalt cinder plume tundra quiver jasmine anchor bramble crater drift fennel granite"
).split(" ");

/** Writes the file; resolves to { path, bytes, conversations, messages }. */
export async function generate(quick) {
  const path = join(tmpdir(), `grove-bench-conversations-${process.pid}.json`);
  const target = quick ? TARGET_BYTES / 10 : TARGET_BYTES;
  const out = createWriteStream(path);
  const write = (s) => (out.write(s) ? Promise.resolve() : new Promise((r) => out.once("drain", r)));
  let seed = 7;
  const word = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return VOCABULARY[seed % VOCABULARY.length];
  };
  const prose = (n) => {
    const w = [];
    for (let i = 0; i < n; i++) w.push(i % 14 === 13 ? `${word()}.` : word());
    return w.join(" ");
  };
  let bytes = 1;
  let conversations = 0;
  let messages = 0;
  await write("[");
  while (bytes < target) {
    const t0 = 1_700_000_000 + conversations * 3600;
    const mapping = { root: { id: "root", message: null, parent: null, children: [] } };
    let parent = "root";
    for (let i = 0; i < MESSAGES_PER_CONVERSATION; i++) {
      const id = `c${conversations}-m${i}`;
      const role = i % 2 === 0 ? "user" : "assistant";
      mapping[id] = {
        id,
        parent,
        children: [],
        message: {
          id,
          author: { role },
          create_time: t0 + i * 30,
          content: {
            content_type: "text",
            parts: [prose(role === "user" ? WORDS_PER_MESSAGE / 4 : WORDS_PER_MESSAGE)],
          },
          status: "finished_successfully",
          metadata: role === "assistant" ? { model_slug: "gpt-4o" } : {},
        },
      };
      mapping[parent].children.push(id);
      messages++;
      // Every tenth answer was regenerated once: a second child of the same question.
      if (role === "assistant" && i % 10 === 9) {
        const alt = `${id}-alt`;
        mapping[alt] = { ...mapping[id], id: alt, children: [], message: { ...mapping[id].message, id: alt } };
        mapping[parent].children.push(alt);
        messages++;
      }
      parent = id;
    }
    const conv = {
      title: `Bench conversation ${conversations + 1}: ${prose(4)}`,
      create_time: t0,
      update_time: t0 + MESSAGES_PER_CONVERSATION * 30,
      mapping,
      current_node: parent,
    };
    const text = (conversations === 0 ? "" : ",") + JSON.stringify(conv);
    bytes += Buffer.byteLength(text);
    conversations++;
    await write(text);
  }
  await write("]");
  await new Promise((resolve, reject) => out.end((e) => (e ? reject(e) : resolve())));
  return { path, bytes: (await stat(path)).size, conversations, messages };
}

/** In the page before the app: long tasks, frame gaps, and when the import dialog's text changed. */
function installProbe() {
  const probe = { tasks: [], marks: [], maxGap: 0, gapAt: 0, running: false, lastFrame: 0 };
  window.__importProbe = probe;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) probe.tasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
  const frame = (t) => {
    if (probe.running && probe.lastFrame && t - probe.lastFrame > probe.maxGap) {
      probe.maxGap = t - probe.lastFrame;
      probe.gapAt = probe.lastFrame;
    }
    probe.lastFrame = t;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  let last = "";
  new MutationObserver(() => {
    const dialog = document.querySelector('[role="dialog"]');
    // The result is the import report beside the chat (issue 26), a notice before it.
    const notice = [...document.querySelectorAll('.import-report [role="status"], .notices *')].find((n) =>
      n.textContent?.startsWith("Imported "),
    );
    const text = notice
      ? `done: ${notice.textContent}`
      : (dialog?.querySelector(".import-progress")?.textContent ?? "");
    if (text && text !== last) {
      last = text;
      probe.marks.push({ at: performance.now(), text });
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
}

export default {
  name: "import-large",
  description: "100 MB ChatGPT conversations.json imported through the UI: phases, rows/s, main-thread responsiveness",
  uses: ["app"],
  async run(ctx) {
    const { url } = await ctx.app();
    const t0 = performance.now();
    const file = await generate(ctx.options.quick);
    ctx.log(
      `file      ${(file.bytes / 2 ** 20).toFixed(1)} MB: ${file.conversations.toLocaleString("en")} conversations, ` +
        `${file.messages.toLocaleString("en")} messages (generated in ${ms(performance.now() - t0)})`,
    );
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      await page.addInitScript(installProbe);
      await page.goto(`${url}/`);
      await page.getByRole("button", { name: "Import", exact: true }).waitFor();
      await page.waitForTimeout(1000);

      const start = await page.evaluate(() => {
        window.__importProbe.running = true;
        return performance.now();
      });
      await page.getByLabel("Import file").setInputFiles(file.path);
      await page.getByText(/^Imported \d[\d,]* chats/).waitFor({ timeout: 600_000 });
      const probe = await page.evaluate(() => {
        window.__importProbe.running = false;
        return window.__importProbe;
      });
      const entries = await countEntries(page);

      const at = (test) => probe.marks.find((m) => test(m.text))?.at;
      const firstRead = at((t) => /B of [\d.]+ [KMG]?B read/.test(t));
      const checking = at((t) => t.includes("Checking"));
      const writing = at((t) => t.includes("entries written"));
      const done = at((t) => t.startsWith("done:"));
      const rel = (x) => (x === undefined ? "—" : ms(x - start));
      ctx.log(
        `phases    first progress ${rel(firstRead)}; reading done (checking) ${rel(checking)}; writing from ${rel(writing)}; done ${rel(done)}`,
      );
      const writeMs = done !== undefined && writing !== undefined ? done - writing : Number.NaN;
      ctx.log(
        `rows      ${entries.toLocaleString("en")} entries in IndexedDB; written at ${Math.round(entries / (writeMs / 1000)).toLocaleString("en")} entries/s`,
      );
      const during = probe.tasks.filter((t) => t.start >= start && t.start <= (done ?? Number.POSITIVE_INFINITY));
      const longest = during.length ? Math.max(...during.map((t) => t.duration)) : 0;
      ctx.log(
        `main      ${during.length} long task(s) during the import, longest ${during.length ? ms(longest) : "none"}; ` +
          `longest gap between frames ${ms(probe.maxGap)} (at ${ms(probe.gapAt - start)})`,
      );
      ctx.log(`progress  ${probe.marks.length} distinct progress texts shown`);

      // Export all, the way back: Settings → "Export all", until the download starts.
      await page.getByRole("button", { name: "Settings" }).click();
      const exportStart = await page.evaluate(() => {
        const p = window.__importProbe;
        p.maxGap = 0;
        p.lastFrame = 0;
        p.running = true;
        return performance.now();
      });
      const [download] = await Promise.all([
        page.waitForEvent("download", { timeout: 600_000 }),
        page.getByRole("button", { name: "Export all" }).click(),
      ]);
      const exported = await page.evaluate(() => {
        const p = window.__importProbe;
        p.running = false;
        return { at: performance.now(), maxGap: p.maxGap, tasks: p.tasks };
      });
      const exportBytes = (await stat(await download.path())).size;
      const exportTasks = exported.tasks.filter((t) => t.start >= exportStart);
      ctx.log(
        `export all ${(exportBytes / 2 ** 20).toFixed(1)} MB in ${ms(exported.at - exportStart)}; ` +
          `longest main-thread task ${exportTasks.length ? ms(Math.max(...exportTasks.map((t) => t.duration))) : "none"}, ` +
          `longest frame gap ${ms(exported.maxGap)}`,
      );
      const size = `${Math.round(file.bytes / 2 ** 20)} MB`;
      ctx.summary(`import ${size} ChatGPT export, total`, rel(done));
      ctx.summary(`import ${size}, longest frame gap`, ms(probe.maxGap));
    } finally {
      await browser.close();
      await rm(file.path, { force: true });
    }
  },
};
