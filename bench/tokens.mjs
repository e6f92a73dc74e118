/**
 * Token counting in the compaction worker, in headless Chromium. Builds bench/tokens.html (a page
 * that talks to the real worker through src/worker/client.ts, as the app does) into
 * bench/out/tokens-dist with Vite, serves it, and measures:
 *  1. cold start: a fresh worker's first count (start, rank chunk fetch, rank parse);
 *  2. 20,000-character inputs counted in the worker, unbroken CJK/Thai runs (js-tiktoken's
 *     quadratic case, handled by the long-run guard) and ordinary prose, per encoding; the count
 *     is compared with the exact count (heap-based reference BPE on the page);
 *  3. the unguarded baseline: js-tiktoken's own encode() on a 2,000-character unbroken run;
 *  4. the worker's chunks in the build (sizes, which hold rank data).
 * Every count uses a different string (rotated input), so the worker's count memo never answers.
 */
import { copyFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "vite";
import { median, ms, spread, table } from "./lib/stats.mjs";

const OUT_DIR = "bench/out/tokens-dist";
const PAGE = "bench/tokens.html";
const CHARS = 20_000;
const BASELINE_CHARS = 2_000;
const ENCODINGS = ["o200k_base", "cl100k_base"];
const SAMPLES = ["chinese-run", "japanese-run", "thai-run", "random-cjk", "chinese-prose", "english-prose"];
/** The start of every js-tiktoken rank file's data: marks a chunk that holds ranks. */
const RANKS_MARKER = "IQ== Ig== Iw== JA==";

async function buildPage(root) {
  const t0 = performance.now();
  await build({
    configFile: false,
    root,
    logLevel: "error",
    worker: { format: "es" },
    build: {
      outDir: OUT_DIR,
      emptyOutDir: true,
      chunkSizeWarningLimit: 4_096,
      rollupOptions: { input: join(root, PAGE) },
    },
  });
  // `vite preview` answers (and the harness waits for) "/": serve the page there too.
  copyFileSync(join(root, OUT_DIR, PAGE), join(root, OUT_DIR, "index.html"));
  return performance.now() - t0;
}

const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

/** The worker chunk and the chunks it imports, with sizes and what they hold. */
function workerChunks(root) {
  const dir = join(root, OUT_DIR, "assets");
  const files = readdirSync(dir).filter((f) => f.endsWith(".js"));
  const worker = files.find((f) => f.startsWith("compaction.worker-"));
  if (!worker) throw new Error(`no compaction.worker-*.js in ${dir}`);
  const source = readFileSync(join(dir, worker), "utf8");
  const imported = files.filter((f) => f !== worker && source.includes(f));
  return [worker, ...imported].map((f) => {
    const bytes = readFileSync(join(dir, f));
    const text = bytes.toString("utf8");
    const holds = text.includes(RANKS_MARKER) ? "rank data" : text.includes("bpe_ranks") ? "js-tiktoken" : "";
    return [f, kB(statSync(join(dir, f)).size), kB(gzipSync(bytes).length), holds];
  });
}

const pct = (n, exact) => `${(((n - exact) / exact) * 100).toFixed(2)}%`;

export default {
  name: "tokens",
  description: "token counting in the worker: 20,000-char CJK paste, cold start, unguarded baseline",
  uses: ["browser"],
  async run(ctx) {
    const buildMs = await buildPage(ctx.root);
    const { url } = await ctx.serve(OUT_DIR);
    const { context } = await ctx.browser();
    const page = await context.newPage();
    try {
      await page.goto(`${url}/`);
      await page.waitForFunction(() => window.groveTokensBench !== undefined);
      const call = (method, ...args) => page.evaluate(([m, a]) => window.groveTokensBench[m](...a), [method, args]);
      ctx.log(`page      ${PAGE} built in ${ms(buildMs)} into ${OUT_DIR}`);

      // 1. Cold start.
      for (const encoding of ENCODINGS) {
        const runs = [];
        for (let i = 0; i < ctx.runs(3); i++) runs.push((await call("coldStart", encoding)).ms);
        ctx.log(`cold start ${encoding}: first ${ms(runs[0])} (rank chunk fetched), then ${spread(runs.slice(1))}`);
      }

      // 2. 20,000-character inputs in the worker (the worker is warm: ranks parsed).
      ctx.log();
      const rows = [["input (20,000 chars)", "encoding", "tokens", "exact", "error", "worker count (median)"]];
      for (const encoding of ENCODINGS) {
        await call("count", encoding, "english-prose", 100, 999); // make sure this encoding is loaded
        for (const name of SAMPLES) {
          const times = [];
          let first = null;
          for (let v = 0; v < ctx.runs(5); v++) {
            const r = await call("count", encoding, name, CHARS, v);
            first ??= r;
            times.push(r.ms);
          }
          const exact = await call("exact", encoding, name, CHARS, 0);
          rows.push([name, encoding, first.n, exact.n, pct(first.n, exact.n), ms(median(times))]);
          if (encoding === "o200k_base" && name === "chinese-run") {
            ctx.summary(
              "20,000-char unbroken CJK paste, o200k, worker",
              `${ms(median(times))}, error ${pct(first.n, exact.n)}`,
            );
          }
        }
      }
      for (const line of table(rows)) ctx.log(line);

      // 3. The unguarded baseline.
      ctx.log();
      const base = await call("unguarded", "o200k_base", "chinese-run", BASELINE_CHARS);
      const guarded = await call("count", "o200k_base", "chinese-run", BASELINE_CHARS, 0);
      ctx.log(
        `unguarded js-tiktoken encode(), ${BASELINE_CHARS.toLocaleString("en-US")} unbroken CJK chars, o200k, page thread: ` +
          `${ms(base.ms)} (${base.n} tokens); guarded in the worker: ${ms(guarded.ms)} (${guarded.n} tokens)`,
      );
      ctx.summary("unguarded js-tiktoken, 2,000 unbroken CJK chars", ms(base.ms));

      // 4. Chunks.
      ctx.log();
      ctx.log("worker chunks in this build (the page's own chunks, which load ranks for the exact count, not listed):");
      for (const line of table([["file", "size", "gzip", "holds"], ...workerChunks(ctx.root)])) ctx.log(`  ${line}`);
    } finally {
      await page.close();
    }
  },
};
