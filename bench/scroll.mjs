/**
 * Scroll the 2,000-message active path (10,000-entry tree) and a 10,000-message path from the
 * bottom to the top, one step per animation frame,
 * and record frame times (requestAnimationFrame deltas), how many `article`s are in the DOM
 * (virtualization: tens, not 2,000) and, for frames over 50 ms, what they spent their time on
 * (Long Animation Frames API: script vs. style/layout).
 *
 * The step is 2 viewports per frame by default (override: GROVE_BENCH_SCROLL_STEP=px): a fast
 * fling or a scrollbar drag, where every frame mounts rows that were not there before. Rows are
 * measured as they mount (the list estimates 140 px each), and the virtualizer shifts scrollTop to
 * keep the content still, so a step covers less than its pixels of real content.
 *
 * Beside the frames: the main thread's work per frame (Chrome's Performance metrics: task, script,
 * style+layout time over the pass ÷ frames), and the messages the page received from its workers
 * and broadcast channels during the pass (lib/worker-messages.mjs; target: none).
 */
import { articleWith, hashUrl, seededExtraSessions, seededSessions } from "./lib/fixtures.mjs";
import { installOpenProbe, readOpenProbe } from "./lib/probe.mjs";
import { max, median, ms, percentile } from "./lib/stats.mjs";
import { installWorkerMessageCounter, startCountingMessages, stopCountingMessages } from "./lib/worker-messages.mjs";

/**
 * A pass must reach the first message: the 10,000-message path is about 4,000 steps of two
 * viewports (rows grow from their estimate as they mount), over a minute at 60 frames a second.
 */
const MAX_SECONDS = 150;

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

/** Main-thread time (ms) the renderer spent, from Chrome's Performance domain: tasks, script, style+layout. */
async function mainThreadTimes(cdp) {
  const { metrics } = await cdp.send("Performance.getMetrics");
  const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
  return {
    task: m.TaskDuration * 1000,
    script: m.ScriptDuration * 1000,
    layout: (m.LayoutDuration + m.RecalcStyleDuration) * 1000,
  };
}

/** One scroll pass of `session`'s active path in a fresh page; logs it and returns its figures. */
export async function scrollPass(ctx, context, url, session, label) {
  const page = await context.newPage();
  try {
    await page.addInitScript(installOpenProbe, {
      leafSelector: articleWith(session.leafMarker),
      mode: "navigation",
      quietMs: 300,
    });
    await page.addInitScript(installWorkerMessageCounter);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    await page.goto(hashUrl(url, session.id));
    await readOpenProbe(page);
    await page.waitForTimeout(500);
    const before = await mainThreadTimes(cdp);
    await startCountingMessages(page);
    const r = await page.evaluate(scrollToTop, {
      stepPx: Number(process.env.GROVE_BENCH_SCROLL_STEP) || 0,
      viewports: 2,
      maxMs: MAX_SECONDS * 1000,
      rootSelector: articleWith(session.rootMarker),
    });
    const messages = await stopCountingMessages(page);
    const after = await mainThreadTimes(cdp);
    const frames = r.deltas.length;
    const perFrame = (k) => (after[k] - before[k]) / frames;
    const n = session.stats.pathLength;
    const fmt = (x) => Math.round(x).toLocaleString("en-US");
    const p = (q) => ms(percentile(r.deltas, q));
    const over = (t) => r.deltas.filter((d) => d > t).length;
    const rows = r.startIndex - r.endIndex;
    ctx.log(`— ${label}: ${fmt(n)} messages on the path`);
    ctx.log(
      `scrolled  rows ${r.startIndex} → ${r.endIndex} in ${frames} frames, ${(r.ms / 1000).toFixed(1)} s, ` +
        `${r.step} px per frame (scroller ${r.clientHeight} px high), ${(rows / frames).toFixed(2)} rows per frame; ` +
        `reached the first message: ${r.reachedTop ? "yes" : "NO (time limit)"}`,
    );
    ctx.log(
      `          list height ${fmt(r.start.height)} px at the bottom (estimates) → ${fmt(r.endHeight)} px at the top ` +
        `(measured: ${fmt(r.endHeight / n)} px per row on average)`,
    );
    ctx.log(
      `frames    p50 ${p(50)}, p95 ${p(95)}, p99 ${p(99)}, max ${ms(max(r.deltas))}; ` +
        `${over(20)} frames > 20 ms, ${over(50)} > 50 ms (of ${frames})`,
    );
    ctx.log(
      `main thread per frame: ${ms(perFrame("task"))} of tasks (script ${ms(perFrame("script"))}, ` +
        `style+layout ${ms(perFrame("layout"))})`,
    );
    const sum = (k) => r.long.reduce((s, e) => s + e[k], 0);
    ctx.log(
      `long animation frames (> 50 ms): ${r.long.length}, ${ms(sum("duration"))} in all: ` +
        `script ${ms(sum("script"))}, style+layout ${ms(sum("layout"))}`,
    );
    ctx.log(
      `articles  in the DOM during the scroll: min ${Math.min(...r.articles)}, median ${median(r.articles)}, ` +
        `max ${max(r.articles)} (of ${fmt(n)} on the path)`,
    );
    const kinds = Object.entries(messages.byKind)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ");
    ctx.log(`worker messages received during the scroll: ${messages.total}${kinds ? ` (${kinds})` : ""} (target: 0)`);
    return {
      n,
      perFrame: perFrame("task"),
      p95: percentile(r.deltas, 95),
      maxFrame: max(r.deltas),
      articles: max(r.articles),
      messages: messages.total,
    };
  } finally {
    await page.close();
  }
}

export default {
  name: "scroll",
  description: "scroll the 2,000- and a 10,000-message active path bottom → top, one step per frame",
  uses: ["app", "browser"],
  async run(ctx) {
    const { big, url } = await seededSessions(ctx);
    const { huge } = await seededExtraSessions(ctx);
    const { context } = await ctx.browser();
    const a = await scrollPass(ctx, context, url, big, "2,000-message path (10,000-entry tree)");
    const b = await scrollPass(ctx, context, url, huge, "10,000-message path");
    const growth = b.perFrame / a.perFrame;
    ctx.log(
      `flat in N: main thread per frame ${ms(a.perFrame)} → ${ms(b.perFrame)}, ${growth.toFixed(2)}× (target ≤ 1.3×); ` +
        `p95 frame ${ms(a.p95)} / ${ms(b.p95)} (target ≤ 16.8 ms at both)`,
    );
    ctx.summary(
      "scroll main thread per frame 2k / 10k",
      `${ms(a.perFrame)} / ${ms(b.perFrame)} (${growth.toFixed(2)}×, target ≤ 1.3×)`,
    );
    ctx.summary("scroll frame p95 2k / 10k", `${ms(a.p95)} / ${ms(b.p95)} (target ≤ 16.8 ms)`);
    ctx.summary("scroll worker messages 2k / 10k", `${a.messages} / ${b.messages} (target 0)`);
    ctx.summary("scroll articles in DOM (max) 2k / 10k", `${a.articles} / ${b.articles}`);
  },
};
