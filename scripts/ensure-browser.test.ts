/**
 * scripts/ensure-browser.mjs run as `npm run test:e2e` runs it (a child process), with the browser named
 * by GROVE_CHROMIUM_PATH, so no real browser is installed or needed: a fake "chromium" that prints a
 * version, one that cannot start, and a path that does not exist. The install branch (no browser at
 * all) changes the machine and is left to a fresh machine's `npm test`.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { findChromium } from "./find-chromium.mjs";

const SCRIPT = fileURLToPath(new URL("./ensure-browser.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "grove-ensure-browser-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fakeBrowser(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

function ensure(env: Record<string, string>) {
  const { GROVE_CHROMIUM_PATH: _a, PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: _b, ...rest } = process.env;
  const result = spawnSync(process.execPath, [SCRIPT], { env: { ...rest, ...env }, encoding: "utf8" });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

describe("findChromium", () => {
  it("takes the path the environment names, GROVE_CHROMIUM_PATH first", () => {
    const a = fakeBrowser("a", "echo A");
    const b = fakeBrowser("b", "echo B");
    expect(findChromium({ GROVE_CHROMIUM_PATH: a, PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: b })).toEqual({
      path: a,
      source: "env",
    });
    expect(findChromium({ PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: b })).toEqual({ path: b, source: "env" });
  });

  it("reports a named path that does not exist instead of falling back to another browser", () => {
    expect(findChromium({ GROVE_CHROMIUM_PATH: join(dir, "nope") })).toEqual({
      missing: join(dir, "nope"),
      source: "env",
    });
  });
});

// Each case starts Node and loads @playwright/test: seconds on a busy machine.
describe("ensure-browser", { timeout: 60_000 }, () => {
  it("a browser that starts: says which one and lets the tests run", () => {
    const browser = fakeBrowser("chromium", 'echo "Chromium 999.0.1 fake"');
    const { status, out } = ensure({ GROVE_CHROMIUM_PATH: browser });
    expect(status).toBe(0);
    expect(out).toContain(`End-to-end browser: ${browser} (env, Chromium 999.0.1 fake)`);
  });

  it("a browser that cannot start: stops with the reason before Playwright runs", () => {
    const broken = fakeBrowser("broken", "echo 'error while loading shared libraries: libnss3.so' >&2; exit 127");
    const { status, out } = ensure({ GROVE_CHROMIUM_PATH: broken });
    expect(status).toBe(1);
    expect(out).toContain(`The Chromium at ${broken} does not start`);
    expect(out).toContain("Run:");
  });

  it("a named path that does not exist: stops with the one command that fixes it", () => {
    const { status, out } = ensure({ GROVE_CHROMIUM_PATH: join(dir, "missing") });
    expect(status).toBe(1);
    expect(out).toContain(`was set to ${join(dir, "missing")}, which does not exist`);
    expect(out).toContain("unset GROVE_CHROMIUM_PATH PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH");
  });
});
