/**
 * A real CouchDB-protocol server for the sync specs: pouchdb-server (npm) on 127.0.0.1 with CORS
 * enabled, its data in a temporary folder so `stop()` / `start()` is a server outage that loses
 * nothing (an in-memory server would come back empty). Port: GROVE_E2E_COUCH_PORT (default 5985).
 *
 * @example
 * const couch = await startSyncServer();
 * await couch.stop(); // the server is down: devices keep working and retry
 * await couch.start();
 * const docs = await couch.allDocs("grove");
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type SyncServer = {
  /** e.g. http://127.0.0.1:5985 */
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Every stored document of a database, bodies included (what the server operator can read). */
  allDocs(db: string): Promise<Array<{ id: string; doc: Record<string, unknown> }>>;
  close(): Promise<void>;
};

/** CORS as Apache CouchDB's [httpd] enable_cors + [cors] sections (README "Sync"). */
const CONFIG = {
  httpd: { enable_cors: true },
  cors: {
    origins: "*",
    credentials: true,
    methods: "GET, PUT, POST, HEAD, DELETE",
    headers: "accept, authorization, content-type, origin, referer",
  },
};

export async function startSyncServer(port = Number(process.env.GROVE_E2E_COUCH_PORT) || 5985): Promise<SyncServer> {
  const dir = mkdtempSync(join(tmpdir(), "grove-couch-"));
  const config = join(dir, "config.json");
  writeFileSync(config, JSON.stringify({ ...CONFIG, log: { file: join(dir, "log.txt") } }));
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async () => {
    child = spawn(
      process.execPath,
      [
        "node_modules/pouchdb-server/bin/pouchdb-server",
        "--port",
        String(port),
        "--host",
        "127.0.0.1",
        "-d",
        dir,
        "-c",
        config,
        "-n",
      ],
      { stdio: "ignore" },
    );
    for (let i = 0; i < 300; i++) {
      if (
        await fetch(url).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`pouchdb-server did not start on ${url}`);
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
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
      const body = (await res.json()) as { rows: Array<{ id: string; doc: Record<string, unknown> }> };
      return body.rows.map((r) => ({ id: r.id, doc: r.doc }));
    },
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
