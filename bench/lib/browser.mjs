/**
 * Headless Chromium for the benches (found like the end-to-end tests' one: scripts/find-chromium.mjs), with a
 * persistent profile in a temp dir. Persistent on purpose: an incognito context (browser.newContext)
 * keeps IndexedDB in memory, which would make every read faster than a real user's profile on disk.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { findChromium } from "../../scripts/find-chromium.mjs";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export const VIEWPORT = { width: 1280, height: 800 };

/** The browser the end-to-end tests use; undefined: Playwright's default (`npm run test:e2e` installs one). */
export function chromiumPath() {
  const found = findChromium();
  return found && "path" in found ? found.path : undefined;
}

/**
 * Resolves to { context, version, profileDir, close }. Service workers are blocked unless
 * `serviceWorkers: "allow"` (the cold-start bench's own browser).
 */
export async function launchBrowser({ serviceWorkers = "block" } = {}) {
  const profileDir = await mkdtemp(join(tmpdir(), "grove-bench-"));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: VIEWPORT,
    // The app's service worker would answer the seeding page's navigation (a Playwright route)
    // with the app shell, and serve a stale build across --rebuild runs.
    serviceWorkers,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);
  const { product, userAgent } = await cdp.send("Browser.getVersion");
  await cdp.detach();
  await page.close();
  const close = async () => {
    await context.close().catch(() => {});
    await rm(profileDir, { recursive: true, force: true }).catch(() => {});
  };
  return { context, version: product, userAgent, profileDir, close };
}
