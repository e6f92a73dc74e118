/**
 * What a bench module gets: `run(ctx)`. Everything expensive is lazy and shared by the benches of
 * one run: the app server (`ctx.app()`), the browser (`ctx.browser()`) and seeded data
 * (`ctx.fixture(key, factory)`). A bench prints its own lines with `ctx.log` and hands its headline
 * numbers to the final summary with `ctx.summary(label, value)`.
 */

import { prepareApp, startPreview } from "./app-server.mjs";
import { launchBrowser } from "./browser.mjs";

export function createContext({ root, options }) {
  const memo = new Map();
  const cleanups = [];
  const summaryRows = [];
  let currentBench = "";

  const once = (key, factory) => {
    if (!memo.has(key)) memo.set(key, factory());
    return memo.get(key);
  };

  const ctx = {
    root,
    /** Parsed command-line options (e.g. { rebuild: true, quick: false }). */
    options,
    /** How many times to repeat a measurement (fewer with --quick). */
    runs: (normal) => (options.quick ? Math.max(3, Math.ceil(normal / 3)) : normal),
    log: (line = "") => console.log(line ? `  ${line}` : ""),
    summary: (label, value) => summaryRows.push([currentBench, label, value]),
    fixture: once,
    /** { url, buildInfo }: the production build (a snapshot of dist/) served by `vite preview` on a free port. */
    app: () =>
      once("app", async () => {
        const { outDir, info } = await prepareApp(root, { rebuild: options.rebuild });
        return { ...(await ctx.serve(outDir)), buildInfo: info };
      }),
    /** { url }: `vite preview` of another build directory (stopped at the end of the run). */
    serve: async (outDir) => {
      const server = await startPreview(root, { outDir });
      cleanups.push(server.stop);
      return { url: server.url };
    },
    /** { context, version, userAgent }: headless Chromium, persistent temp profile. */
    browser: () =>
      once("browser", async () => {
        const browser = await launchBrowser();
        cleanups.push(browser.close);
        return browser;
      }),
  };

  return {
    ctx,
    setCurrentBench: (name) => (currentBench = name),
    summaryRows,
    /** Stops everything started, newest first. */
    cleanup: async () => {
      for (const stop of cleanups.reverse()) await stop();
    },
  };
}
