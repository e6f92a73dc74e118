/**
 * Compaction engine numbers (issue 3), in Node through Vite's SSR loader (the engine is pure
 * TypeScript in src/core): preparing a compaction on a 5,000,000-token active path once per-entry
 * counts are stored (target < 50 ms), and the compaction property run 10,000 times with an
 * adversarial summarizer (npm test runs 1,000).
 */
import { createServer } from "vite";
import { max, median } from "./lib/stats.mjs";

const PATH_TOKENS = 5_000_000;
const ENTRY_TOKENS = 100;
const PROPERTY_RUNS = 10_000;

export default {
  name: "compaction",
  description: "prepare on a 5M-token path with stored counts; 10,000 property runs",
  uses: [],
  async run(ctx) {
    const vite = await createServer({
      root: ctx.root,
      logLevel: "error",
      server: { middlewareMode: true },
      appType: "custom",
    });
    try {
      const prepare = await vite.ssrLoadModule("/src/core/compaction/prepare.ts");
      const settings = await vite.ssrLoadModule("/src/core/compaction/settings.ts");
      const tokens = await vite.ssrLoadModule("/src/core/tokens/entry-tokens.ts");
      const estimate = await vite.ssrLoadModule("/src/core/tokens/estimate.ts");

      // A linear 5M-token path: alternating user/assistant messages of ~100 tokens each.
      const n = PATH_TOKENS / ENTRY_TOKENS;
      const sessionId = "bench-session";
      const path = [];
      const text = "word ".repeat((ENTRY_TOKENS * 4) / 5);
      for (let i = 0; i < n; i++) {
        path.push({
          id: `e${String(i).padStart(7, "0")}`,
          sessionId,
          parentId: i === 0 ? null : `e${String(i - 1).padStart(7, "0")}`,
          createdAt: i,
          type: "message",
          role: i % 2 === 0 ? "user" : "assistant",
          content: [{ type: "text", text: `${i} ${text}` }],
          status: "complete",
        });
      }
      // "Once counts are stored": the tokenCounts cache holds every entry's count.
      const stored = new Map(path.map((e) => [e.id, ENTRY_TOKENS]));
      const countTokens = estimate.estimateTokens;
      const entryTokens = tokens.cachedEntryTokens(stored, countTokens);
      const opts = {
        reason: "threshold",
        settings: settings.DEFAULT_COMPACTION_SETTINGS,
        contextWindow: 200_000,
        summarizerWindow: 200_000,
        summarizerMaxOutput: 64_000,
        countTokens,
        entryTokens,
        systemPrompt: "",
        targetApi: "anthropic-messages",
      };
      const times = [];
      let kind = "";
      for (let r = 0; r < ctx.runs(7); r++) {
        const t0 = performance.now();
        const result = prepare.prepareCompaction(path, opts);
        times.push(performance.now() - t0);
        kind =
          result.kind === "plan" ? `plan: fold ${result.plan.history.length.toLocaleString()} entries` : result.kind;
      }
      const cold = times[0];
      const rest = times.slice(1);
      const warm = { p50: median(rest), max: max(rest) };
      ctx.log(
        `prepare   ${n.toLocaleString()} entries, ${PATH_TOKENS.toLocaleString()} tokens, counts stored → ${kind}`,
      );
      ctx.log(
        `          first ${cold.toFixed(1)} ms; then median ${warm.p50.toFixed(1)} ms, max ${warm.max.toFixed(1)} ms (target < 50 ms)`,
      );
      ctx.summary(
        "compaction prepare, 5M tokens",
        `${warm.p50.toFixed(1)} ms median (first ${cold.toFixed(1)} ms; target < 50)`,
      );

      const harness = await vite.ssrLoadModule("/src/core/testing/compaction-property-harness.ts");
      const runs = ctx.runs(PROPERTY_RUNS);
      const t0 = performance.now();
      const stats = await harness.compactionProperty(runs);
      const seconds = (performance.now() - t0) / 1000;
      ctx.log(
        `property  ${runs.toLocaleString()} random sessions, adversarial summarizer: all guarantees held in ${seconds.toFixed(1)} s`,
      );
      ctx.log(`          ${JSON.stringify(stats)}`);
      ctx.summary("compaction property runs", `${runs.toLocaleString()} passed in ${seconds.toFixed(1)} s`);
    } finally {
      await vite.close();
    }
  },
};
