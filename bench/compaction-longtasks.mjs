/**
 * The longest main-thread task while a compaction runs. A 400-message session (~300 words each)
 * is seeded into IndexedDB, the app is pointed at the mock provider server (a child process, see
 * e2e/mock-server/README.md) with model openai::gpt-4o, the session is opened and compacted from
 * the header ("Compact" → "Compact conversation" → "Compact now") while the mock streams the
 * summary slowly. A `PerformanceObserver({ type: "longtask", buffered: true })` installed before
 * the app's scripts records every long task (> 50 ms); the ones that start after the click on
 * "Compact now" and before the compaction card (`article` "Compaction summary…") is in the DOM are
 * printed: count, longest, total, next to the compaction's wall time. Numbers only, never asserted.
 *
 * Runs in its own fresh Chromium profile (not the shared ctx.browser() one): the settings written
 * here (base URLs to a mock that is stopped afterwards) stay out of the other benches' profile, and
 * the page's observer starts with nothing from earlier pages.
 */
import { launchBrowser } from "./lib/browser.mjs";
import { hashUrl } from "./lib/fixtures.mjs";
import { configureApp, control, startMock } from "./lib/mock.mjs";
import { openDbPage, seedSession } from "./lib/seed.mjs";
import { ms } from "./lib/stats.mjs";

const MESSAGES = 400;
const WORDS_PER_MESSAGE = 300;
const SUMMARY_CHUNKS = 40;
const CHUNK_DELAY_MS = 30;
/** Long tasks just after the end (the chat re-rendering with the card) are printed apart. */
const AFTER_MS = 1000;
const SESSION = {
  id: "0190b000-0000-7000-8000-0000000c0a11",
  title: "Bench · compaction long tasks",
  leafMarker: "BENCH-LEAF-COMPACT",
};
/** First words of prompts/compaction-system.md / compaction-short.md (as in e2e/compaction-helpers.ts). */
const SUMMARIZER_SYSTEM = "You write context summaries";
const SHORT_SUMMARY = "Write a single line of at most 120 characters";

const VOCABULARY = (
  "river copper lantern meadow orbit harbor velvet quarry summit glacier ember falcon timber canyon " +
  "mosaic prairie beacon thistle cobalt marble saddle willow garnet compass ledger pepper voyage " +
  "orchard basalt cinder plume tundra quiver jasmine anchor bramble crater drift fennel granite"
).split(" ");

/** A linear session of `MESSAGES` plain-prose messages (user first), in the app's row shapes. */
function generate() {
  let seed = 12_345;
  const word = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return VOCABULARY[seed % VOCABULARY.length];
  };
  const startMs = Date.UTC(2025, 0, 7, 9, 0, 0);
  const entries = [];
  for (let i = 0; i < MESSAGES; i++) {
    const createdAt = startMs + i * 60_000;
    const t = createdAt.toString(16).padStart(12, "0");
    const id = `${t.slice(0, 8)}-${t.slice(8, 12)}-7000-8000-${i.toString(16).padStart(12, "0")}`;
    const role = i % 2 === 0 ? "user" : "assistant";
    const words = [];
    for (let w = 0; w < WORDS_PER_MESSAGE; w++) words.push(w % 12 === 11 ? `${word()}.` : word());
    const text = `${i === MESSAGES - 1 ? `${SESSION.leafMarker} ` : ""}(${i}) ${words.join(" ")}`;
    const base = { id, sessionId: SESSION.id, parentId: entries[i - 1]?.id ?? null, createdAt, type: "message", role };
    entries.push(
      role === "user"
        ? { ...base, status: "complete", content: [{ type: "text", text }] }
        : {
            ...base,
            status: "complete",
            content: [{ type: "text", text }],
            provider: "openai",
            api: "openai-chat",
            model: "gpt-4o",
            usage: { input: 1000 + i * 400, output: 400 },
            stopReason: "end",
          },
    );
  }
  const leaf = entries[entries.length - 1];
  const session = {
    id: SESSION.id,
    title: SESSION.title,
    titleSource: "user",
    createdAt: startMs,
    updatedAt: leaf.createdAt,
    leafId: leaf.id,
  };
  return { session, entries };
}

/** In the page before the app: every long task, and when the click / dialog / card happened. */
function installLongTaskProbe() {
  const probe = { tasks: [], click: null, cardAt: null, dialogGoneAt: null };
  window.__longTasks = probe;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) probe.tasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
  document.addEventListener(
    "click",
    (e) => {
      if (
        probe.click === null &&
        e.target instanceof Element &&
        e.target.closest("button")?.textContent === "Compact now"
      )
        probe.click = e.timeStamp;
    },
    true,
  );
  new MutationObserver(() => {
    if (probe.click === null) return;
    const now = performance.now();
    if (probe.cardAt === null && document.querySelector('article[aria-label^="Compaction summary"]'))
      probe.cardAt = now;
    if (probe.dialogGoneAt === null && !document.querySelector('[role="dialog"]')) probe.dialogGoneAt = now;
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["aria-label"] });
}

export default {
  name: "compaction-longtasks",
  description: "400-message session compacted from the header: longest main-thread task while it runs",
  uses: ["app", "browser"],
  async run(ctx) {
    const { url } = await ctx.app();
    const mock = await startMock(ctx.root);
    const browser = await launchBrowser();
    try {
      const { context } = browser;

      // 1. Configure like e2e/app.ts openConfigured (+ automatic compaction off, so only the click compacts).
      const setup = await context.newPage();
      await configureApp(setup, url, mock, { automaticCompaction: false });

      // 2. Seed the session straight into IndexedDB.
      const data = generate();
      const chars = data.entries.reduce((s, e) => s + e.content[0].text.length, 0);
      const dbPage = await openDbPage(context, url);
      const seedMs = await seedSession(dbPage, data);
      await dbPage.close();
      await setup.close();
      ctx.log(
        `session   ${MESSAGES} messages × ${WORDS_PER_MESSAGE} words (${(chars / 1e3).toFixed(0)}k chars), seeded in ${ms(seedMs)}; model openai::gpt-4o on the mock`,
      );

      // 3. Open it in a fresh page with the observer, let the open settle (token counts etc.).
      const page = await context.newPage();
      await page.addInitScript(installLongTaskProbe);
      await page.goto(hashUrl(url, SESSION.id));
      await page.locator(`.message-scroll article[aria-label*="${SESSION.leafMarker}"]`).waitFor({ timeout: 20_000 });
      // Compact is an item of the chat's header menu ("Chat actions").
      const chatMenu = page.getByRole("button", { name: "Chat actions" });
      await chatMenu.waitFor();
      await page.waitForTimeout(2000);
      const beforeClick = await page.evaluate(() => window.__longTasks.tasks.length);

      // 4. The summarizer's replies: a quick short summary, slow streamed digests for the rest.
      const chunks = Array.from(
        { length: SUMMARY_CHUNKS },
        (_, i) =>
          `${i === 0 ? "## Standing facts & constraints\n\n" : ""}- Point ${i + 1}: the river and the copper lantern. `,
      );
      const slow = { chunks, chunkDelayMs: CHUNK_DELAY_MS, match: { system: SUMMARIZER_SYSTEM } };
      await control(mock, "enqueue", {
        api: "openai",
        scripts: [
          {
            text: "Bench compaction of a long prose chat",
            match: { system: SUMMARIZER_SYSTEM, lastUser: SHORT_SUMMARY },
          },
          slow,
          slow,
          slow,
          slow,
          slow,
          slow,
        ],
      });
      await fetch(`${mock.url}/__mock/requests`, { method: "DELETE" });

      // 5. Compact; wait for the card.
      await chatMenu.click();
      await page.getByRole("menuitem", { name: "Compact", exact: true }).click();
      const compactDialog = page.getByRole("dialog", { name: "Compact conversation" });
      await compactDialog.waitFor();
      await compactDialog.getByRole("button", { name: "Compact now" }).click();
      await compactDialog.waitFor({ state: "hidden", timeout: 45_000 });
      let cardInDom = true;
      try {
        await page.waitForFunction(() => window.__longTasks.cardAt !== null, null, { timeout: 3000 });
      } catch {
        cardInDom = false;
      }
      await page.waitForTimeout(AFTER_MS);
      const probe = await page.evaluate(() => window.__longTasks);
      // The list is virtualized: the card sits at the cut point, usually far above the viewport.
      // Scroll up to it (after the measurement) to confirm that it exists.
      const cardName = await page.evaluate(async () => {
        const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const scroller = document.querySelector(".message-scroll");
        const find = () => document.querySelector('article[aria-label^="Compaction summary"]');
        for (let i = 0; i < 2000 && scroller && !find(); i++) {
          if (scroller.scrollTop <= 0) break;
          scroller.scrollTop = Math.max(0, scroller.scrollTop - scroller.clientHeight);
          await frame();
        }
        return find()?.getAttribute("aria-label") ?? null;
      });
      if (!cardName) throw new Error("no compaction card in the chat after the compaction");
      const requests = await control(mock, "requests?api=openai");
      const summarizerCalls = requests.filter(
        (r) => r.method === "POST" && JSON.stringify(r.body).includes(SUMMARIZER_SYSTEM),
      ).length;
      await page.close();

      if (probe.click === null) throw new Error("the click on Compact now was not seen in the page");
      const end = probe.cardAt ?? probe.dialogGoneAt;
      const during = probe.tasks.filter((t) => t.start >= probe.click && t.start < end);
      const durations = during.map((t) => t.duration);
      const longest = durations.length ? Math.max(...durations) : Number.NaN;
      const total = durations.reduce((a, b) => a + b, 0);
      const longestText = durations.length ? ms(longest) : "none (no task over 50 ms)";
      const wall = end - probe.click;
      const after = probe.tasks.filter((t) => t.start >= end && t.start < end + AFTER_MS);

      ctx.log(
        `summary   ${summarizerCalls} summarizer call(s); digests streamed as ${SUMMARY_CHUNKS} chunks × ${CHUNK_DELAY_MS} ms`,
      );
      ctx.log(
        `compaction wall time ${ms(wall)} (click on "Compact now" → ${cardInDom ? "compaction card in the DOM" : "dialog closed (card not rendered: virtualized, above the viewport)"})`,
      );
      ctx.log(
        `long tasks (> 50 ms) meanwhile: ${during.length}; longest ${longestText}; total ${ms(total)}` +
          ` (${beforeClick} long task(s) before the click, during load/open, not counted)`,
      );
      ctx.log(
        `          in the ${AFTER_MS} ms after: ${after.length} long task(s)` +
          (after.length ? `, longest ${ms(Math.max(...after.map((t) => t.duration)))}` : "") +
          `; card found by scrolling up: "${cardName.slice(0, 70)}"`,
      );
      if (during.length)
        ctx.log(
          `          at (ms after the click): ${during.map((t) => `${Math.round(t.start - probe.click)}+${Math.round(t.duration)}`).join(", ")}`,
        );
      ctx.summary(
        "compaction, longest main-thread task",
        `${longestText} (${during.length} long tasks, ${ms(total)} total)`,
      );
      ctx.summary("compaction wall time (400 msgs)", ms(wall));
    } finally {
      await browser.close();
      await mock.stop();
    }
  },
};
