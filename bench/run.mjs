#!/usr/bin/env node
/**
 * Grove benches: `npm run bench` runs all, `npm run bench -- open-session scroll` the named ones.
 * Options: --rebuild (build the working tree into bench/out instead of using dist/), --quick (fewer
 * repetitions), --list.
 *
 * Each bench is a module in bench/ exporting `{ name, description, uses, optIn?, run(ctx) }` (see
 * lib/context.mjs for ctx). `uses` lists the shared resources it needs ("app", "browser") so the
 * header can name them before any bench runs; `optIn` benches run only when named. Benches print
 * numbers; they never pass or fail on timing. Add a new bench to BENCHES below.
 */
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import coldStart from "./cold-start.mjs";
import compaction from "./compaction.mjs";
import compactionLongtasks from "./compaction-longtasks.mjs";
import fidelity from "./fidelity.mjs";
import graph from "./graph.mjs";
import importLarge from "./import-large.mjs";
import { createContext } from "./lib/context.mjs";
import { table } from "./lib/stats.mjs";
import openLongtasks from "./open-longtasks.mjs";
import openProfile from "./open-profile.mjs";
import openSession from "./open-session.mjs";
import openTrace from "./open-trace.mjs";
import paste from "./paste.mjs";
import peer from "./peer.mjs";
import scroll from "./scroll.mjs";
import search from "./search.mjs";
import sendFirstToken from "./send-first-token.mjs";
import sync, { syncLarge } from "./sync.mjs";
import tokens from "./tokens.mjs";
import toolsLoop from "./tools-loop.mjs";

/** In order. `optIn` benches run only when named. */
const BENCHES = [
  coldStart,
  openSession,
  openLongtasks,
  scroll,
  sendFirstToken,
  paste,
  openProfile,
  openTrace,
  tokens,
  compaction,
  fidelity,
  graph,
  compactionLongtasks,
  importLarge,
  search,
  sync,
  syncLarge,
  toolsLoop,
  peer,
];

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const flags = new Set(argv.filter((a) => a.startsWith("--")));
const names = argv.filter((a) => !a.startsWith("--"));
const options = { rebuild: flags.has("--rebuild"), quick: flags.has("--quick") };

if (flags.has("--list") || flags.has("--help")) {
  console.log("usage: npm run bench [-- [--rebuild] [--quick] [bench …]]\n");
  for (const b of BENCHES) console.log(`  ${b.name.padEnd(14)} ${b.optIn ? "(only when named) " : ""}${b.description}`);
  process.exit(0);
}

const unknown = names.filter((n) => !BENCHES.some((b) => b.name === n));
if (unknown.length) {
  console.error(`unknown bench: ${unknown.join(", ")} (have: ${BENCHES.map((b) => b.name).join(", ")})`);
  process.exit(2);
}
const selected = names.length ? BENCHES.filter((b) => names.includes(b.name)) : BENCHES.filter((b) => !b.optIn);

const { ctx, setCurrentBench, summaryRows, cleanup } = createContext({ root, options });
let interrupted = false;
process.on("SIGINT", () => {
  if (interrupted) process.exit(130);
  interrupted = true;
  console.error("\ninterrupted: stopping the app server and the browser…");
  void cleanup().finally(() => process.exit(130));
});

/** Other work on the machine skews every number: say how busy it was. */
function loadLine(judge = true) {
  const [one, five] = loadavg();
  const busy = judge && one > cpus().length * 0.75;
  return `load average ${one.toFixed(2)} (1 min), ${five.toFixed(2)} (5 min)${busy ? " — machine busy, numbers inflated" : ""}`;
}

const started = performance.now();
let failed = 0;
try {
  const uses = new Set(selected.flatMap((b) => b.uses ?? []));
  const app = uses.has("app") ? await ctx.app() : null;
  const browser = uses.has("browser") ? await ctx.browser() : null;
  const cpu = cpus();
  console.log("Grove benchmarks");
  console.log(`  date      ${new Date().toISOString().replace("T", " ").slice(0, 19)} UTC`);
  console.log(
    `  machine   ${cpu.length} cores (${cpu[0]?.model.trim() ?? "?"}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ` +
      `${process.platform}/${process.arch}, Node ${process.version}`,
  );
  if (browser)
    console.log(`  browser   ${browser.version} headless (${browser.userAgent.match(/\(([^)]*)\)/)?.[1] ?? ""})`);
  if (app) console.log(`  app       production build via vite preview at ${app.url}; ${app.buildInfo}`);
  console.log(`  load      ${loadLine()}`);
  console.log(`  benches   ${selected.map((b) => b.name).join(", ")}${options.quick ? " (--quick)" : ""}`);

  for (const bench of selected) {
    console.log(`\n## ${bench.name} — ${bench.description}`);
    setCurrentBench(bench.name);
    const t0 = performance.now();
    try {
      await bench.run(ctx);
    } catch (e) {
      failed++;
      console.log(`  ERROR: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
    console.log(`  (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
} finally {
  await cleanup();
}

console.log("\n== Summary ==");
for (const line of table(summaryRows, "lll")) console.log(`  ${line}`);
console.log(`  load at the end: ${loadLine(false)} (includes this run's own browser)`);
console.log(
  `  total ${((performance.now() - started) / 1000).toFixed(1)} s${failed ? `, ${failed} bench(es) errored` : ""}`,
);
process.exit(failed ? 1 : 0);
