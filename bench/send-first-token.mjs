/**
 * Time to first token of a send, and whether it depends on the size of the tree or only on the
 * active path. Two sessions are seeded into IndexedDB: a 10-entry chat (a 10-message path) and a
 * 20,000-entry chat whose active path has only 11 entries (the rest hangs off it in side branches).
 * The app is pointed at the mock provider (a child process, see e2e/mock-server/README.md).
 *
 * One run: open the chat in a new page, wait for its leaf, type a message and press Enter; from the
 * Enter keydown's timestamp until (a) the reply placeholder (`article[aria-busy]`) is in the DOM and
 * (b) the first streamed token is on screen. The leaf is put back between runs (a blank same-origin
 * page writes `leafId`), so every run sends from the same 11-entry path.
 * "fresh tab" is the first send in a page (provider code and the worker still to load); "warm" is a
 * second send in the same page. Target: warm 20k ÷ 10 ≤ 1.5×. Numbers only, never asserted.
 *
 * A third chat has a 2,000-message path (on GPT-4.1, whose 1M window holds it: no compaction), where
 * building the context costs tens of ms a time. With the app's test hooks on, each send also reports
 * how many contexts the main thread built for it (`window.groveContextBuilds()`, read before the
 * Enter and once the send and its maintenance are over, `window.groveSending()`). Target: 1.
 */
import { launchBrowser } from "./lib/browser.mjs";
import { hashUrl } from "./lib/fixtures.mjs";
import { configureApp, control, startMock } from "./lib/mock.mjs";
import { openDbPage, seedSession } from "./lib/seed.mjs";
import { generateSession } from "./lib/session-data.mjs";
import { median, ms, ratio, spread, table } from "./lib/stats.mjs";

const FIRST_TOKEN = "BENCHTOKEN";
const SESSIONS = [
  {
    key: "small",
    label: "10-entry chat",
    id: "0190b000-0000-7000-8000-0000005e0d10",
    title: "Bench · send 10",
    seed: 11,
    total: 10,
    pathLength: 10,
    leafMarker: "BENCH-LEAF-SEND10",
  },
  {
    key: "big",
    label: "20,000-entry chat, 11-entry path",
    id: "0190b000-0000-7000-8000-0000005e0d20",
    title: "Bench · send 20k",
    seed: 12,
    total: 20_000,
    pathLength: 11,
    leafMarker: "BENCH-LEAF-SEND20K",
  },
  {
    key: "path2k",
    label: "2,000-message path (GPT-4.1)",
    id: "0190b000-0000-7000-8000-0000005e0d30",
    title: "Bench · send 2k path",
    seed: 13,
    total: 2_000,
    pathLength: 2_000,
    leafMarker: "BENCH-LEAF-SEND2K",
    model: { providerId: "openai", modelId: "gpt-4.1" },
  },
];

/**
 * In the page, before the app: Enter's timestamp, then when the placeholder and the first token
 * show. The token is looked for anywhere in the list (a reply can stream and be written before the
 * streaming row ever paints its text).
 */
function installSendProbe() {
  // The app's test hooks: `groveContextBuilds()` and `groveSending()` (src/state/app/test-hooks.ts).
  localStorage.setItem("grove.testHooks", "1");
  const probe = { enter: null, placeholder: null, token: null, expect: null };
  window.__groveSend = probe;
  document.addEventListener(
    "keydown",
    (e) => {
      if (e.key === "Enter" && probe.enter === null && e.target instanceof HTMLTextAreaElement)
        probe.enter = e.timeStamp;
    },
    true,
  );
  new MutationObserver(() => {
    if (probe.enter === null || probe.token !== null) return;
    const streaming = document.querySelector('article[aria-busy="true"]');
    const now = performance.now();
    if (streaming && probe.placeholder === null) probe.placeholder = now;
    if (probe.expect && document.querySelector(".message-scroll")?.textContent?.includes(probe.expect)) {
      probe.token = now;
      probe.placeholder ??= now;
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
}

async function resetProbe(page, expect) {
  await page.evaluate((expect) => {
    Object.assign(window.__groveSend, { enter: null, placeholder: null, token: null, expect });
  }, expect);
}

let sends = 0;

/** Contexts the app has built on the main thread so far (null: a build without the test hook). */
const contextBuilds = (page) => page.evaluate(() => window.groveContextBuilds?.() ?? null);

/**
 * Sends one message and waits until the reply and its maintenance are over; returns
 * { placeholder, token } in ms after Enter and the contexts built for the send.
 */
async function timedSend(page, mock, n) {
  const token = `${FIRST_TOKEN}${++sends}X`;
  await control(mock, "enqueue", {
    api: "openai",
    scripts: [{ chunks: [`${token} `, "and the rest of the answer."], chunkDelayMs: 1 }],
  });
  await resetProbe(page, token);
  const buildsBefore = await contextBuilds(page);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(`Bench question ${n}`);
  await box.press("Enter");
  try {
    await page.waitForFunction(() => window.__groveSend.token !== null, null, { timeout: 30_000, polling: 20 });
  } catch (e) {
    const tail = await page.evaluate(() => document.querySelector(".chat")?.textContent?.slice(-300));
    throw new Error(`no first token within 30 s (send ${n}); the chat ends with: ${tail}`, { cause: e });
  }
  const r = await page.evaluate(() => window.__groveSend);
  await page.locator('article[aria-busy="true"]').waitFor({ state: "detached", timeout: 30_000 });
  // The threshold check after the reply is part of the send: wait until the chat is released.
  await page.waitForFunction(() => !window.groveSending?.(), null, { timeout: 60_000, polling: 20 });
  const buildsAfter = await contextBuilds(page);
  return {
    placeholder: r.placeholder === null ? null : r.placeholder - r.enter,
    token: r.token - r.enter,
    builds: buildsBefore === null || buildsAfter === null ? null : buildsAfter - buildsBefore,
  };
}

/** The sends' context builds, as "1" when all agree, else each ("n/a" without the test hook). */
function buildsText(runs) {
  const counts = runs.map((r) => r.builds);
  if (counts.some((c) => c === null || c === undefined)) return "n/a";
  const distinct = [...new Set(counts)];
  return distinct.length === 1 ? String(distinct[0]) : counts.join("/");
}

export default {
  name: "send-first-token",
  description: "time to first token of a send: 10-entry chat vs. 20,000-entry chat with an 11-entry path",
  uses: ["app"],
  async run(ctx) {
    const { url } = await ctx.app();
    const mock = await startMock(ctx.root);
    const browser = await launchBrowser();
    try {
      const { context } = browser;
      const setup = await context.newPage();
      await configureApp(setup, url, mock);
      const dbPage = await openDbPage(context, url);
      const seeded = {};
      for (const s of SESSIONS) {
        const data = generateSession({ sessionId: s.id, ...s, branchEvery: 3 });
        if (s.model) data.session.model = s.model;
        await seedSession(dbPage, data);
        seeded[s.key] = { ...s, leafId: data.session.leafId };
      }
      await setup.close();
      await new Promise((r) => setTimeout(r, 1500));

      const results = {};
      for (const s of SESSIONS) {
        const fresh = [];
        const warm = [];
        for (let i = 0; i < ctx.runs(5); i++) {
          await dbPage.evaluate(
            ({ id, leafId }) => window.benchDb.table("sessions").update(id, { leafId }),
            seeded[s.key],
          );
          const page = await context.newPage();
          try {
            await page.addInitScript(installSendProbe);
            await page.goto(hashUrl(url, s.id));
            await page.locator(`.message-scroll article[aria-label*="${s.leafMarker}"]`).waitFor({ timeout: 30_000 });
            fresh.push(await timedSend(page, mock, 1));
            // Back to the 11-entry path before the warm send, in the same page.
            await dbPage.evaluate(
              ({ id, leafId }) => window.benchDb.table("sessions").update(id, { leafId }),
              seeded[s.key],
            );
            await page.locator(`.message-scroll article[aria-label*="${s.leafMarker}"]`).waitFor({ timeout: 30_000 });
            await page.waitForFunction(
              (marker) => {
                const articles = document.querySelectorAll(".message-scroll article");
                return articles[articles.length - 1]?.getAttribute("aria-label")?.includes(marker);
              },
              s.leafMarker,
              { timeout: 30_000 },
            );
            warm.push(await timedSend(page, mock, 2));
          } finally {
            await page.close();
          }
        }
        results[s.key] = { fresh, warm };
        const col = (runs, k) => runs.map((r) => r[k]).filter((v) => v !== null);
        ctx.log(`${s.label}`);
        ctx.log(`  warm  first token ${spread(col(warm, "token"))}; placeholder ${spread(col(warm, "placeholder"))}`);
        ctx.log(`  fresh first token ${spread(col(fresh, "token"))}; placeholder ${spread(col(fresh, "placeholder"))}`);
        ctx.log(`  context builds per send: warm ${buildsText(warm)}; fresh ${buildsText(fresh)}`);
      }

      const med = (key, mode, k = "token") =>
        median(results[key][mode].map((r) => r[k]).filter((v) => v !== null && v !== undefined));
      ctx.log();
      for (const line of table([
        ["", "10-entry", "20k entries, 11 on path", "ratio", "target"],
        [
          "warm send → first token",
          ms(med("small", "warm")),
          ms(med("big", "warm")),
          ratio(med("big", "warm"), med("small", "warm")),
          "≤ 1.5×",
        ],
        [
          "fresh tab → first token",
          ms(med("small", "fresh")),
          ms(med("big", "fresh")),
          ratio(med("big", "fresh"), med("small", "fresh")),
          "",
        ],
        [
          "fresh tab → placeholder",
          ms(med("small", "fresh", "placeholder")),
          ms(med("big", "fresh", "placeholder")),
          ratio(med("big", "fresh", "placeholder"), med("small", "fresh", "placeholder")),
          "",
        ],
      ])) {
        ctx.log(line);
      }
      ctx.summary(
        "send → first token, 2,000-message path",
        `warm ${ms(med("path2k", "warm"))}, fresh tab ${ms(med("path2k", "fresh"))}`,
      );
      ctx.summary(
        "context builds per send",
        SESSIONS.map((s) => `${s.key} ${buildsText([...results[s.key].warm, ...results[s.key].fresh])}`).join(", ") +
          " (target 1)",
      );
      ctx.summary(
        "send → first token (warm)",
        `10 entries ${ms(med("small", "warm"))}, 20k ${ms(med("big", "warm"))} (${ratio(med("big", "warm"), med("small", "warm"))}, target ≤ 1.5×)`,
      );
      ctx.summary(
        "send → first token (fresh tab)",
        `10 entries ${ms(med("small", "fresh"))}, 20k ${ms(med("big", "fresh"))}; placeholder ${ms(med("small", "fresh", "placeholder"))} / ${ms(med("big", "fresh", "placeholder"))}`,
      );
      await dbPage.close();
    } finally {
      await browser.close();
      await mock.stop();
    }
  },
};
