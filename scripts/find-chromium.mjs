/**
 * Where the end-to-end tests' Chromium is: the one lookup that both `scripts/ensure-browser.mjs`
 * (run by `npm run test:e2e` before Playwright, installing a browser when none is found) and
 * `playwright.config.ts` (which launches it) use, so they can never disagree.
 *
 * Order: an explicit path (GROVE_CHROMIUM_PATH, or Playwright's own PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH),
 * then Debian's package (/usr/bin/chromium), then the Chromium that `npx playwright install chromium`
 * downloads into Playwright's cache. Plain JavaScript so Node runs it without a build step.
 */
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";

export const DEBIAN_CHROMIUM = "/usr/bin/chromium";

/**
 * @returns {{ path: string; source: "env" | "debian" | "playwright" } | { missing: string; source: "env" } | null}
 *   The browser to launch; `missing` when the environment names a path that does not exist (a typo
 *   must not silently fall back to another browser); null when there is none.
 */
export function findChromium(env = process.env) {
  const override = env.GROVE_CHROMIUM_PATH || env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH;
  if (override) return existsSync(override) ? { path: override, source: "env" } : { missing: override, source: "env" };
  if (existsSync(DEBIAN_CHROMIUM)) return { path: DEBIAN_CHROMIUM, source: "debian" };
  // Where `npx playwright install chromium` puts the revision this @playwright/test drives.
  const cached = chromium.executablePath();
  if (cached && existsSync(cached)) return { path: cached, source: "playwright" };
  return null;
}
