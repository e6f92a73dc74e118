/**
 * Shared sessions for the UI benches, seeded once per `npm run bench` run (ctx.fixture memoizes):
 * the 10,000-entry "big" session and a small one to click away to.
 */

import { ensureSchema, openDbPage, seedSession } from "./seed.mjs";
import { generateSession } from "./session-data.mjs";

export const BIG = {
  id: "0190b000-0000-7000-8000-00000000b16b",
  title: "Bench · 10,000 entries",
  leafMarker: "BENCH-LEAF-10K",
  rootMarker: "BENCH-ROOT-10K",
};
export const SMALL = {
  id: "0190b000-0000-7000-8000-000000000005",
  title: "Bench · small",
  leafMarker: "BENCH-LEAF-SMALL",
  rootMarker: "BENCH-ROOT-SMALL",
};

/** The leaf message's article: its aria-label starts with the first 80 chars of its text. */
export const articleWith = (marker) => `.message-scroll article[aria-label*="${marker}"]`;

export const hashUrl = (baseUrl, sessionId) => `${baseUrl}/#/s/${encodeURIComponent(sessionId)}`;

/**
 * Seeds both sessions into the app served at `url` (default: ctx.app()), once per run and origin.
 * Resolves to { url, big, small, dbPage, seedMs, genMs, stats }; `dbPage` is a blank page of that
 * origin with the database open (see seed.mjs).
 */
export async function seededSessions(ctx, url) {
  const origin = url ?? (await ctx.app()).url;
  return ctx.fixture(`seeded-sessions ${origin}`, async () => {
    const { context } = await ctx.browser();
    await ensureSchema(context, origin);

    const t0 = performance.now();
    const big = generateSession({ seed: 42, sessionId: BIG.id, title: BIG.title, ...markers(BIG) });
    const small = generateSession({
      seed: 7,
      sessionId: SMALL.id,
      title: SMALL.title,
      total: 4,
      pathLength: 4,
      startMs: Date.UTC(2025, 0, 5, 9, 0, 0),
      ...markers(SMALL),
    });
    const genMs = performance.now() - t0;

    const dbPage = await openDbPage(context, origin);
    const seedMs = (await seedSession(dbPage, big)) + (await seedSession(dbPage, small));
    // Let the browser's IndexedDB backend finish flushing/compacting 13 MB before anything is timed.
    await new Promise((r) => setTimeout(r, 2000));
    return {
      url: origin,
      big: { ...BIG, ...big },
      small: { ...SMALL, ...small },
      dbPage,
      genMs,
      seedMs,
      stats: big.stats,
    };
  });
}

const markers = (s) => ({ leafMarker: s.leafMarker, rootMarker: s.rootMarker });
