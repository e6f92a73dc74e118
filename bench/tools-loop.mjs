/**
 * A 50-step tool loop (issue 28's bench): the app on the mock provider (a child process, Anthropic)
 * with the filesystem-style MCP server (scripts/mcp-servers.mjs) chosen for the chat; the model reads
 * one file per step, 50 files of 40,000 characters (2 MB of tool output in all), then answers.
 * Automatic compaction is off (the context grows to the whole 2 MB; the mock never overflows), the
 * step limit above 50, the calls allowed in the chat at the first question.
 *
 * Prints (numbers, never pass/fail):
 * - the longest main-thread task (a `longtask` observer) from the Enter to the answer on screen, how
 *   many went over 50 ms, when (step) — target: none over 50 ms;
 * - each step's context build on the main thread (the app's `groveContextBuildTimes()` test hook: the
 *   loop's builds, path length and ms) at steps 1, 10, 25 and 50, and the ratio of step 50's build time
 *   to step 10's against the ratio of their path lengths — target: proportional to the path (≈ 1 ×).
 *
 * Its own fresh Chromium profile (settings point at a mock stopped afterwards).
 *
 * `GROVE_BENCH_TRACE=1`: an unminified build, the loop under a Chrome trace (as open-trace.mjs), and
 * for every main-thread task over 50 ms the functions with the most self and inclusive time in it.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startFilesServer } from "../scripts/mcp-servers.mjs";
import { buildForProfiling } from "./lib/app-server.mjs";
import { launchBrowser } from "./lib/browser.mjs";
import { configureApp, control, startMock } from "./lib/mock.mjs";
import { ms } from "./lib/stats.mjs";
import { longTasksOf, top, traced } from "./open-trace.mjs";

const TRACE = process.env.GROVE_BENCH_TRACE === "1";

const STEPS = 50;
const FILE_CHARS = 40_000;
const ANSWER = "BENCH-LOOP-DONE: every file read.";
/** Build times are noisy (a GC lands in one): each reported step is the median of its neighbours ±2. */
const SPREAD = 2;

const VOCABULARY = (
  "river copper lantern meadow orbit harbor velvet quarry summit glacier ember falcon timber canyon " +
  "mosaic prairie beacon thistle cobalt marble saddle willow garnet compass ledger pepper voyage"
).split(" ");

/** `FILE_CHARS` characters of log-like lines, different per file. */
function fileText(n) {
  let seed = 7_919 * (n + 1);
  const word = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return VOCABULARY[seed % VOCABULARY.length];
  };
  const lines = [];
  let size = 0;
  for (let line = 0; size < FILE_CHARS; line++) {
    const text = `${String(line).padStart(5, "0")} file-${n} ${Array.from({ length: 10 }, word).join(" ")}`;
    lines.push(text);
    size += text.length + 1;
  }
  return lines.join("\n").slice(0, FILE_CHARS);
}

/** In the page before the app: the test hooks, every long task, the Enter's timestamp. */
function installProbe() {
  localStorage.setItem("grove.testHooks", "1");
  const probe = { tasks: [], enter: null, approved: null };
  window.__toolsLoop = probe;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) probe.tasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
  document.addEventListener(
    "keydown",
    (e) => {
      if (e.key === "Enter" && probe.enter === null && e.target instanceof HTMLTextAreaElement)
        probe.enter = e.timeStamp;
    },
    true,
  );
  document.addEventListener(
    "click",
    (e) => {
      if (probe.approved === null && e.target instanceof Element && e.target.closest(".approval-actions"))
        probe.approved = e.timeStamp;
    },
    true,
  );
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : Number.NaN;
};

export default {
  name: "tools-loop",
  description: "50-step tool loop with 2 MB of tool output: longest main-thread task, context build per step",
  uses: ["app", "browser"],
  optIn: true,
  async run(ctx) {
    const { url } = TRACE ? await ctx.serve(await buildForProfiling(ctx.root)) : await ctx.app();
    const mock = await startMock(ctx.root);
    const files = await startFilesServer();
    const browser = await launchBrowser();
    try {
      for (let i = 1; i <= STEPS; i++) await writeFile(join(files.dir, `f${i}.txt`), fileText(i));
      const { context } = browser;
      const page = await context.newPage();
      await page.addInitScript(installProbe);
      await configureApp(page, url, mock, { model: "anthropic::claude-sonnet-4-5", automaticCompaction: false });

      // Settings › Tools: the files server, a step limit above the loop's length.
      await page.getByRole("button", { name: "Settings" }).click();
      const dialog = page.getByRole("dialog", { name: "Settings" });
      const tools = dialog.getByRole("region", { name: "Tools" });
      await tools.getByLabel("Server URL").fill(files.url);
      await tools.getByRole("button", { name: "Add MCP server" }).click();
      await dialog
        .getByRole("listitem")
        .filter({ hasText: "local" })
        .getByRole("status")
        .filter({ hasText: /^Connected · \d+ tools$/ })
        .waitFor({ timeout: 30_000 });
      await dialog.getByLabel("Step limit").fill(String(STEPS + 10));
      await dialog.getByLabel("Step limit").press("Enter");
      await dialog.getByRole("button", { name: "Close" }).click();
      await dialog.waitFor({ state: "hidden" });
      await page.getByRole("button", { name: "Tools" }).click();
      await page.getByRole("menu", { name: "Tools" }).getByRole("menuitemcheckbox", { name: "local" }).click();
      await page.keyboard.press("Escape");

      const scripts = Array.from({ length: STEPS }, (_, i) => ({
        toolCalls: [{ name: "local__read_file", input: { path: `f${i + 1}.txt` } }],
      }));
      await control(mock, "enqueue", { api: "anthropic", scripts: [...scripts, { text: ANSWER }] });

      const loop = async () => {
        const box = page.getByRole("textbox", { name: "Message" });
        await box.fill("Read every file, one per step.");
        await box.press("Enter");
        // A CSS locator: a role query computes every element's role and name in the page's main
        // thread — a long task of the bench's own, inside the measured window.
        await page.locator(".approval-actions button", { hasText: "Allow in this chat" }).click({ timeout: 30_000 });
        const t0 = Date.now();
        // Not getByText: Playwright's text matching walks the whole DOM (2 MB of tool output in the
        // folded steps) on every check, in the page's main thread — long tasks that are the bench's own.
        await page.waitForFunction(
          (answer) => document.querySelector(`article[aria-label*="${answer.slice(0, 40)}"]`) !== null,
          ANSWER,
          { polling: 500, timeout: 600_000 },
        );
        return { wall: Date.now() - t0, doneAt: await page.evaluate(() => performance.now()) };
      };
      const { wall, doneAt, events } = TRACE
        ? await traced(page, loop).then((r) => ({ ...r.probe, events: r.events }))
        : { ...(await loop()), events: null };
      await page.waitForTimeout(1000);
      const probe = await page.evaluate(() => window.__toolsLoop);
      const builds = await page.evaluate(() => window.groveContextBuildTimes?.() ?? null);
      if (!builds) throw new Error("no groveContextBuildTimes(): the build has no test hooks for it");
      const requests = (await control(mock, "requests?api=anthropic")).filter(
        (r) => r.method === "POST" && r.path.endsWith("/messages"),
      );
      const largest = Math.max(...requests.map((r) => JSON.stringify(r.body ?? {}).length));

      // The loop's builds (nativeTools), one per step, in order.
      const steps = builds.filter((b) => b.nativeTools).slice(-(STEPS + 1));
      if (steps.length < STEPS + 1) throw new Error(`only ${steps.length} loop builds recorded for ${STEPS + 1} steps`);
      const at = (step) => {
        const i = step - 1;
        const around = steps.slice(Math.max(0, i - SPREAD), Math.min(steps.length, i + SPREAD + 1));
        return { entries: steps[i].entries, ms: median(around.map((b) => b.ms)) };
      };
      const during = probe.tasks.filter((t) => t.start >= probe.enter && t.start <= doneAt);
      const longest = during.length ? Math.max(...during.map((t) => t.duration)) : 0;
      // The send into a new chat (its first screen of messages) and the loop's own steps, apart.
      const beforeApproval = during.filter((t) => t.start < probe.approved);
      const inLoop = during.filter((t) => t.start >= probe.approved);
      const worst = (ts) =>
        ts.length ? `${ts.length}, longest ${ms(Math.max(...ts.map((t) => t.duration)))}` : "none";

      ctx.log(
        `loop      ${STEPS} steps × 1 read_file of ${FILE_CHARS.toLocaleString("en")} chars (${((STEPS * FILE_CHARS) / 1e6).toFixed(1)} MB of tool output), then the answer; ${requests.length} requests; the largest ${(largest / 1e6).toFixed(2)} MB`,
      );
      ctx.log(`wall      ${ms(wall)} from the approval to the answer on screen (mock streams, MCP calls, writes)`);
      ctx.log(
        `long tasks (> 50 ms) from the Enter to the answer: ${during.length}; longest ${during.length ? ms(longest) : "none"}; total ${ms(during.reduce((a, t) => a + t.duration, 0))}`,
      );
      ctx.log(
        `          of which from the Enter to the approval (the new chat's first request): ${worst(beforeApproval)}`,
      );
      ctx.log(`          of which in the loop (the approval to the answer): ${worst(inLoop)}`);
      if (during.length)
        ctx.log(
          `          at (s after the Enter)+ms: ${during.map((t) => `${((t.start - probe.enter) / 1000).toFixed(1)}+${Math.round(t.duration)}`).join(", ")}`,
        );
      if (events) {
        for (const t of longTasksOf(events)) {
          ctx.log(`  traced task ${t.dur.toFixed(0)} ms`);
          ctx.log(`    self: ${top(t.self, 8).join(" | ")}`);
          ctx.log(`    inclusive: ${top(t.incl, 25).join(" | ")}`);
        }
      }
      for (const step of [1, 10, 25, STEPS, STEPS + 1]) {
        const b = at(step);
        ctx.log(
          `build     step ${String(step).padStart(2)}: path ${String(b.entries).padStart(3)} entries, ${b.ms.toFixed(2)} ms`,
        );
      }
      const s10 = at(10);
      const s50 = at(STEPS);
      const timeRatio = s50.ms / s10.ms;
      const pathRatio = s50.entries / s10.entries;
      ctx.log(
        `ratio     step ${STEPS} ÷ step 10: build time ${timeRatio.toFixed(2)}× vs path length ${pathRatio.toFixed(2)}× (→ ${(timeRatio / pathRatio).toFixed(2)} × proportional)`,
      );
      ctx.summary(
        "tools loop, longest main-thread task",
        during.length ? `${ms(longest)} (${during.length} over 50 ms)` : "none over 50 ms",
      );
      ctx.summary(
        "tools loop, build step 50 ÷ 10",
        `${timeRatio.toFixed(2)}× time vs ${pathRatio.toFixed(2)}× path (${s10.ms.toFixed(2)} → ${s50.ms.toFixed(2)} ms)`,
      );
    } finally {
      await browser.close();
      await files.close();
      await mock.stop();
    }
  },
};
