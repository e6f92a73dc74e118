/**
 * The app under test: the production build (dist/) served by `vite preview` on a free port.
 * Builds dist/ first when it is missing (or when asked to with --rebuild), then serves a snapshot
 * copy (bench/out/app-dist) so a `vite build` run by someone else during the bench cannot pull the
 * files from under it.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../../scripts/free-port.mjs";

const VITE_BIN = "node_modules/vite/bin/vite.js";

function run(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(" ")} exited ${code}\n${output}`)),
    );
  });
}

/** Newest mtime (ms) of any file under `dir`. */
function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    newest = Math.max(newest, name.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export const SNAPSHOT_DIR = "bench/out/app-dist";
export const PROFILE_DIR = "bench/out/dist-profile";

/**
 * The build to serve, as { outDir, info }. Without `rebuild`: dist/ (built first when missing),
 * copied to SNAPSHOT_DIR. With `rebuild`: a fresh build of the working tree straight into
 * SNAPSHOT_DIR, leaving dist/ (which e2e runs may be serving) alone. `info` is for the header and
 * warns when src/ changed after the dist/ build.
 */
export async function prepareApp(root, { rebuild = false } = {}) {
  const snapshot = join(root, SNAPSHOT_DIR);
  if (rebuild) {
    const t0 = performance.now();
    await run(
      process.execPath,
      [VITE_BIN, "build", "--outDir", SNAPSHOT_DIR, "--emptyOutDir", "--logLevel", "warn"],
      root,
    );
    return { outDir: SNAPSHOT_DIR, info: `working tree built now (${((performance.now() - t0) / 1000).toFixed(1)} s)` };
  }
  const index = join(root, "dist/index.html");
  let info;
  if (!existsSync(index)) {
    const t0 = performance.now();
    await run(process.execPath, [VITE_BIN, "build", "--logLevel", "warn"], root);
    info = `dist/ built now (vite build, ${((performance.now() - t0) / 1000).toFixed(1)} s)`;
  } else {
    const builtAt = statSync(index).mtimeMs;
    const stale = newestMtime(join(root, "src")) > builtAt;
    const when = new Date(builtAt).toISOString().replace("T", " ").slice(0, 19);
    info = `dist/ from ${when} UTC${stale ? " (src/ changed since: --rebuild measures the working tree)" : ""}`;
  }
  rmSync(snapshot, { recursive: true, force: true });
  cpSync(join(root, "dist"), snapshot, { recursive: true });
  return { outDir: SNAPSHOT_DIR, info };
}

/** An unminified build of the working tree (readable function names in CPU profiles) in PROFILE_DIR. */
export async function buildForProfiling(root) {
  await run(
    process.execPath,
    [VITE_BIN, "build", "--minify", "false", "--outDir", PROFILE_DIR, "--emptyOutDir", "--logLevel", "warn"],
    root,
  );
  return PROFILE_DIR;
}

async function waitForHttp(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vite preview exited early (${child.exitCode})`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`vite preview did not answer at ${url} within ${timeoutMs} ms`);
}

/** Starts `vite preview` of `outDir` (relative to root) on a free port; resolves to { url, port, stop }. */
export async function startPreview(root, { outDir = "dist" } = {}) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [VITE_BIN, "preview", "--outDir", outDir, "--port", String(port), "--strictPort", "--host", "127.0.0.1"],
    { cwd: root, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/`, child, 20_000);
  } catch (e) {
    child.kill("SIGTERM");
    throw new Error(`${e instanceof Error ? e.message : e}\n${stderr}`);
  }
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { url, port, stop };
}
