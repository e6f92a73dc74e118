/**
 * What the opt-in open benches share (`open-profile`: CPU profiles; `open-trace`: Chrome traces): an
 * unminified build of the working tree (readable function names) served on its own origin, the
 * seeded sessions, an output folder under bench/out, one warm-up open of the 2,000-message path (HTTP
 * and code caches, not measured), and a cold open of it in a fresh page under an instrument.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { buildForProfiling } from "./app-server.mjs";
import { articleWith, hashUrl, seededSessions } from "./fixtures.mjs";
import { installOpenProbe, readOpenProbe } from "./probe.mjs";

/** Builds, serves, seeds and warms up; `outName` is the folder under bench/out for the bench's files. */
export async function prepareProfiledOpens(ctx, outName) {
  const outDir = await buildForProfiling(ctx.root);
  const { url } = await ctx.serve(outDir);
  const { big, small } = await seededSessions(ctx, url);
  const { context } = await ctx.browser();
  const dir = join(ctx.root, "bench/out", outName);
  mkdirSync(dir, { recursive: true });
  const leafSelector = articleWith(big.leafMarker);
  const warmup = await context.newPage();
  await warmup.goto(hashUrl(url, big.id));
  await warmup.locator(leafSelector).waitFor();
  await warmup.close();
  return { url, big, small, context, dir, leafSelector };
}

/**
 * A cold open of the big session in a new page (probe: `navigation` mode, settled after 300 ms quiet,
 * plus `probeOptions`), run inside `instrument(page, open)`, which starts its recording, awaits
 * `open()` (the probe's reading) and returns what it recorded. The page is closed after.
 */
export async function coldOpen(setup, instrument, probeOptions = {}) {
  const page = await setup.context.newPage();
  await page.addInitScript(installOpenProbe, {
    leafSelector: setup.leafSelector,
    mode: "navigation",
    quietMs: 300,
    ...probeOptions,
  });
  try {
    return await instrument(page, async () => {
      await page.goto(hashUrl(setup.url, setup.big.id));
      return readOpenProbe(page);
    });
  } finally {
    await page.close();
  }
}
