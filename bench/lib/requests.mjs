/**
 * The network side of a cold start, shared by cold-start.mjs and peer.mjs: clearing an origin's
 * caches and recording every request a browser context makes with its gzip size (`vite preview`
 * serves files raw, so they are gzipped here, as a real server would send them).
 */
import { gzipSync } from "node:zlib";

/** Clears the HTTP cache, the service worker and its caches of `origin`. */
export async function clearOrigin(context, origin) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.clearBrowserCache");
  await cdp.send("Storage.clearDataForOrigin", { origin, storageTypes: "service_workers,cache_storage" });
  await cdp.detach();
  await page.close();
}

/**
 * Records every request of the context (page, workers, service worker) with its gzip size:
 * `{ seen: [{ path, start, sw, gzip }], stop }`. `start` is the request's wall-clock start (ms).
 */
export function recordRequests(context) {
  const seen = [];
  const onFinished = async (request) => {
    const url = new URL(request.url());
    if (!url.protocol.startsWith("http")) return;
    const entry = {
      path: url.pathname,
      start: request.timing().startTime,
      sw: request.serviceWorker() !== null,
      gzip: 0,
    };
    seen.push(entry);
    try {
      const response = await request.response();
      if (response && !response.fromServiceWorker()) entry.gzip = gzipSync(await response.body()).length;
    } catch {
      // A body that is gone (a redirect, a closed page) counts nothing.
    }
  };
  context.on("requestfinished", onFinished);
  return { seen, stop: () => context.off("requestfinished", onFinished) };
}
