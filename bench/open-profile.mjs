/**
 * Opt-in (`npm run bench -- open-profile`): where an open spends its main-thread time. Builds an
 * unminified copy of the working tree (bench/out/dist-profile, readable function names), seeds the
 * same sessions on its origin, and records V8 CPU profiles (CDP Profiler) of cold and warm opens
 * until the leaf article is in the DOM. Prints inclusive time per named suspect (medians; the rows
 * overlap: a row counts every sample with that function anywhere on the stack) and writes the
 * .cpuprofile files to bench/out/profiles/ for DevTools (Performance → Load profile).
 * Times under the profiler are inflated; compare rows with each other, not with `open-session`.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { summarizeProfile } from "./lib/cpu-profile.mjs";
import { articleWith, hashUrl } from "./lib/fixtures.mjs";
import { installOpenProbe, readOpenProbe } from "./lib/probe.mjs";
import { coldOpen, prepareProfiledOpens } from "./lib/profiled-open.mjs";
import { median, ms, table } from "./lib/stats.mjs";

const RUNS = 3;
const SAMPLING_US = 200;
const DEXIE_CACHE_EXPIRY_MS = 3500;

/** [label, function names (any matches)] — names as they appear in the unminified bundle. */
const SUSPECTS = [
  ["React render + commit (all)", ["performWorkOnRoot"]],
  ["  react-markdown, all messages rendered", ["Markdown$1"]],
  ["    lowlight setup, once per render (37 grammars)", ["createLowlight"]],
  ["    remark parse (micromark)", ["fromMarkdown"]],
  ["    rehype plugins (runSync)", ["runSync"]],
  ["      highlight.js highlighting", ["_highlight"]],
  ["        of which grammar compile", ["compileLanguage"]],
  ["    hast → React (toJsxRuntime)", ["toJsxRuntime"]],
  ["  ContextMeter (token estimate of the path)", ["ContextMeter"]],
  ["  buildTreeIndex", ["buildTreeIndex"]],
  ["  pathToRoot", ["pathToRoot"]],
  ["  virtualizer measureElement (forced layout)", ["measureElement"]],
  ["Dexie deepClone of results (liveQuery cache)", ["deepClone"]],
  ["IDB result access (deserialize 10k rows)", ["req.onsuccess"]],
  ["garbage collector", ["(garbage collector)"]],
  ["(program): native, parse/compile, style/layout", ["(program)"]],
  ["idle (waiting, e.g. for IndexedDB)", ["(idle)"]],
];

async function profiled(page, action) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: SAMPLING_US });
  await cdp.send("Profiler.start");
  const probe = await action();
  const { profile } = await cdp.send("Profiler.stop");
  await cdp.detach();
  return { probe, profile };
}

function inclusive(profile) {
  const s = summarizeProfile(profile);
  const names = [...new Set(SUSPECTS.flatMap(([, n]) => n))];
  const byName = s.inclusive(names);
  return { total: s.totalMs, rows: SUSPECTS.map(([, n]) => Math.max(...n.map((x) => byName.get(x) ?? 0))) };
}

export default {
  name: "open-profile",
  description: "opt-in: CPU profiles of cold and warm opens (unminified build), time per suspect",
  uses: ["browser"],
  optIn: true,
  async run(ctx) {
    const setup = await prepareProfiledOpens(ctx, "profiles");
    const { url, big, small, context, dir, leafSelector } = setup;
    const results = { cold: [], warm: [] };

    for (let i = 0; i < RUNS; i++) {
      const r = await coldOpen(setup, profiled);
      writeFileSync(join(dir, `cold-${i}.cpuprofile`), JSON.stringify(r.profile));
      results.cold.push({ leaf: r.probe.leaf, ...inclusive(r.profile) });
    }

    const page = await context.newPage();
    const link = (title) => page.locator('nav[aria-label="Sessions"] a', { hasText: title });
    await page.goto(hashUrl(url, small.id));
    await page.locator(articleWith(small.leafMarker)).waitFor();
    for (let i = 0; i <= RUNS; i++) {
      await page.waitForTimeout(DEXIE_CACHE_EXPIRY_MS);
      await page.evaluate(installOpenProbe, { leafSelector, mode: "click", quietMs: 300 });
      const r = await profiled(page, async () => {
        await link(big.title).click();
        return readOpenProbe(page);
      });
      // The first click in a page runs cold code; keep it out like open-session does.
      if (i > 0) {
        writeFileSync(join(dir, `warm-${i - 1}.cpuprofile`), JSON.stringify(r.profile));
        results.warm.push({ leaf: r.probe.leaf, ...inclusive(r.profile) });
      }
      await link(small.title).click();
      await page.locator(leafSelector).waitFor({ state: "detached" });
    }
    await page.close();

    const m = (runs, f) => ms(median(runs.map(f)));
    const rows = [
      ["median of 3, ms on the main thread", "cold open", "warm open"],
      ["open → leaf in DOM (under the profiler)", m(results.cold, (r) => r.leaf), m(results.warm, (r) => r.leaf)],
      ["profiled window", m(results.cold, (r) => r.total), m(results.warm, (r) => r.total)],
      ...SUSPECTS.map(([label], i) => [label, m(results.cold, (r) => r.rows[i]), m(results.warm, (r) => r.rows[i])]),
    ];
    for (const line of table(rows)) ctx.log(line);
    ctx.log(
      `profiles: bench/out/profiles/{cold,warm}-{0..${RUNS - 1}}.cpuprofile (profiled window ends when the list settles)`,
    );
    ctx.summary("profiled cold / warm open", `${m(results.cold, (r) => r.leaf)} / ${m(results.warm, (r) => r.leaf)}`);
  },
};
