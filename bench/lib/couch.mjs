/**
 * A CouchDB-protocol server for the sync bench: pouchdb-server (npm) on 127.0.0.1 with CORS, data in
 * a temp folder, on a free port (GROVE_BENCH_COUCH_PORT to pick one). Same setup as the end-to-end
 * tests' e2e/sync-server.ts.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves to { url, close }. */
export async function startCouch(root) {
  const port = Number(process.env.GROVE_BENCH_COUCH_PORT) || (await freePort());
  const dir = await mkdtemp(join(tmpdir(), "grove-bench-couch-"));
  const config = join(dir, "config.json");
  await writeFile(
    config,
    JSON.stringify({
      httpd: { enable_cors: true },
      cors: {
        origins: "*",
        credentials: true,
        methods: "GET, PUT, POST, HEAD, DELETE",
        headers: "accept, authorization, content-type, origin, referer",
      },
      log: { file: join(dir, "log.txt") },
    }),
  );
  const child = spawn(
    process.execPath,
    [
      join(root, "node_modules/pouchdb-server/bin/pouchdb-server"),
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
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 300) throw new Error(`pouchdb-server did not start on ${url}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async close() {
      if (child.exitCode === null) {
        await new Promise((resolve) => {
          child.once("exit", resolve);
          child.kill();
        });
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
