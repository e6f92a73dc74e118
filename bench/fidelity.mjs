/**
 * Compaction fidelity (issue 29 item 4), opt-in: `npm run bench -- fidelity`. Seeded conversations
 * with planted facts are folded 1, 3, 10 and 18 times on a 14k window by Grove's compaction engine
 * (the compaction worker's API in-process, in Node through Vite's SSR loader), its summarizer calls
 * and the probes going through providers/ over HTTP to the e2e mock server (started in-process on
 * 127.0.0.1),
 * whose adversarial summarizers each get a row. With GROVE_LIVE_ANTHROPIC_KEY and/or
 * GROVE_LIVE_OPENAI_KEY set, the same runs go to the real providers too. Each report is printed and
 * written to bench/results/fidelity-<date>-<mode>.md (git-ignored). A floor violation (a user fact
 * or a pin not word for word in the next request, a chat request without the per-chat prompt)
 * fails the bench. See bench/fidelity/ and bench/README.md.
 *
 * Environment: GROVE_FIDELITY_SEED (29), GROVE_FIDELITY_FOLDS ("1,3,10,18"),
 * GROVE_FIDELITY_CONVERSATIONS (per fold count: 3 against the mock, 1 live; --quick: 1).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer } from "vite";

function settingsFrom(env, defaults, { live, quick }) {
  const int = (name, fallback) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, not "${raw}"`);
    return n;
  };
  const folds = env.GROVE_FIDELITY_FOLDS?.trim()
    ? env.GROVE_FIDELITY_FOLDS.split(",").map((s) => {
        const n = Number(s.trim());
        if (!Number.isInteger(n) || n < 1) throw new Error(`GROVE_FIDELITY_FOLDS: "${s}" is not a positive integer`);
        return n;
      })
    : defaults.folds;
  return {
    ...defaults,
    seed: int("GROVE_FIDELITY_SEED", defaults.seed),
    folds,
    conversations: int("GROVE_FIDELITY_CONVERSATIONS", live || quick ? 1 : defaults.conversations),
  };
}

const describe = (settings, how) => [
  `Seed ${settings.seed}; ${settings.conversations} conversation(s) per fold count; folds ${settings.folds.join(", ")} ` +
    `on a ${settings.window.toLocaleString("en-US")}-token window (Grove's default compaction settings); ${how}.`,
];

export default {
  name: "fidelity",
  description: "compaction fidelity: planted facts through 1–18 folds (mock summarizers; live with GROVE_LIVE_* keys)",
  uses: [],
  optIn: true,
  async run(ctx) {
    const vite = await createServer({
      root: ctx.root,
      logLevel: "error",
      server: { middlewareMode: true },
      appType: "custom",
    });
    // The e2e mock server, in this process (Vite transpiles it as it does the engine), on 127.0.0.1.
    const { startMockServer } = await vite.ssrLoadModule("/e2e/mock-server/index.ts");
    const mock = await startMockServer({ port: 0, config: { chunkDelayMs: 0 } });
    const date = new Date().toISOString().slice(0, 10);
    const outDir = join(ctx.root, "bench/results");
    const failures = [];
    try {
      const core = await vite.ssrLoadModule("/bench/fidelity/run-fidelity.ts");
      const targets = await vite.ssrLoadModule("/bench/fidelity/targets.ts");
      const table = await vite.ssrLoadModule("/bench/fidelity/table.ts");
      const world = core.createFidelityWorld();
      const report = async (mode, list, settings, how) => {
        const t0 = performance.now();
        let runs = 0;
        const total = list.length * settings.folds.length * settings.conversations;
        const results = await core.runFidelity(world, list, settings, (r) => {
          runs++;
          ctx.log(
            `[${runs}/${total}] ${r.label}, ${r.folds} folds, seed ${r.seed}: ${r.foldsDone} written` +
              `${r.failure ? `, ${r.failedFolds} failed (${r.failure})` : ""}, ${r.requests} requests`,
          );
        });
        const seconds = ((performance.now() - t0) / 1000).toFixed(1);
        const text = table.fidelityReport(results, [
          `# Grove compaction fidelity — ${mode}, ${date}`,
          "",
          ...describe(settings, how),
        ]);
        mkdirSync(outDir, { recursive: true });
        const file = join(outDir, `fidelity-${date}-${mode}.md`);
        writeFileSync(file, text);
        ctx.log("");
        for (const line of text.split("\n")) ctx.log(line);
        ctx.log(`(${mode}: ${seconds} s; written to ${file})`);
        const violations = table.floorViolations(results);
        ctx.summary(
          `fidelity ${mode}`,
          violations.length === 0 ? "floor held" : `${violations.length} FLOOR VIOLATIONS`,
        );
        if (violations.length > 0) failures.push(`${mode}: ${violations.length} floor violation(s), see the report`);
      };

      // Live first checks that each provider answers, before anything runs (fail fast, spend nothing).
      const live = targets.liveTargets(process.env);
      for (const t of live) await targets.checkReachable(world, t);

      const mockSettings = settingsFrom(process.env, core.DEFAULT_FIDELITY_SETTINGS, {
        live: false,
        quick: ctx.options.quick,
      });
      await report(
        "mock",
        targets.mockTargets(mock.anthropicBaseUrl),
        mockSettings,
        `the mock provider's deterministic summarizers, its reader answering the probes from the request's text, costs as ${targets.MOCK_PRICE_MODEL} from the mock's usage (chars ÷ 4)`,
      );

      if (live.length === 0) {
        ctx.log("live: skipped (set GROVE_LIVE_ANTHROPIC_KEY and/or GROVE_LIVE_OPENAI_KEY to run it)");
      } else {
        const liveSettings = settingsFrom(process.env, core.DEFAULT_FIDELITY_SETTINGS, {
          live: true,
          quick: ctx.options.quick,
        });
        await report(
          "live",
          live,
          liveSettings,
          `live providers (${live.map((t) => t.label).join("; ")}): each model summarizes, answers the probes and grades; costs from the usage they reported`,
        );
      }
    } finally {
      await mock.close();
      await vite.close();
    }
    if (failures.length > 0) throw new Error(`FLOOR VIOLATED — ${failures.join("; ")}`);
  },
};
