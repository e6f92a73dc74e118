/**
 * Side by side with the peer, BetterChatGPT (issue 25's targets), opt-in: `npm run bench -- peer`
 * with `GROVE_PEER_DIST` naming the peer's built `dist/` (bench/peer.md says how to rebuild it; its
 * code never enters this repository). Both apps run in the shared bench browser (service workers
 * blocked), each with the same chat seeded in its own storage: Grove's IndexedDB (lib/seed.mjs), the
 * peer's persisted zustand store in localStorage (`free-chat-gpt`, version 8, with an API key and
 * `firstVisit: false`, so no first-run popup). Loads alternate Grove, peer, Grove, peer…
 *
 * - 2-message chat, cold (HTTP cache cleared before every load): time until the last message is in
 *   the DOM and a frame painted, and the bytes fetched before the first screen settled (gzip; JS
 *   apart). Targets: Grove's time ≤ 0.6× the peer's; Grove's startup JS ≤ the peer's.
 * - 1,000 and 2,000 messages (the same generated text: Grove's active path of a branched session,
 *   the peer's linear chat), fresh page loads after one untimed warm-up each: time until the last
 *   message is painted, DOM elements and JS heap (after a GC) once the page settled: for Grove, once
 *   the whole tree is read too (no "Loading earlier messages…" line; it arrives after the end shows,
 *   and measured before it, the heap was a matter of timing). Targets: Grove ≥ 15× sooner; Grove's
 *   DOM and heap flat in N (2,000 ÷ 1,000 within 1.2×). The heap holds the whole tree (5,000 and
 *   10,000 entries; the chats' JSON is printed beside it).
 */
import { mkdir, readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { loadavg } from "node:os";
import { extname, join, normalize, resolve } from "node:path";
import { freePort } from "../scripts/free-port.mjs";
import { articleWith, hashUrl, LOADING_EARLIER, seededSessions, TWO, twoMessageSession } from "./lib/fixtures.mjs";
import { installOpenProbe, readOpenProbe } from "./lib/probe.mjs";
import { clearOrigin, recordRequests } from "./lib/requests.mjs";
import { BLANK_PATH, seedSession } from "./lib/seed.mjs";
import { generateSession } from "./lib/session-data.mjs";
import { median, ms, table } from "./lib/stats.mjs";

const QUIET_MS = 300;
const PEER_STORE_KEY = "free-chat-gpt";
const PEER_STORE_VERSION = 8;
const PEER_MESSAGE = ".share-gpt-message";

/** A 1,000-message active path (5,000 entries): the same generator and seed as the 2,000 one. */
const MID = {
  id: "0190b000-0000-7000-8000-0000000e1000",
  title: "Bench · 1,000-message path (peer)",
  leafMarker: "BENCH-LEAF-1K",
  rootMarker: "BENCH-ROOT-1K",
};

const kB = (b) => `${(b / 1024).toFixed(0)} kB`;
const MB = (b) => `${(b / 2 ** 20).toFixed(1)} MB`;
const fmtInt = (n) => n.toLocaleString("en-US");
const verdict = (ok) => (ok ? "met" : "NOT met");
const loadLine = () => {
  const [one, five] = loadavg();
  return `load average ${one.toFixed(2)} (1 min), ${five.toFixed(2)} (5 min)`;
};

const TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
};

/**
 * Serves the peer's dist on a free port. Not `ctx.serve`: `vite preview` run from this repository
 * sends Grove's Content-Security-Policy, which blocks the peer's WebAssembly tokenizer.
 */
async function servePeer(dir) {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const file = normalize(join(root, path.endsWith("/") ? `${path}index.html` : path));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  const port = await freePort();
  await new Promise((done) => server.listen(port, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((done) => server.close(() => done())) };
}

/** The path of a generated session as the peer's messages: role and the text blocks' text. */
function peerMessages({ entries, path }) {
  const byId = new Map(entries.map((e) => [e.id, e]));
  return path.map((id) => {
    const e = byId.get(id);
    const text = e.content
      .filter((b) => b.type === "text")
      .map((b) => b.text)
      .join("\n\n");
    return { role: e.role, content: text };
  });
}

/** The peer's persisted store (src/store/store.ts `createPartializedState`) holding one chat. */
function peerStore(title, messages) {
  const config = {
    model: "gpt-3.5-turbo",
    max_tokens: 4000,
    temperature: 1,
    presence_penalty: 0,
    top_p: 1,
    frequency_penalty: 0,
  };
  return {
    state: {
      chats: [{ id: "bench-chat", title, messages, config, titleSet: true }],
      currentChatIndex: 0,
      // Any non-empty key keeps the "Setup your API key" popup shut; nothing is sent in this bench.
      apiKey: "sk-bench-placeholder",
      apiEndpoint: "https://api.openai.com/v1/chat/completions",
      theme: "dark",
      autoTitle: false,
      advancedMode: true,
      prompts: [],
      defaultChatConfig: config,
      defaultSystemMessage: "",
      hideMenuOptions: false,
      firstVisit: false,
      hideSideMenu: false,
      folders: {},
      enterToSubmit: true,
      inlineLatex: false,
      markdownMode: true,
      totalTokenUsed: {},
      countTotalTokens: false,
    },
    version: PEER_STORE_VERSION,
  };
}

/** Writes the peer's store from a blank page of its origin (a Playwright route, as lib/seed.mjs). */
async function seedPeer(context, peerUrl, store) {
  const page = await context.newPage();
  try {
    await page.route(`${peerUrl}${BLANK_PATH}`, (route) =>
      route.fulfill({ contentType: "text/html", body: "<!doctype html><title>peer bench</title><body></body>" }),
    );
    await page.goto(`${peerUrl}${BLANK_PATH}`);
    await page.evaluate(
      ({ key, value }) => {
        localStorage.clear();
        localStorage.setItem(key, value);
      },
      { key: PEER_STORE_KEY, value: JSON.stringify(store) },
    );
  } finally {
    await page.close();
  }
}

/** DOM elements and the page's JS heap after a GC. */
async function footprint(page) {
  const nodes = await page.evaluate(() => document.getElementsByTagName("*").length);
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("HeapProfiler.collectGarbage");
    const { usedSize } = await cdp.send("Runtime.getHeapUsage");
    return { nodes, heap: usedSize };
  } finally {
    await cdp.detach();
  }
}

/**
 * One load of `app` in a fresh page: { visible, settled, before?, nodes?, heap? }. `record`:
 * clear the HTTP cache first and sum the requests started before the first screen settled.
 */
async function load(context, app, chat, { record = false, measure = false, screenshot = null } = {}) {
  if (record) await clearOrigin(context, app.url);
  const recorder = record ? recordRequests(context) : null;
  const page = await context.newPage();
  try {
    if (app.name === "grove") {
      await page.addInitScript(installOpenProbe, {
        leafSelector: articleWith(chat.leafMarker),
        mode: "navigation",
        quietMs: QUIET_MS,
        pendingSelector: LOADING_EARLIER,
      });
      await page.goto(hashUrl(app.url, chat.id));
    } else {
      // The peer's last message, once it holds the leaf's text; any mutation of the page counts.
      await page.addInitScript(installOpenProbe, {
        leafSelector: PEER_MESSAGE,
        leafText: chat.leafMarker,
        mode: "navigation",
        quietMs: QUIET_MS,
        scrollerSelector: "html",
        maxSettleMs: 10_000,
      });
      await page.goto(`${app.url}/`);
    }
    const probe = await readOpenProbe(page, 120_000);
    const result = { visible: probe.painted ?? probe.leaf, settled: probe.settled };
    if (recorder) {
      const origin = await page.evaluate(() => performance.timeOrigin);
      const settledAt = origin + (probe.settled ?? probe.leaf);
      // Bodies are read after the response: give the last ones a moment.
      await page.waitForTimeout(200);
      const before = recorder.seen.filter((r) => r.start > 0 && r.start <= settledAt);
      const sum = (list) => list.reduce((n, r) => n + r.gzip, 0);
      result.bytes = sum(before);
      result.js = sum(before.filter((r) => r.path.endsWith(".js")));
    }
    if (measure) Object.assign(result, await footprint(page));
    if (screenshot) await page.screenshot({ path: screenshot });
    return result;
  } finally {
    recorder?.stop();
    await page.close();
  }
}

export default {
  name: "peer",
  description: "side by side with BetterChatGPT (GROVE_PEER_DIST): cold 2-message chat, 1,000/2,000-message opens",
  uses: ["app", "browser"],
  optIn: true,
  async run(ctx) {
    const dist = process.env.GROVE_PEER_DIST;
    if (!dist) {
      ctx.log("GROVE_PEER_DIST is not set: nothing measured.");
      ctx.log("Rebuild the peer outside this repository (bench/peer.md: the stored source, npm install, vite build),");
      ctx.log("then: GROVE_PEER_DIST=/path/to/BetterChatGPT/dist npm run bench -- peer");
      return;
    }
    ctx.log(`at start: ${loadLine()}`);
    const seeded = await seededSessions(ctx);
    const { context } = await ctx.browser();
    const served = await servePeer(dist);
    try {
      await compare(ctx, context, seeded, { name: "grove", url: seeded.url }, { name: "peer", url: served.url });
    } finally {
      await served.stop();
    }
  },
};

/** The measurements (see the top), Grove and the peer interleaved. */
async function compare(ctx, context, seeded, grove, peer) {
  const outDir = join(ctx.root, "bench", "out");
  await mkdir(outDir, { recursive: true });

  // The chats: Grove's sessions and the same text as the peer's linear chats.
  const two = { ...TWO, ...twoMessageSession() };
  const mid = {
    ...MID,
    ...generateSession({
      seed: 42,
      sessionId: MID.id,
      title: MID.title,
      total: 5_000,
      pathLength: 1_000,
      startMs: Date.UTC(2025, 0, 2, 9, 0, 0),
      leafMarker: MID.leafMarker,
      rootMarker: MID.rootMarker,
    }),
  };
  const big = seeded.big;
  await ctx.fixture(`peer-bench-sessions ${seeded.url}`, async () => {
    await seedSession(seeded.dbPage, two);
    await seedSession(seeded.dbPage, mid);
  });

  // 1. The 2-message chat, cold.
  await seedPeer(context, peer.url, peerStore(two.title, peerMessages(two)));
  const runs = ctx.runs(5);
  const cold = { grove: [], peer: [] };
  for (let i = 0; i < runs; i++) {
    for (const app of [grove, peer]) {
      const screenshot = i === 0 && app === peer ? join(outDir, "peer-2-messages.png") : null;
      cold[app.name].push(await load(context, app, two, { record: true, screenshot }));
    }
  }
  const medOf = (list, key) => median(list.map((r) => r[key]).filter((v) => v !== null && v !== undefined));
  const gT = medOf(cold.grove, "visible");
  const pT = medOf(cold.peer, "visible");
  const gJs = medOf(cold.grove, "js");
  const pJs = medOf(cold.peer, "js");
  ctx.log(`2-message chat, cold (HTTP cache cleared, no service worker), medians of ${runs} interleaved loads:`);
  for (const line of table([
    ["", "Grove", "peer", "Grove ÷ peer", "target", ""],
    ["last message visible", ms(gT), ms(pT), (gT / pT).toFixed(2), "≤ 0.6", verdict(gT / pT <= 0.6)],
    ["startup JS (gzip)", kB(gJs), kB(pJs), (gJs / pJs).toFixed(2), "≤ 1", verdict(gJs <= pJs)],
    [
      "all bytes before settled (gzip)",
      kB(medOf(cold.grove, "bytes")),
      kB(medOf(cold.peer, "bytes")),
      (medOf(cold.grove, "bytes") / medOf(cold.peer, "bytes")).toFixed(2),
      "",
      "",
    ],
  ])) {
    ctx.log(`  ${line}`);
  }
  ctx.log(`  (peer screenshot: ${join(outDir, "peer-2-messages.png")})`);

  // 2. 1,000 and 2,000 messages.
  const sizes = [
    { label: "1,000", chat: mid },
    { label: "2,000", chat: big },
  ];
  const bySize = [];
  for (const { label, chat } of sizes) {
    await seedPeer(context, peer.url, peerStore(chat.title, peerMessages(chat)));
    await load(context, grove, chat);
    await load(context, peer, chat, { screenshot: join(outDir, `peer-${label.replace(",", "")}-messages.png`) });
    const got = { grove: [], peer: [] };
    for (let i = 0; i < runs; i++) {
      for (const app of [grove, peer]) got[app.name].push(await load(context, app, chat, { measure: true }));
    }
    bySize.push({ label, got });
  }
  ctx.log();
  ctx.log(`1,000 and 2,000 messages (fresh page loads after a warm-up each), medians of ${runs} interleaved:`);
  const rows = [
    [
      "messages",
      "Grove visible",
      "peer visible",
      "peer ÷ Grove",
      "target",
      "",
      "Grove DOM",
      "peer DOM",
      "Grove heap",
      "peer heap",
    ],
  ];
  for (const { label, got } of bySize) {
    const g = medOf(got.grove, "visible");
    const p = medOf(got.peer, "visible");
    rows.push([
      label,
      ms(g),
      ms(p),
      `${(p / g).toFixed(1)}×`,
      "≥ 15×",
      verdict(p / g >= 15),
      fmtInt(medOf(got.grove, "nodes")),
      fmtInt(medOf(got.peer, "nodes")),
      MB(medOf(got.grove, "heap")),
      MB(medOf(got.peer, "heap")),
    ]);
    ctx.summary(
      `${label} messages: last visible, Grove / peer`,
      `${ms(g)} / ${ms(p)} (${(p / g).toFixed(1)}× sooner; target ≥ 15×)`,
    );
  }
  for (const line of table(rows)) ctx.log(`  ${line}`);
  const [a, b] = bySize.map(({ got }) => got.grove);
  const domRatio = medOf(b, "nodes") / medOf(a, "nodes");
  const heapRatio = medOf(b, "heap") / medOf(a, "heap");
  ctx.log(
    `  Grove 2,000 ÷ 1,000: DOM ${domRatio.toFixed(2)}×, heap ${heapRatio.toFixed(2)}× (target flat, ≤ 1.2×: ` +
      `DOM ${verdict(domRatio <= 1.2)}, heap ${verdict(heapRatio <= 1.2)}); ` +
      `Grove ÷ peer at 2,000: DOM ${(medOf(b, "nodes") / medOf(bySize[1].got.peer, "nodes")).toFixed(2)}, ` +
      `heap ${(medOf(b, "heap") / medOf(bySize[1].got.peer, "heap")).toFixed(2)}`,
  );
  const json = (chat) => MB(chat.entries.reduce((n, e) => n + JSON.stringify(e).length, 0));
  ctx.log(
    `  (Grove's heap holds each chat's whole tree: ${mid.entries.length.toLocaleString("en-US")} entries, ${json(mid)} of JSON; ` +
      `${big.entries.length.toLocaleString("en-US")} entries, ${json(big)})`,
  );
  ctx.log(`at end: ${loadLine()}`);
  ctx.summary(
    "2-message cold: last visible, Grove / peer",
    `${ms(gT)} / ${ms(pT)} (${(gT / pT).toFixed(2)}; target ≤ 0.6)`,
  );
  ctx.summary("2-message cold: startup JS, Grove / peer", `${kB(gJs)} / ${kB(pJs)} gzip (target Grove ≤ peer)`);
}
