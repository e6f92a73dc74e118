/**
 * The cold start (issue 25): a fresh tab opening a 2-message chat, in a browser of its own that
 * allows service workers (the shared one blocks them). Each run starts with nothing cached (HTTP
 * cache, service worker and its caches cleared through CDP), then:
 *
 * - first visit: the time until the last message is in the DOM and painted, and every byte the
 *   page, its workers and its service worker fetched before the first screen settled (the open
 *   probe: leaf in the DOM, then 300 ms without DOM changes), gzip-compressed (the files as served,
 *   gzipped here: `vite preview` does not compress), with the heavy ones named (tokenizer tables,
 *   workers, precache);
 * - then, once the service worker is installed: what it precached (all after the first screen, when
 *   the app registers it), and a second visit answered by it: the time to the last message.
 *
 * Targets (issue 25): bytes before the first screen settles ≤ the peer's (BetterChatGPT: 1,243 kB
 * gzip in the issue's run), last message ≤ 0.6× the peer's time. Only Grove's figures are printed
 * here; `peer.mjs` (opt-in, `npm run bench -- peer`) measures both apps side by side, interleaved.
 * Numbers only.
 */
import { launchBrowser } from "./lib/browser.mjs";
import { articleWith, hashUrl, TWO, twoMessageSession } from "./lib/fixtures.mjs";
import { installOpenProbe, readOpenProbe } from "./lib/probe.mjs";
import { clearOrigin, recordRequests } from "./lib/requests.mjs";
import { ensureSchema, openDbPage, seedSession } from "./lib/seed.mjs";
import { median, ms } from "./lib/stats.mjs";

const QUIET_MS = 300;
const PEER_STARTUP_KB = 1243;
const SW_READY_TIMEOUT_MS = 120_000;

/** What a fetched file is, for the report. */
function kindOf(path) {
  if (/\/(o200k_base|cl100k_base)-/.test(path)) return "tokenizer table";
  if (/\.worker-[^/]*\.js$/.test(path)) return "worker";
  if (/\/sw\.js$|workbox-/.test(path)) return "service worker";
  if (path.endsWith(".js")) return "js";
  if (path.endsWith(".css")) return "css";
  if (/\.(woff2?|ttf)$/.test(path)) return "font";
  return "other";
}

const kB = (b) => `${(b / 1024).toFixed(0)} kB`;

async function openOnce(context, url, { record }) {
  const page = await context.newPage();
  const recorder = record ? recordRequests(context) : null;
  try {
    await page.addInitScript(installOpenProbe, {
      leafSelector: articleWith(TWO.leafMarker),
      mode: "navigation",
      quietMs: QUIET_MS,
    });
    await page.goto(hashUrl(url, TWO.id));
    const probe = await readOpenProbe(page);
    const origin = await page.evaluate(() => performance.timeOrigin);
    const settledAt = origin + (probe.settled ?? probe.leaf);
    // Bodies are read after the response: give the last ones a moment.
    await page.waitForTimeout(200);
    const before = recorder ? recorder.seen.filter((r) => r.start > 0 && r.start <= settledAt) : [];
    return { page, probe, before, recorder };
  } catch (e) {
    recorder?.stop();
    await page.close();
    throw e;
  }
}

export default {
  name: "cold-start",
  description:
    "a fresh tab opening a 2-message chat: bytes before the first screen settles, time to the last message (with/without service worker)",
  uses: ["app"],
  async run(ctx) {
    const { url } = await ctx.app();
    const browser = await launchBrowser({ serviceWorkers: "allow" });
    const { context } = browser;
    try {
      await ensureSchema(context, url);
      await clearOrigin(context, url);
      const dbPage = await openDbPage(context, url);
      await seedSession(dbPage, twoMessageSession());
      await dbPage.close();

      const runs = ctx.runs(5);
      const first = [];
      const second = [];
      const bytes = [];
      const jsBytes = [];
      const precached = [];
      let heavy = new Map();
      for (let i = 0; i < runs; i++) {
        await clearOrigin(context, url);
        const { page, probe, before, recorder } = await openOnce(context, url, { record: true });
        first.push(probe.painted ?? probe.leaf);
        const sum = (list) => list.reduce((n, r) => n + r.gzip, 0);
        bytes.push(sum(before));
        jsBytes.push(sum(before.filter((r) => r.path.endsWith(".js"))));
        heavy = new Map();
        for (const r of before) {
          const k = r.sw ? "service worker requests" : kindOf(r.path);
          heavy.set(k, (heavy.get(k) ?? 0) + r.gzip);
        }
        const swBefore = before.filter((r) => r.sw).length;
        // The service worker installs after the first screen: wait for it, then count what it fetched.
        let installed = true;
        try {
          await page.evaluate(
            (timeout) =>
              Promise.race([
                navigator.serviceWorker.ready,
                new Promise((_, reject) => setTimeout(() => reject(new Error("no service worker")), timeout)),
              ]),
            SW_READY_TIMEOUT_MS,
          );
        } catch {
          installed = false;
        }
        await page.waitForTimeout(500);
        recorder.stop();
        precached.push(recorder.seen.filter((r) => r.sw).length);
        await page.close();
        ctx.log(
          `run ${i + 1}: last message ${ms(probe.painted ?? probe.leaf)}, settled ${ms(probe.settled)}; ` +
            `before the first screen settled ${kB(bytes[i])} gzip (JS ${kB(jsBytes[i])}), ${swBefore} service-worker requests; ` +
            `service worker ${installed ? `installed after, ${precached[i]} requests` : "NOT installed"}`,
        );
        if (installed) {
          const again = await openOnce(context, url, { record: false });
          second.push(again.probe.painted ?? again.probe.leaf);
          await again.page.close();
        }
      }
      ctx.log(
        `before the first screen settled (last run), gzip by kind: ${[...heavy].map(([k, v]) => `${k} ${kB(v)}`).join(", ")}`,
      );
      const medBytes = median(bytes);
      ctx.log(
        `median of ${runs}: bytes before the first screen settled ${kB(medBytes)} gzip (JS ${kB(median(jsBytes))}); ` +
          `target ≤ the peer's (${PEER_STARTUP_KB} kB in the issue's run; side by side: npm run bench -- peer): ${medBytes / 1024 <= PEER_STARTUP_KB ? "met" : "NOT met"}`,
      );
      ctx.log(
        `median of ${runs}: last message of the 2-message chat ${ms(median(first))} cold, no service worker; ` +
          `${second.length ? ms(median(second)) : "n/a"} with the service worker installed (target ≤ 0.6× the peer's: npm run bench -- peer)`,
      );
      ctx.summary(
        "cold start bytes before first screen",
        `${kB(medBytes)} gzip (JS ${kB(median(jsBytes))}; target ≤ peer, 1,243 kB in the issue)`,
      );
      ctx.summary(
        "cold start last message (no SW / SW)",
        `${ms(median(first))} / ${second.length ? ms(median(second)) : "n/a"}`,
      );
    } finally {
      await browser.close();
    }
  },
};
