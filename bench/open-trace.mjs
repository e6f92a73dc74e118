/**
 * Opt-in (`npm run bench -- open-trace`): what runs inside the long tasks of a cold open of the
 * 2,000-message path. Unminified build (readable names), a Chrome trace per cold open (task events
 * and the V8 sampling profiler in one clock); for every main-thread task over 50 ms, the functions
 * with the most self time and the most inclusive time in it. Times under tracing are inflated.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { LOADING_EARLIER } from "./lib/fixtures.mjs";
import { coldOpen, prepareProfiledOpens } from "./lib/profiled-open.mjs";

const RUNS = 3;
const LONG_US = 50_000;
const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8.execute",
  "disabled-by-default-v8.cpu_profiler",
].join(",");

/** Runs `action` under a Chrome trace of the page (task events + the V8 sampler); shared with tools-loop.mjs. */
export async function traced(page, action) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
  const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
  await cdp.send("Tracing.start", { categories: CATEGORIES, transferMode: "ReportEvents" });
  const probe = await action();
  await cdp.send("Tracing.end");
  await done;
  await cdp.detach();
  return { probe, events };
}

const frameKey = (cf) =>
  `${cf.functionName || "(anonymous)"} ${cf.url ? `${cf.url.split("/").pop()}:${cf.lineNumber + 1}` : ""}`.trim();

/** Long tasks of the renderer main thread, each with its self/inclusive time by function. */
export function longTasksOf(events) {
  const mains = new Set(
    events
      .filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = events
    .filter((e) => e.name === "RunTask" && e.ph === "X" && e.dur > LONG_US && mains.has(`${e.pid}:${e.tid}`))
    .map((e) => ({ pid: e.pid, start: e.ts, end: e.ts + e.dur, dur: e.dur / 1000, self: new Map(), incl: new Map() }));
  // Profile chunks: nodes arrive incrementally per profile id.
  const profiles = new Map();
  for (const e of events) {
    if (e.name === "Profile" && mains.has(`${e.pid}:${e.tid}`))
      profiles.set(`${e.pid}:${e.id}`, { t: e.args.data.startTime, nodes: new Map(), pid: e.pid });
  }
  for (const e of events) {
    if (e.name !== "ProfileChunk") continue;
    const p = profiles.get(`${e.pid}:${e.id}`);
    if (!p) continue;
    const cp = e.args.data.cpuProfile ?? {};
    for (const n of cp.nodes ?? []) p.nodes.set(n.id, n);
    const deltas = e.args.data.timeDeltas ?? [];
    const samples = cp.samples ?? [];
    for (let i = 0; i < samples.length; i++) {
      p.t += deltas[i] ?? 0;
      const task = tasks.find((k) => k.pid === p.pid && p.t >= k.start && p.t < k.end);
      if (!task) continue;
      const dt = (deltas[i + 1] ?? 0) / 1000;
      let node = p.nodes.get(samples[i]);
      if (!node) continue;
      const own = frameKey(node.callFrame);
      task.self.set(own, (task.self.get(own) ?? 0) + dt);
      const seen = new Set();
      while (node) {
        const k = frameKey(node.callFrame);
        if (!seen.has(k)) {
          seen.add(k);
          task.incl.set(k, (task.incl.get(k) ?? 0) + dt);
        }
        node = node.parent ? p.nodes.get(node.parent) : undefined;
      }
    }
  }
  return tasks;
}

export const top = (m, n) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${v.toFixed(1)} ${k}`);

export default {
  name: "open-trace",
  description: "opt-in: functions inside the long tasks of a cold open of the 2,000-message path (trace)",
  uses: ["browser"],
  optIn: true,
  async run(ctx) {
    const setup = await prepareProfiledOpens(ctx, "traces");
    const { dir } = setup;
    for (let i = 0; i < RUNS; i++) {
      const r = await coldOpen(setup, traced, { pendingSelector: LOADING_EARLIER });
      writeFileSync(join(dir, `cold-${i}.json`), JSON.stringify({ traceEvents: r.events }));
      const tasks = longTasksOf(r.events);
      ctx.log(`cold open ${i}: leaf ${r.probe.leaf?.toFixed(0)} ms, ${tasks.length} tasks over 50 ms`);
      for (const t of tasks) {
        ctx.log(`  task ${t.dur.toFixed(0)} ms`);
        ctx.log(`    self: ${top(t.self, 8).join(" | ")}`);
        ctx.log(`    inclusive: ${top(t.incl, 25).join(" | ")}`);
      }
    }
  },
};
