/**
 * The longest main-thread task while a chat opens (target: none over 50 ms): a 2-message chat (the
 * big chat's last question and answer) and the 2,000-message path of the 10,000-entry session
 * (lib/fixtures.mjs). A `longtask` PerformanceObserver (buffered, installed before the app's
 * scripts) records every task over 50 ms;
 * the ones that start between the start of the open and the moment the chat is open and settled
 * (the open probe of lib/probe.mjs: leaf article in the DOM, the rest of a long path read — no
 * "Loading earlier messages…" line — and then 300 ms without DOM changes) are counted. The tree
 * of a long chat arrives a second or more after its end shows: its tasks count too.
 * Cold: a page load with `#/s/<id>` (includes parsing the app's scripts); warm: a click in the
 * Sessions list from another chat, after Dexie's 3 s cache has expired. Beside the tasks, the
 * frames whose rendering step (style, layout, paint) took 50 ms or more (Long Animation Frames):
 * the longtask API leaves those out when no script ran in them. Numbers only.
 */
import { join } from "node:path";
import { SNAPSHOT_DIR } from "./lib/app-server.mjs";
import { entrySize } from "./lib/entry-size.mjs";
import { articleWith, hashUrl, LOADING_EARLIER, seededSessions } from "./lib/fixtures.mjs";
import {
  installLongTasks,
  installOpenProbe,
  longTaskCause,
  readLongFrameScripts,
  readLongRenders,
  readLongTasks,
  readOpenProbe,
} from "./lib/probe.mjs";
import { seedSession } from "./lib/seed.mjs";
import { median, ms, table } from "./lib/stats.mjs";

const QUIET_MS = 300;
const DEXIE_CACHE_EXPIRY_MS = 3500;
const TWO = {
  id: "0190b000-0000-7000-8000-000000000002",
  title: "Bench · two messages",
  leafMarker: "BENCH-LEAF-TWO",
};

/**
 * A 2-message chat that shows what the big chat's end shows: its last question and answer (the
 * answer's marker swapped for this chat's), so the two opens differ in the chat's size only. With a
 * one-line reply here, the ratio compared a line of text with a long Markdown answer.
 */
function twoMessageSession(big) {
  const byId = new Map(big.entries.map((e) => [e.id, e]));
  const answer = byId.get(big.session.leafId);
  const question = byId.get(answer.parentId);
  const at = Date.UTC(2025, 0, 4, 9, 0, 0);
  const id = (n) => `0190b000-0000-7000-8000-0000000002${n.toString().padStart(2, "0")}`;
  const base = { sessionId: TWO.id, type: "message", status: "complete" };
  const marked = (content) =>
    content.map((b) => (b.type === "text" ? { ...b, text: b.text.replace(big.leafMarker, TWO.leafMarker) } : b));
  const entries = [
    { ...question, ...base, id: id(1), parentId: null, createdAt: at },
    { ...answer, ...base, id: id(2), parentId: id(1), createdAt: at + 1000, content: marked(answer.content) },
  ];
  const session = {
    id: TWO.id,
    title: TWO.title,
    titleSource: "user",
    createdAt: at,
    updatedAt: at + 1000,
    leafId: id(2),
  };
  return { session, entries };
}

/** Long tasks and long rendering steps (start, duration) that began in [from, to] (page clock). */
async function tasksBetween(page, from, to) {
  const within = (t) => t.start >= from && t.start <= to;
  const scripts = await readLongFrameScripts(page);
  return {
    tasks: (await readLongTasks(page)).filter(within).map((t) => ({ ...t, cause: longTaskCause(t, scripts) })),
    renders: (await readLongRenders(page)).filter(within),
  };
}

async function coldOpen(context, url, target) {
  const page = await context.newPage();
  try {
    await page.addInitScript(installLongTasks);
    await page.addInitScript(installOpenProbe, {
      leafSelector: articleWith(target.leafMarker),
      mode: "navigation",
      quietMs: QUIET_MS,
      pendingSelector: LOADING_EARLIER,
    });
    await page.goto(hashUrl(url, target.id));
    const probe = await readOpenProbe(page);
    return { ...(await tasksBetween(page, 0, probe.settled ?? probe.leaf + 5000)), leaf: probe.leaf };
  } finally {
    await page.close();
  }
}

async function warmOpen(page, target, from) {
  await page.evaluate(installOpenProbe, {
    leafSelector: articleWith(target.leafMarker),
    mode: "click",
    quietMs: QUIET_MS,
    pendingSelector: LOADING_EARLIER,
  });
  const t0 = await page.evaluate(() => performance.now());
  await page.locator('nav[aria-label="Sessions"] a', { hasText: target.title }).click();
  const probe = await readOpenProbe(page);
  const seen = await tasksBetween(page, t0, t0 + (probe.settled ?? probe.leaf + 5000) + 50);
  // Back to where we came from, for the next run.
  await page.locator('nav[aria-label="Sessions"] a', { hasText: from.title }).click();
  await page.locator(articleWith(from.leafMarker)).waitFor();
  return { ...seen, leaf: probe.leaf };
}

/** "evaluating client.js ×3 (52–71 ms), no script ×1 (58 ms)": the runs' long tasks by cause, most first. */
function causesOf(runs) {
  const by = new Map();
  for (const t of runs.flatMap((r) => r.tasks)) by.set(t.cause, [...(by.get(t.cause) ?? []), t.duration]);
  if (by.size === 0) return "none";
  const span = (d) => {
    const [lo, hi] = [Math.min(...d), Math.max(...d)].map(Math.round);
    return lo === hi ? `${lo} ms` : `${lo}–${hi} ms`;
  };
  return [...by]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([cause, d]) => `${cause} ×${d.length} (${span(d)})`)
    .join(", ");
}

const longestOf = (list) => (list.length ? Math.max(...list.map((t) => t.duration)) : 0);
const describe = (runs) => {
  const worst = runs.map((r) => longestOf(r.tasks));
  const render = runs.map((r) => longestOf(r.renders));
  return {
    longest: Math.max(...worst),
    median: median(worst),
    count: median(runs.map((r) => r.tasks.length)),
    clean: runs.filter((r) => r.tasks.length === 0).length,
    runs: runs.length,
    render: Math.max(...render),
    renderMedian: median(render),
  };
};

export default {
  name: "open-longtasks",
  description: "longest main-thread task while opening a chat: 2 messages vs. a 2,000-message path (target ≤ 50 ms)",
  uses: ["app", "browser"],
  async run(ctx) {
    const seeded = await seededSessions(ctx);
    const { big, url, dbPage } = seeded;
    const { context } = await ctx.browser();
    await ctx.fixture(`two-message ${url}`, () => seedSession(dbPage, twoMessageSession(big)));
    const sessions = [
      { label: "2-message chat", target: TWO, from: { ...big } },
      { label: "2,000-message path (10k entries)", target: big, from: TWO },
    ];

    const entry = entrySize(join(ctx.root, SNAPSHOT_DIR));
    const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
    ctx.log(
      `first screen (index.html's script, its imports and CSS, and what src/main.tsx loads at start): ` +
        `${kB(entry.raw)}, ${kB(entry.gzip)} gzip ` +
        `(JS ${kB(entry.jsGzip)} gzip; budget ≤ 190 kB gzip, guarded by e2e/start-light.spec.ts)`,
    );
    for (const f of entry.files) ctx.log(`  ${f.file}: ${kB(f.raw)}, ${kB(f.gzip)} gzip`);
    ctx.summary("first screen's code", `${kB(entry.gzip)} gzip (budget ≤ 190 kB)`);
    const leafTimes = {};
    const rows = [
      [
        "",
        "cold: longest (median of runs)",
        "tasks > 50 ms",
        "runs with none",
        "warm: longest (median)",
        "tasks > 50 ms",
        "runs with none",
      ],
    ];
    const causes = [];
    const renderRows = [
      ["rendering step ≥ 50 ms (style, layout, paint)", "cold: longest (median)", "warm: longest (median)"],
    ];
    for (const { label, target, from } of sessions) {
      await coldOpen(context, url, target); // warms the HTTP and code caches
      const cold = [];
      for (let i = 0; i < ctx.runs(5); i++) cold.push(await coldOpen(context, url, target));
      const page = await context.newPage();
      const warm = [];
      try {
        await page.addInitScript(installLongTasks);
        await page.goto(hashUrl(url, from.id));
        await page.locator(articleWith(from.leafMarker)).waitFor({ timeout: 30_000 });
        for (let i = 0; i < ctx.runs(5); i++) {
          await new Promise((r) => setTimeout(r, DEXIE_CACHE_EXPIRY_MS));
          warm.push(await warmOpen(page, target, from));
        }
      } finally {
        await page.close();
      }
      leafTimes[label] = { cold: median(cold.map((r) => r.leaf)), warm: median(warm.map((r) => r.leaf)) };
      causes.push([label, causesOf(cold), causesOf(warm)]);
      const c = describe(cold);
      const w = describe(warm);
      rows.push([
        label,
        `${ms(c.longest)} (${ms(c.median)})`,
        String(c.count),
        `${c.clean} of ${c.runs}`,
        `${ms(w.longest)} (${ms(w.median)})`,
        String(w.count),
        `${w.clean} of ${w.runs}`,
      ]);
      renderRows.push([label, `${ms(c.render)} (${ms(c.renderMedian)})`, `${ms(w.render)} (${ms(w.renderMedian)})`]);
      ctx.summary(
        `open ${label}: longest task`,
        `cold ${ms(c.longest)} (median ${ms(c.median)}, none over 50 ms in ${c.clean} of ${c.runs}), ` +
          `warm ${ms(w.longest)} (target ≤ 50 ms)`,
      );
      ctx.summary(
        `open ${label}: longest rendering step`,
        `cold ${ms(c.render)} (median ${ms(c.renderMedian)}), warm ${ms(w.render)}`,
      );
    }
    for (const line of table(rows)) ctx.log(line);
    for (const line of table(renderRows)) ctx.log(line);
    ctx.log("what the tasks over 50 ms ran (longest script in each, from Long Animation Frames; all runs):");
    for (const [label, cold, warm] of causes) ctx.log(`  ${label}: cold ${cold}; warm ${warm}`);
    const [small, large] = sessions.map((s) => leafTimes[s.label]);
    for (const mode of ["cold", "warm"]) {
      const r = large[mode] / small[mode];
      ctx.log(
        `last message in the DOM, ${mode}: 2 messages ${ms(small[mode])}, 2,000 messages ${ms(large[mode])} ` +
          `(${r.toFixed(2)}×, target ≤ 1.2×)`,
      );
      ctx.summary(`open ${mode}: 2,000 ÷ 2 messages, leaf shown`, `${r.toFixed(2)}× (target ≤ 1.2×)`);
    }
    ctx.log("(cold includes evaluating the app's scripts; a task over 50 ms is a frame the page could not paint)");
    ctx.log(
      "(a rendering step is the browser's style, layout and paint of a frame; the longtask API does not count it as a " +
        "task when no script runs in it: a fresh tab's first layout, mostly font lookups, shows here)",
    );
  },
};
