#!/usr/bin/env node
/**
 * Run by `npm run test:e2e` (and so by `npm test`) before Playwright: makes sure the end-to-end tests
 * have a Chromium, so the README's one test command works on a fresh machine.
 *
 * Finds the browser with the same lookup as playwright.config.ts (find-chromium.mjs). When there is
 * none it installs one where it can: Debian's `chromium` package when running as root with apt-get
 * (that also brings the system libraries a browser needs), else Playwright's download
 * (`npx playwright install chromium`). When neither works it stops with the one command to run.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { findChromium } from "./find-chromium.mjs";

const APT_GET = "/usr/bin/apt-get";
const isRoot = process.getuid?.() === 0;
const canApt = isRoot && existsSync(APT_GET);

/** Stop the test run with a reason and the one command that fixes it. */
function stop(reason, command) {
  console.error(
    `\n${reason}\nRun:\n\n  ${command}\n\nthen run the tests again (or point GROVE_CHROMIUM_PATH at a Chromium binary).\n`,
  );
  process.exit(1);
}

/** The command that installs a browser on this machine, for the user to run. */
function installCommand() {
  if (existsSync(APT_GET)) return isRoot ? "apt-get install -y chromium" : "sudo apt-get install -y chromium";
  return "npx playwright install chromium";
}

function installWithApt() {
  console.log("No Chromium found: installing Debian's chromium package (apt-get)…");
  const run = (args) => spawnSync(APT_GET, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "chromium"],
  ]) {
    const result = run(args);
    if (result.status !== 0) {
      const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
      console.error(`apt-get ${args.join(" ")} failed:\n${output || result.error?.message || ""}`);
      return false;
    }
  }
  return true;
}

function installWithPlaywright() {
  console.log("No Chromium found: downloading Playwright's (npx playwright install chromium)…");
  const result = spawnSync("npx", ["playwright", "install", "chromium"], { stdio: "inherit" });
  return result.status === 0;
}

/** The browser's version line; throws when the binary cannot run (e.g. missing system libraries). */
function versionOf(path) {
  return execFileSync(path, ["--version"], { encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "pipe"] })
    .trim()
    .split("\n")
    .at(-1);
}

let found = findChromium();
if (found && "missing" in found) {
  stop(
    `The Chromium for the end-to-end tests was set to ${found.missing}, which does not exist.`,
    "unset GROVE_CHROMIUM_PATH PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH",
  );
}
if (!found) {
  for (const install of canApt ? [installWithApt, installWithPlaywright] : [installWithPlaywright]) {
    if (install()) found = findChromium();
    if (found) break;
  }
  if (!found) stop("No Chromium for the end-to-end tests, and installing one here failed.", installCommand());
}

try {
  console.log(`End-to-end browser: ${found.path} (${found.source}, ${versionOf(found.path)})`);
} catch (error) {
  const detail = error instanceof Error ? error.message.split("\n").slice(0, 3).join("\n") : String(error);
  stop(`The Chromium at ${found.path} does not start:\n${detail}`, installCommand());
}
