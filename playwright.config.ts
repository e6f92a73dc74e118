/**
 * End-to-end tests: the built app (vite preview) in real Chromium against the mock provider server
 * (e2e/mock-server, one per worker, started by the `mock` fixture in e2e/fixtures.ts).
 *
 * Environment:
 * - GROVE_CHROMIUM_PATH / PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: the Chromium binary to drive. Without
 *   either, Debian's /usr/bin/chromium when it exists, else Playwright's own download. The lookup
 *   lives in scripts/find-chromium.mjs, shared with scripts/ensure-browser.mjs, which `npm run test:e2e`
 *   runs first to install a browser when there is none.
 * - GROVE_E2E_NO_APP=1: do not start the app server (for specs that need only the mock, e.g.
 *   `GROVE_E2E_NO_APP=1 npx playwright test e2e/smoke-mock.spec.ts`).
 * - GROVE_E2E_WORKERS: override the worker count.
 * - GROVE_E2E_PORT / GROVE_E2E_OUTDIR: the app server's port and build folder (default 4173, dist/).
 * - CI: two workers like a developer's machine (so timing flakes show up here first), and never reuse
 *   an already running app server.
 */
import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { findChromium } from "./scripts/find-chromium.mjs";

const APP_PORT = Number(process.env.GROVE_E2E_PORT) || 4173;
// A separate build folder lets two checkouts' suites run side by side (GROVE_E2E_OUTDIR=dist-b).
const OUT_DIR = process.env.GROVE_E2E_OUTDIR || "dist";
const APP_URL = `http://127.0.0.1:${APP_PORT}`;

const isCI = Boolean(process.env.CI);
const noApp = process.env.GROVE_E2E_NO_APP === "1";

/** The browser scripts/ensure-browser.mjs checked (or installed); undefined: Playwright's default. */
function chromiumPath(): string | undefined {
  const found = findChromium();
  return found && "path" in found ? found.path : undefined;
}

/**
 * Two workers (two browsers) everywhere, CI included: it halves the wall time on the 2-core machine,
 * and CI then runs under the same CPU contention as a developer's machine, so a test that depends on
 * timing fails here rather than for a user. There are no retries: tests wait on state (the mock's
 * `hold` parks a response until the test releases it), never on time.
 */
function workerCount(): number {
  const override = Number(process.env.GROVE_E2E_WORKERS);
  if (Number.isInteger(override) && override > 0) return override;
  return 2;
}

/**
 * `vite preview` serves dist/; `npm test` builds right before. When dist/ is missing (running
 * `npm run test:e2e` on a fresh checkout), build first instead of failing with a 404 app.
 * `--host 127.0.0.1`: vite's default "localhost" may bind ::1 only, which 127.0.0.1 cannot reach.
 */
const previewCommand = `npx vite preview --outDir ${OUT_DIR} --port ${APP_PORT} --strictPort --host 127.0.0.1`;
const appCommand = existsSync(`${OUT_DIR}/index.html`)
  ? previewCommand
  : `npx vite build --outDir ${OUT_DIR} && ${previewCommand}`;

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  // Not the default `test-results`: Playwright empties its outputDir at start, and the Vitest report
  // (test-results/unit-results.json) that CI sums up lives there.
  outputDir: "test-results/e2e-artifacts",
  fullyParallel: true,
  forbidOnly: isCI,
  retries: 0,
  workers: workerCount(),
  timeout: 30_000,
  // Generous for a loaded machine (two browsers, the app's workers and vite preview on 2 cores): a
  // longer wait only slows a failing assertion; states that last briefly are held by the mock instead.
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e-results.json" }]],
  use: {
    baseURL: APP_URL,
    screenshot: "only-on-failure",
    trace: "off",
    // The built app registers a service worker (offline, src/pwa-options.ts). It would answer
    // navigations and assets from its cache, around `page.route` and a rebuilt dist; the spec
    // that tests it (e2e/offline.spec.ts) allows it.
    serviceWorkers: "block",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: chromiumPath(),
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
          ],
        },
      },
    },
  ],
  webServer: noApp
    ? undefined
    : {
        command: appCommand,
        url: APP_URL,
        reuseExistingServer: !isCI,
        timeout: 120_000,
        stdout: "ignore",
        stderr: "pipe",
      },
});
