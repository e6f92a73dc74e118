/**
 * The history graph on the 10,000-entry bench session (2,000-message path plus branches):
 *  1. the model in a page of its own (bench/graph.html, built into bench/out/graph-dist): tree index,
 *     buildGraphModel (nodes, edges, folded spans, the lane layout), the layout alone, a search,
 *     a viewport cull; fresh entry objects every run, so per-entry caches never answer;
 *  2. in the app: from the click on "History graph" to the first frame with the graph painted
 *     (the current node in the DOM, then the next animation frame), with the model build the app
 *     measured itself (`grove:graph-model`), first open and re-opens;
 *  3. a scripted pan in the app, one pointer move per animation frame: frame times (p50/p95/max),
 *     long animation frames, nodes in the DOM; once at reading zoom (DOM nodes, culled) and once
 *     zoomed out (the outline, as "Fit" draws a big graph).
 * Numbers are printed, never judged (target for the pan: p95 under 16 ms).
 */
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "vite";
import { hashUrl, seededSessions } from "./lib/fixtures.mjs";
import { generateSession } from "./lib/session-data.mjs";
import { max, median, ms, percentile, spread } from "./lib/stats.mjs";

const OUT_DIR = "bench/out/graph-dist";
const PAGE = "bench/graph.html";
const PAN_FRAMES = 240;
const PAUSE_MS = 400;

const pause = (t = PAUSE_MS) => new Promise((r) => setTimeout(r, t));

async function buildPage(root) {
  const t0 = performance.now();
  await build({
    configFile: false,
    root,
    logLevel: "error",
    build: { outDir: OUT_DIR, emptyOutDir: true, rollupOptions: { input: join(root, PAGE) } },
  });
  // `vite preview` answers (and the harness waits for) "/": serve the page there too.
  copyFileSync(join(root, OUT_DIR, PAGE), join(root, OUT_DIR, "index.html"));
  return performance.now() - t0;
}

/** Runs in the page: resolves when the current node is in the graph, with the next frame's time. */
function watchFirstPaint() {
  window.__graphPaint = new Promise((resolve) => {
    const found = () => document.querySelector('[aria-label="History graph"] [role="treeitem"][aria-current="true"]');
    let start = null;
    document.addEventListener(
      "click",
      (e) => {
        start = e.timeStamp;
      },
      { capture: true, once: true },
    );
    const done = () => {
      const inDom = performance.now();
      requestAnimationFrame(() =>
        setTimeout(() => {
          const model = performance.getEntriesByName("grove:graph-model").at(-1);
          resolve({
            dom: inDom - start,
            painted: performance.now() - start,
            model: model ? model.duration : null,
            treeitems: document.querySelectorAll('[aria-label="History graph"] [role="treeitem"]').length,
          });
        }, 0),
      );
    };
    const observer = new MutationObserver(() => {
      if (start !== null && found()) {
        observer.disconnect();
        done();
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
}

/** Runs in the page: drags the graph one step per frame and records the frame times. */
async function scriptedPan({ frames, dx, dy }) {
  const viewport = document.querySelector(".graph-viewport");
  if (!viewport) throw new Error("no .graph-viewport");
  const box = viewport.getBoundingClientRect();
  // Start on empty canvas to the left of the nodes, and keep clear of overlays.
  let x = box.left + box.width * 0.5;
  let y = box.top + box.height * 0.5;
  const long = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) long.push(e.duration);
  });
  observer.observe({ type: "long-animation-frame" });
  const pointer = (type) =>
    viewport.dispatchEvent(
      new PointerEvent(type, {
        bubbles: true,
        cancelable: true,
        pointerId: 7,
        pointerType: "mouse",
        isPrimary: true,
        button: 0,
        buttons: type === "pointerup" ? 0 : 1,
        clientX: x,
        clientY: y,
      }),
    );
  pointer("pointerdown");
  const deltas = [];
  const dom = [];
  await new Promise((resolve) => {
    let last = null;
    let n = 0;
    const frame = (now) => {
      if (last !== null) deltas.push(now - last);
      last = now;
      dom.push(viewport.querySelectorAll('[role="treeitem"]').length);
      if (n++ >= frames) return resolve();
      x += dx;
      y += dy;
      pointer("pointermove");
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  pointer("pointerup");
  await new Promise((r) => setTimeout(r, 100));
  observer.disconnect();
  return { deltas, dom, long, zoom: viewport.querySelector(".graph-zoom-level")?.textContent ?? "" };
}

function panLine(r) {
  const p = (q) => ms(percentile(r.deltas, q));
  const over = (t) => r.deltas.filter((d) => d > t).length;
  return (
    `p50 ${p(50)}, p95 ${p(95)}, max ${ms(max(r.deltas))}; ${over(20)} frames > 20 ms, ${over(50)} > 50 ms ` +
    `(of ${r.deltas.length}); ` +
    `long animation frames ${r.long.length}; treeitems in the DOM ${Math.min(...r.dom)}–${Math.max(...r.dom)}` +
    ` (zoom ${r.zoom})`
  );
}

export default {
  name: "graph",
  description: "history graph on 10,000 entries: model + layout, first paint, scripted pan",
  uses: ["app", "browser"],
  async run(ctx) {
    const { context } = await ctx.browser();

    // 1. The model in a page of its own.
    const buildMs = await buildPage(ctx.root);
    const { url: pageUrl } = await ctx.serve(OUT_DIR);
    const session = generateSession({
      seed: 42,
      sessionId: "0190b000-0000-7000-8000-00000000b16b",
      title: "graph bench",
      leafMarker: "L",
      rootMarker: "R",
    });
    const page = await context.newPage();
    try {
      await page.goto(`${pageUrl}/`);
      await page.waitForFunction(() => window.groveGraphBench !== undefined);
      const count = await page.evaluate((json) => window.groveGraphBench.load(json), JSON.stringify(session.entries));
      const t = await page.evaluate(
        ([leaf, runs]) => window.groveGraphBench.run(leaf, runs),
        [session.session.leafId, ctx.runs(9)],
      );
      ctx.log(`page      ${PAGE} built in ${ms(buildMs)}; ${count.toLocaleString("en-US")} entries`);
      ctx.log(
        `model     ${t.nodes.toLocaleString("en-US")} nodes, ${t.levels.toLocaleString("en-US")} levels, ${t.lanes} lanes`,
      );
      ctx.log(`  tree index (buildTreeIndex)          ${spread(t.index)}`);
      ctx.log(`  buildGraphModel (incl. layout)        ${spread(t.model)}   first ${ms(t.model[0])}`);
      ctx.log(`  lane layout alone                     ${spread(t.layout)}`);
      ctx.log(`  search over every node                ${spread(t.search)}`);
      ctx.log(`  viewport cull (1280×800 at zoom 1)    ${spread(t.cull)} → ${t.culled} nodes`);
      ctx.summary("graph model + layout, 10,000 entries", `${ms(median(t.model))} (index ${ms(median(t.index))})`);
    } finally {
      await page.close();
    }

    // 2. First paint in the app.
    const { big, url } = await seededSessions(ctx);
    const app = await context.newPage();
    try {
      await app.goto(hashUrl(url, big.id));
      await app.locator(`.message-scroll article[aria-label*="${big.leafMarker}"]`).waitFor({ timeout: 60_000 });
      await pause(1_000);
      const toggle = app.getByRole("button", { name: "History graph", exact: true });
      const opens = [];
      for (let i = 0; i < ctx.runs(5); i++) {
        await app.evaluate(watchFirstPaint);
        await toggle.click();
        opens.push(await app.evaluate(() => window.__graphPaint));
        await pause();
        if (i < ctx.runs(5) - 1) {
          await toggle.click();
          await pause();
        }
      }
      const first = opens[0];
      ctx.log();
      ctx.log(
        `open      first: painted ${ms(first.painted)} after the click (current node in the DOM at ${ms(first.dom)}; ` +
          `model ${ms(first.model)}); ${first.treeitems} treeitems rendered`,
      );
      const again = opens.slice(1);
      if (again.length) {
        ctx.log(
          `          re-opens: painted ${spread(again.map((o) => o.painted))}; model ${spread(again.map((o) => o.model))}`,
        );
      }
      ctx.summary(
        "graph first paint after opening (first / re-open median)",
        `${ms(first.painted)} / ${ms(median(again.map((o) => o.painted)))}`,
      );

      // 3. Scripted pans: at reading zoom, then zoomed out to the outline.
      await pause(600);
      const near = await app.evaluate(scriptedPan, { frames: ctx.runs(PAN_FRAMES), dx: 3, dy: 42 });
      ctx.log();
      ctx.log(`pan       reading zoom, 42 px per frame up the path: ${panLine(near)}`);
      for (let i = 0; i < 5; i++) await app.getByRole("button", { name: "Zoom out" }).click();
      await pause(600);
      const far = await app.evaluate(scriptedPan, { frames: ctx.runs(PAN_FRAMES), dx: 0, dy: 30 });
      ctx.log(`          zoomed out (outline), 30 px per frame: ${panLine(far)}`);
      ctx.summary(
        "graph pan frame p50 / p95 / max (reading zoom)",
        `${ms(percentile(near.deltas, 50))} / ${ms(percentile(near.deltas, 95))} / ${ms(max(near.deltas))}`,
      );
      ctx.summary(
        "graph pan frame p50 / p95 / max (overview)",
        `${ms(percentile(far.deltas, 50))} / ${ms(percentile(far.deltas, 95))} / ${ms(max(far.deltas))}`,
      );
    } finally {
      await app.close();
    }
  },
};
