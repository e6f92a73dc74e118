/**
 * Real MCP servers for the tests, on 127.0.0.1 free ports (issue 28):
 * - `everything`: the reference server `@modelcontextprotocol/server-everything`, started the way its
 *   package starts Streamable HTTP (`dist/index.js streamableHttp`, port from `PORT`; endpoint `/mcp`),
 *   in a child process bound to loopback (loopback-only.mjs). It sends CORS headers itself (`cors`,
 *   origin `*`, `mcp-session-id` exposed), so a browser page can call it as it is.
 * - `files`: a filesystem-style server over a temporary folder, written with the SDK's server classes
 *   (`McpServer` + `StreamableHTTPServerTransport`, stateless: a fresh server per request), tools
 *   `read_file`, `write_file`, `edit_file`, `list_directory` (paths relative to the folder, never outside
 *   it). CORS for the allowed origin (default `*`, `null`: none, as a server that does not allow the page);
 *   an optional bearer token (a request without it gets 401).
 * Shared by the Playwright fixture (e2e/mcp-servers.ts) and the Node tests. Plain JavaScript so Node runs
 * it without a build step.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { freePort } from "./free-port.mjs";
import { keepIdleConnections } from "./keep-idle-connections.mjs";

/** How long to wait for server-everything to answer after spawning it: 300 polls, 100 ms apart. */
const START_POLLS = 300;
const START_POLL_MS = 100;

/** What the files server's folder holds after start and after `reset()`. */
export const SEED_FILES = {
  "README.md": "# Project\n\nA folder the tests read and write.\n",
  "notes/todo.txt": "- buy milk\n- write tests\n",
};

const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * Starts both servers and waits until they answer.
 * @param {{ root?: string; token?: string | null; allowOrigin?: string | null }} [options] root: the folder
 *   holding node_modules (default: the repo of this script).
 */
export async function startMcpServers({ root = resolve(HERE, ".."), token = null, allowOrigin = "*" } = {}) {
  const everything = await startEverything(root);
  let files;
  try {
    files = await startFilesServer({ token, allowOrigin });
  } catch (error) {
    await everything.close();
    throw error;
  }
  return {
    everything,
    files,
    async close() {
      await Promise.all([everything.close(), files.close()]);
    },
  };
}

/**
 * server-everything in its Streamable HTTP mode (endpoint `/mcp`), as its package runs it; or, with
 * `transport: "sse"`, in its older SSE mode (endpoint `/sse`, messages to `/message`).
 */
export async function startEverything(root = resolve(HERE, ".."), { transport = "streamableHttp" } = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/${transport === "sse" ? "sse" : "mcp"}`;
  const bin = join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  const child = spawn(process.execPath, ["--import", join(HERE, "loopback-only.mjs"), bin, transport], {
    env: { ...process.env, PORT: String(port) },
    stdio: "ignore",
  });
  const exited = new Promise((r) => child.once("exit", r));
  for (let i = 0; ; i++) {
    // Streamable HTTP without a session answers 400; the SSE endpoint opens a stream (closed at once).
    const up = await fetch(url).then(
      (r) => {
        void r.body?.cancel();
        return transport === "sse" ? r.status === 200 : r.status === 400;
      },
      () => false,
    );
    if (up) break;
    if (i >= START_POLLS || child.exitCode !== null) {
      child.kill();
      throw new Error(`server-everything did not start on ${url}`);
    }
    await new Promise((r) => setTimeout(r, START_POLL_MS));
  }
  return {
    url,
    async close() {
      if (child.exitCode !== null) return;
      child.kill();
      await exited;
    },
  };
}

/** `rel` inside `dir`, or an Error when it points outside it (`..`, an absolute path elsewhere). */
function inside(dir, rel) {
  const full = resolve(dir, rel);
  if (full !== dir && !full.startsWith(`${dir}${sep}`)) {
    throw new Error(`Access denied: ${rel} is outside the allowed folder`);
  }
  return full;
}

const text = (t) => ({ content: [{ type: "text", text: t }] });
const failure = (error) => ({
  content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }],
  isError: true,
});

/** One MCP server instance over `dir` (a new one answers each stateless request). */
function filesMcpServer(dir) {
  const server = new McpServer({ name: "grove-test-files", version: "1.0.0" });
  const guarded = (fn) => async (args) => {
    try {
      return await fn(args);
    } catch (error) {
      return failure(error);
    }
  };
  server.registerTool(
    "read_file",
    {
      description: "Read a text file from the folder.",
      inputSchema: { path: z.string().describe("Path relative to the folder") },
    },
    guarded(async ({ path }) => text(await readFile(inside(dir, path), "utf8"))),
  );
  server.registerTool(
    "write_file",
    {
      description: "Create or overwrite a text file in the folder.",
      inputSchema: { path: z.string(), content: z.string() },
    },
    guarded(async ({ path, content }) => {
      const full = inside(dir, path);
      await mkdir(dirname(full), { recursive: true });
      await writeFile(full, content);
      return text(`Wrote ${Buffer.byteLength(content)} bytes to ${path}`);
    }),
  );
  server.registerTool(
    "edit_file",
    {
      description: "Replace exact text in a file. Each edit's oldText must occur in the file.",
      inputSchema: {
        path: z.string(),
        edits: z.array(z.object({ oldText: z.string(), newText: z.string() })),
      },
    },
    guarded(async ({ path, edits }) => {
      const full = inside(dir, path);
      let body = await readFile(full, "utf8");
      for (const { oldText, newText } of edits) {
        if (!body.includes(oldText)) throw new Error(`Could not find the text to replace in ${path}: ${oldText}`);
        body = body.replace(oldText, newText);
      }
      await writeFile(full, body);
      return text(`Applied ${edits.length} edit(s) to ${path}`);
    }),
  );
  server.registerTool(
    "list_directory",
    {
      description: "List the entries of a folder ([FILE] or [DIR] before each name).",
      inputSchema: { path: z.string().default(".") },
    },
    guarded(async ({ path }) => {
      const entries = await readdir(inside(dir, path), { withFileTypes: true });
      const lines = entries
        .map((e) => `${e.isDirectory() ? "[DIR]" : "[FILE]"} ${e.name}`)
        .sort((a, b) => a.localeCompare(b));
      return text(lines.join("\n"));
    }),
  );
  return server;
}

async function seed(dir) {
  await rm(dir, { recursive: true, force: true });
  for (const [rel, body] of Object.entries(SEED_FILES)) {
    const full = join(dir, rel);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, body);
  }
}

/** CORS for `allowOrigin` ("*" or one origin); none at all for null (a server that does not allow the page). */
function corsHeaders(allowOrigin) {
  if (allowOrigin === null) return {};
  return {
    "access-control-allow-origin": allowOrigin,
    vary: "Origin",
    "access-control-expose-headers": "mcp-session-id, mcp-protocol-version",
  };
}

function readBody(req) {
  return new Promise((ok, fail) => {
    const parts = [];
    req.on("data", (p) => parts.push(p));
    req.on("end", () => ok(Buffer.concat(parts).toString("utf8")));
    req.on("error", fail);
  });
}

/** The filesystem-style server: Streamable HTTP at `/mcp`, stateless. */
export async function startFilesServer({ token = null, allowOrigin = "*" } = {}) {
  const dir = await mkdtemp(join(tmpdir(), "grove-mcp-files-"));
  const state = { token, allowOrigin };
  await seed(dir);

  const http = createServer(async (req, res) => {
    const cors = corsHeaders(state.allowOrigin);
    const path = new URL(req.url ?? "/", "http://files.invalid").pathname;
    if (req.method === "OPTIONS") {
      const preflight =
        state.allowOrigin === null
          ? {}
          : {
              ...cors,
              "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
              "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*",
              "access-control-max-age": "600",
            };
      res.writeHead(204, preflight);
      res.end();
      return;
    }
    if (path !== "/mcp") {
      res.writeHead(404, { ...cors, "content-type": "application/json" });
      res.end(JSON.stringify({ error: "not found" }));
      return;
    }
    if (state.token !== null && req.headers.authorization !== `Bearer ${state.token}`) {
      res.writeHead(401, { ...cors, "content-type": "application/json", "www-authenticate": 'Bearer realm="mcp"' });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Unauthorized" }, id: null }));
      return;
    }
    if (req.method !== "POST") {
      // Stateless: no standalone SSE stream, no session to delete.
      res.writeHead(405, { ...cors, allow: "POST, OPTIONS", "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null }));
      return;
    }
    for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
    const body = JSON.parse((await readBody(req)) || "null");
    const server = filesMcpServer(dir);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (error) {
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: String(error) }, id: null }));
      }
    }
  });
  keepIdleConnections(http);
  const port = await freePort();
  await new Promise((ok, fail) => {
    http.once("error", fail);
    http.listen(port, "127.0.0.1", () => ok(undefined));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    dir,
    setToken(t) {
      state.token = t;
    },
    setAllowedOrigin(origin) {
      state.allowOrigin = origin;
    },
    async reset() {
      state.token = token;
      state.allowOrigin = allowOrigin;
      await seed(dir);
    },
    async close() {
      await new Promise((ok) => {
        http.close(() => ok(undefined));
        http.closeAllConnections();
      });
      await rm(dir, { recursive: true, force: true });
    },
  };
}
