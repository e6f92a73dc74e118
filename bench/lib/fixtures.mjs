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

/** A 10,000-message path (no branches): scrolling cost against the 2,000-message path of BIG. */
export const HUGE = {
  id: "0190b000-0000-7000-8000-0000000a11e7",
  title: "Bench · 10,000-message path",
  leafMarker: "BENCH-LEAF-HUGE",
  rootMarker: "BENCH-ROOT-HUGE",
};
/** A 2-message chat: the cold start (cold-start.mjs seeds it into its own profile). */
export const TWO = {
  id: "0190b000-0000-7000-8000-0000000c0002",
  title: "Bench · 2 messages (cold start)",
  leafMarker: "BENCH-LEAF-COLD-TWO",
  rootMarker: "BENCH-ROOT-COLD-TWO",
};

/** The TWO session's rows. */
export function twoMessageSession() {
  return generateSession({
    seed: 3,
    sessionId: TWO.id,
    title: TWO.title,
    total: 2,
    pathLength: 2,
    startMs: Date.UTC(2025, 0, 4, 9, 0, 0),
    ...markers(TWO),
  });
}

/** The leaf message's article: its aria-label starts with the first 80 chars of its text. */
export const articleWith = (marker) => `.message-scroll article[aria-label*="${marker}"]`;

/** Shown above the end of a chat while the rest of its path is read (ui/chat/MessageList.tsx). */
export const LOADING_EARLIER = ".loading-earlier";

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

/**
 * Seeds HUGE into the app served at `url` (default: ctx.app()), once per run and origin, beside
 * (after) the sessions of `seededSessions`. Resolves to { url, huge }.
 */
export async function seededExtraSessions(ctx, url) {
  const base = await seededSessions(ctx, url);
  return ctx.fixture(`seeded-extra ${base.url}`, async () => {
    const huge = generateSession({
      seed: 99,
      sessionId: HUGE.id,
      title: HUGE.title,
      total: 10_000,
      pathLength: 10_000,
      startMs: Date.UTC(2025, 0, 3, 9, 0, 0),
      ...markers(HUGE),
    });
    await seedSession(base.dbPage, huge);
    await new Promise((r) => setTimeout(r, 2000));
    return { url: base.url, huge: { ...HUGE, ...huge } };
  });
}
