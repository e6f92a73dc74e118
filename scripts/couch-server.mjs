/**
 * A real CouchDB-protocol server: pouchdb-server (npm) on 127.0.0.1 with CORS enabled, its data in a
 * temporary folder so `stop()` / `start()` is a server outage that loses nothing (an in-memory server
 * would come back empty). The one way to start it, shared by the sync end-to-end tests
 * (e2e/sync-server.ts) and the sync bench (bench/sync.mjs). Plain JavaScript so Node runs it without a
 * build step.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.mjs";

/** CORS as Apache CouchDB's [httpd] enable_cors + [cors] sections (README "Sync"). */
const CORS_CONFIG = {
  httpd: { enable_cors: true },
  cors: {
    origins: "*",
    credentials: true,
    methods: "GET, PUT, POST, HEAD, DELETE",
    headers: "accept, authorization, content-type, origin, referer",
  },
};

/** How long to wait for the server to answer after spawning it: 300 polls, 100 ms apart. */
const START_POLLS = 300;
const START_POLL_MS = 100;

/**
 * Starts the server and waits until it answers.
 * @param {{ port?: number; root?: string; tmpPrefix?: string }} [options] root: the folder holding
 *   node_modules (default: the current one); port: default a free one.
 */
export async function startCouchServer({ port, root = process.cwd(), tmpPrefix = "grove-couch-" } = {}) {
  const listenPort = port ?? (await freePort());
  const dir = await mkdtemp(join(tmpdir(), tmpPrefix));
  const config = join(dir, "config.json");
  await writeFile(config, JSON.stringify({ ...CORS_CONFIG, log: { file: join(dir, "log.txt") } }));
  const url = `http://127.0.0.1:${listenPort}`;
  const bin = join(root, "node_modules/pouchdb-server/bin/pouchdb-server");
  let child;

  const start = async () => {
    const args = [bin, "--port", String(listenPort), "--host", "127.0.0.1", "-d", dir, "-c", config, "-n"];
    child = spawn(process.execPath, args, { stdio: "ignore" });
    for (let i = 0; i < START_POLLS; i++) {
      const up = await fetch(url).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return;
      await new Promise((r) => setTimeout(r, START_POLL_MS));
    }
    throw new Error(`pouchdb-server did not start on ${url}`);
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    await new Promise((resolve) => {
      c.once("exit", () => resolve());
      c.kill();
    });
  };
  await start();
  return {
    url,
    start,
    stop,
    async allDocs(db) {
      const res = await fetch(`${url}/${db}/_all_docs?include_docs=true`);
      const body = await res.json();
      return body.rows.map((r) => ({ id: r.id, doc: r.doc }));
    },
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
