/**
 * Open a 10,000-entry session (2,000-message active path plus branches) and compare with the raw
 * IndexedDB read of the same entries, in the same run:
 *  1. raw Dexie read: `entries.where('sessionId').equals(id).toArray()` in a blank same-origin page;
 *  2. cold open: load the app with `#/s/<id>`, from navigation start until the leaf `article` is in
 *     the DOM; warm open: from the click on the session in the "Sessions" list (coming from another
 *     session) until the leaf `article` is in the DOM;
 *  3. both side by side with the ratio (target: open ≤ 2× raw read).
 *
 * Warm opens wait out Dexie's liveQuery cache first (it keeps a query's result for 3 s after its
 * last subscriber leaves), so each one reads IndexedDB like a real switch does. A quick re-open
 * (back within 3 s) is timed separately: when the app's query is cachable, Dexie answers it from
 * memory and it shows the cost of everything but the read; the output says whether it read.
 */
import { articleWith, hashUrl, seededSessions } from "./lib/fixtures.mjs";
import { installIdbProbe, installOpenProbe, readOpenProbe } from "./lib/probe.mjs";
import { rawRead } from "./lib/seed.mjs";
import { median, ms, ratio, spread, table } from "./lib/stats.mjs";

const QUIET_MS = 300;
const PAUSE_MS = 300;
/** Dexie keeps an unsubscribed liveQuery result for 3,000 ms (enqueForDeletion in dexie's cache middleware). */
const DEXIE_CACHE_EXPIRY_MS = 3500;

const fmtInt = (n) => n.toLocaleString("en-US");
const pause = (t = PAUSE_MS) => new Promise((r) => setTimeout(r, t));
const col = (runs, key) => runs.map((r) => r[key]).filter((v) => v !== null && v !== undefined);
const med = (runs, key) => ms(median(col(runs, key)));
const after = (runs) => runs.filter((r) => r.readEnd !== null).map((r) => r.leaf - r.readEnd);

/** One cold open in a fresh page: navigation start → leaf article in the DOM (and more, see probe.mjs). */
export async function coldOpen(context, url, big) {
  const page = await context.newPage();
  try {
    await page.addInitScript(installIdbProbe);
    await page.addInitScript(installOpenProbe, {
      leafSelector: articleWith(big.leafMarker),
      mode: "navigation",
      quietMs: QUIET_MS,
    });
    await page.goto(hashUrl(url, big.id));
    const probe = await readOpenProbe(page);
    const dcl = await page.evaluate(
      () => performance.getEntriesByType("navigation")[0]?.domContentLoadedEventEnd ?? null,
    );
    return { ...probe, dcl };
  } finally {
    await page.close();
  }
}

const sessionLink = (page, title) => page.locator('nav[aria-label="Sessions"] a', { hasText: title });

/** Click `target` in the Sessions list and time it until its leaf article is in the DOM. */
export async function clickOpen(page, target) {
  await page.evaluate(installOpenProbe, {
    leafSelector: articleWith(target.leafMarker),
    mode: "click",
    quietMs: QUIET_MS,
  });
  await sessionLink(page, target.title).click();
  return readOpenProbe(page);
}

/** Back to the small session, until the big one's rows are gone. */
export async function backTo(page, small, big) {
  await sessionLink(page, small.title).click();
  await page.locator(articleWith(small.leafMarker)).waitFor();
  await page.locator(articleWith(big.leafMarker)).waitFor({ state: "detached" });
}

export default {
  name: "open-session",
  description: "10,000-entry session: raw Dexie read vs. opening it in the app (cold and warm)",
  uses: ["app", "browser"],
  async run(ctx) {
    const seeded = await seededSessions(ctx);
    const { big, small, stats, url } = seeded;
    const { context } = await ctx.browser();

    ctx.log(
      `session   ${fmtInt(stats.entries)} entries: ${fmtInt(stats.pathLength)} on the active path, ` +
        `${fmtInt(stats.alternatives)} alternative subtrees on ${fmtInt(stats.branchPoints)} branch points ` +
        `(deepest ${stats.deepestBranch}); ${(stats.textChars / 1e6).toFixed(1)} M chars of text, ` +
        `${(stats.jsonBytes / 2 ** 20).toFixed(1)} MiB as JSON; ${fmtInt(stats.withCode)} entries with code blocks`,
    );
    ctx.log(`seeded    in one rw transaction: ${ms(seeded.seedMs)} (generated in Node: ${ms(seeded.genMs)})`);

    // 1. Raw read.
    const read = await rawRead(seeded.dbPage, big.id, ctx.runs(9) + 1);
    if (read.count !== stats.entries)
      throw new Error(`raw read returned ${read.count} rows, expected ${stats.entries}`);
    const [firstRead, ...readTimes] = read.times;
    const rawMedian = median(readTimes);
    ctx.log(`raw read  ${spread(readTimes)}; first read ${ms(firstRead)} (not counted)`);

    // 2a. Cold opens (one untimed first load warms the HTTP and code caches).
    const coldWarmup = await coldOpen(context, url, big);
    const cold = [];
    for (let i = 0; i < ctx.runs(7); i++) {
      await pause();
      cold.push(await coldOpen(context, url, big));
    }
    ctx.log(`cold open ${spread(col(cold, "leaf"))}; first load ${ms(coldWarmup.leaf)} (not counted)`);

    // 2b. Warm opens from the small session in one long-lived page; each followed by a quick re-open.
    const page = await context.newPage();
    const warm = [];
    const quick = [];
    let warmup;
    try {
      await page.addInitScript(installIdbProbe);
      await page.goto(hashUrl(url, small.id));
      await page.locator(articleWith(small.leafMarker)).waitFor();
      warmup = await clickOpen(page, big);
      await backTo(page, small, big);
      for (let i = 0; i < ctx.runs(7); i++) {
        await pause(DEXIE_CACHE_EXPIRY_MS);
        warm.push(await clickOpen(page, big));
        await backTo(page, small, big);
        await pause();
        quick.push(await clickOpen(page, big));
        await backTo(page, small, big);
      }
    } finally {
      await page.close();
    }
    ctx.log(`warm open ${spread(col(warm, "leaf"))}; first click ${ms(warmup.leaf)} (not counted)`);
    const quickRead = quick.filter((r) => r.readRows !== null).length;
    const quickNote =
      quickRead === 0 ? "Dexie cache, no IndexedDB read" : `read IndexedDB in ${quickRead}/${quick.length}`;
    ctx.log(`re-open   ${spread(col(quick, "leaf"))} (back within 3 s: ${quickNote})`);

    // 3. Side by side.
    const coldMedian = median(col(cold, "leaf"));
    const warmMedian = median(col(warm, "leaf"));
    const quickMedian = median(col(quick, "leaf"));
    ctx.log();
    for (const line of table([
      ["", "raw read", "open → leaf in DOM", "ratio", "target"],
      ["cold (page load with #/s/<id>)", ms(rawMedian), ms(coldMedian), ratio(coldMedian, rawMedian), "≤ 2×"],
      ["warm (click in Sessions list)", ms(rawMedian), ms(warmMedian), ratio(warmMedian, rawMedian), "≤ 2×"],
      ["re-open within 3 s", ms(rawMedian), ms(quickMedian), ratio(quickMedian, rawMedian), ""],
    ])) {
      ctx.log(line);
    }

    // Where the time goes (medians over the counted runs), from the app's own IndexedDB read.
    ctx.log();
    ctx.log("where the time goes (medians; the app's entries read is observed by wrapping IDBIndex.getAll):");
    ctx.log(
      `  cold, from navigation start: DOMContentLoaded ${med(cold, "dcl")}, entries read ${med(cold, "readStart")} → ` +
        `${med(cold, "readEnd")}, first article ${med(cold, "firstArticle")}, leaf ${med(cold, "leaf")} ` +
        `(${ms(median(after(cold)))} after the read), next frame ${med(cold, "painted")}, settled ${med(cold, "settled")}`,
    );
    ctx.log(
      `  warm, from the click: entries read ${med(warm, "readStart")} → ${med(warm, "readEnd")}, ` +
        `leaf ${med(warm, "leaf")} (${ms(median(after(warm)))} after the read), next frame ${med(warm, "painted")}, ` +
        `settled ${med(warm, "settled")}`,
    );
    const reads = (runs) => `${runs.filter((r) => r.readRows === stats.entries).length}/${runs.length}`;
    const all = [...cold, ...warm, ...quick];
    const range = (key) => `${Math.min(...col(all, key))}–${Math.max(...col(all, key))}`;
    ctx.log(
      `  read IndexedDB (${fmtInt(stats.entries)} rows) in ${reads(cold)} cold, ${reads(warm)} warm, ${reads(quick)} re-opens; ` +
        `articles in the DOM ${range("articlesAtLeaf")} at the leaf, ${range("articlesSettled")} settled; ` +
        `leaf visible when settled in ${all.filter((r) => r.leafVisible).length}/${all.length}`,
    );

    ctx.summary("raw Dexie read, 10k entries", ms(rawMedian));
    ctx.summary("cold open → leaf", `${ms(coldMedian)}  (${ratio(coldMedian, rawMedian)} raw read)`);
    ctx.summary("warm open → leaf", `${ms(warmMedian)}  (${ratio(warmMedian, rawMedian)} raw read)`);
    ctx.summary("re-open within 3 s → leaf", `${ms(quickMedian)}  (${quickNote})`);
  },
};
