/**
 * Scroll the 2,000-message active path from the bottom to the top, one step per animation frame,
 * and record frame times (requestAnimationFrame deltas), how many `article`s are in the DOM
 * (virtualization: tens, not 2,000) and, for frames over 50 ms, what they spent their time on
 * (Long Animation Frames API: script vs. style/layout).
 *
 * The step is 2 viewports per frame by default (override: GROVE_BENCH_SCROLL_STEP=px): a fast
 * fling or a scrollbar drag, where every frame mounts rows that were not there before. Rows are
 * measured as they mount (the list estimates 140 px each), and the virtualizer shifts scrollTop to
 * keep the content still, so a step covers less than its pixels of real content.
 */
import { articleWith, hashUrl, seededSessions } from "./lib/fixtures.mjs";
import { installOpenProbe, readOpenProbe } from "./lib/probe.mjs";
import { max, median, ms, percentile } from "./lib/stats.mjs";

const MAX_SECONDS = 60;

/** Runs in the page. */
async function scrollToTop({ stepPx, viewports, maxMs, rootSelector }) {
  const el = document.querySelector(".message-scroll");
  if (!el) throw new Error("no .message-scroll");
  const step = stepPx || Math.round(el.clientHeight * viewports);
  const long = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const script = e.scripts.reduce((sum, s) => sum + s.duration, 0);
      const layout = e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0;
      long.push({ duration: e.duration, script, layout });
    }
  });
  observer.observe({ type: "long-animation-frame" });
  const start = { height: el.scrollHeight, top: el.scrollTop };
  const indexes = () => [...el.querySelectorAll(".message-row")].map((r) => Number(r.dataset.index));
  const startIndex = Math.min(...indexes());
  const deltas = [];
  const articles = [];
  let atTopFrames = 0;
  return new Promise((resolve) => {
    let last = null;
    const t0 = performance.now();
    const frame = (now) => {
      if (last !== null) deltas.push(now - last);
      last = now;
      articles.push(el.querySelectorAll("article").length);
      if (el.scrollTop <= 0) atTopFrames++;
      const reachedTop = el.scrollTop <= 0 && document.querySelector(rootSelector) !== null;
      if ((atTopFrames >= 3 && reachedTop) || now - t0 > maxMs) {
        // Let the observer deliver the last frames' entries.
        setTimeout(() => {
          observer.disconnect();
          resolve({
            step,
            clientHeight: el.clientHeight,
            deltas,
            articles,
            long,
            start,
            endHeight: el.scrollHeight,
            startIndex,
            endIndex: Math.min(...indexes()),
            reachedTop,
            ms: now - t0,
          });
        }, 100);
        return;
      }
      el.scrollTop = Math.max(0, el.scrollTop - step);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

export default {
  name: "scroll",
  description: "scroll the 2,000-message active path bottom → top, one step per frame",
  uses: ["app", "browser"],
  async run(ctx) {
    const { big, url } = await seededSessions(ctx);
    const { context } = await ctx.browser();
    const page = await context.newPage();
    try {
      await page.addInitScript(installOpenProbe, {
        leafSelector: articleWith(big.leafMarker),
        mode: "navigation",
        quietMs: 300,
      });
      await page.goto(hashUrl(url, big.id));
      await readOpenProbe(page);
      await page.waitForTimeout(500);
      const r = await page.evaluate(scrollToTop, {
        stepPx: Number(process.env.GROVE_BENCH_SCROLL_STEP) || 0,
        viewports: 2,
        maxMs: MAX_SECONDS * 1000,
        rootSelector: articleWith(big.rootMarker),
      });
      const fmt = (n) => Math.round(n).toLocaleString("en-US");
      const p = (q) => ms(percentile(r.deltas, q));
      const over = (t) => r.deltas.filter((d) => d > t).length;
      const rows = r.startIndex - r.endIndex;
      ctx.log(
        `scrolled  rows ${r.startIndex} → ${r.endIndex} in ${r.deltas.length} frames, ${(r.ms / 1000).toFixed(1)} s, ` +
          `${r.step} px per frame (scroller ${r.clientHeight} px high), ${(rows / r.deltas.length).toFixed(2)} rows per frame; ` +
          `reached the first message: ${r.reachedTop ? "yes" : "NO (time limit)"}`,
      );
      ctx.log(
        `          list height ${fmt(r.start.height)} px at the bottom (estimates) → ${fmt(r.endHeight)} px at the top ` +
          `(measured: ${fmt(r.endHeight / 2000)} px per row on average)`,
      );
      ctx.log(
        `frames    p50 ${p(50)}, p95 ${p(95)}, p99 ${p(99)}, max ${ms(max(r.deltas))}; ` +
          `${over(20)} frames > 20 ms, ${over(50)} > 50 ms (of ${r.deltas.length})`,
      );
      const sum = (k) => r.long.reduce((s, e) => s + e[k], 0);
      ctx.log(
        `long animation frames (> 50 ms): ${r.long.length}, ${ms(sum("duration"))} in all: ` +
          `script ${ms(sum("script"))}, style+layout ${ms(sum("layout"))}`,
      );
      ctx.log(
        `articles  in the DOM during the scroll: min ${Math.min(...r.articles)}, median ${median(r.articles)}, ` +
          `max ${max(r.articles)} (of 2,000 on the path)`,
      );
      ctx.summary("scroll frame p50 / p95 / max", `${p(50)} / ${p(95)} / ${ms(max(r.deltas))}`);
      ctx.summary("scroll articles in DOM (max)", `${max(r.articles)} of 2,000`);
    } finally {
      await page.close();
    }
  },
};
