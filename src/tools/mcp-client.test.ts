/**
 * The MCP client against real servers (scripts/mcp-servers.mjs): server-everything over Streamable HTTP
 * and (fallback) SSE, the filesystem-style server, and small raw servers for the faults. Requests go
 * through a fetch that behaves like a browser page's (testing/browser-fetch.ts: preflights, CORS,
 * exposed headers), so "CORS refused" is tested as a page meets it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type EverythingServer,
  type McpServers,
  startEverything,
  startMcpServers,
} from "../../scripts/mcp-servers.mjs";
import { connectMcpServer, type McpConnection } from "./mcp-client";
import { callOutcomeText } from "./mcp-result";
import type { McpOutcome } from "./mcp-types";
import { browserFetch } from "./testing/browser-fetch";

const PAGE = "http://127.0.0.1:4304";
const deps = { fetch: browserFetch(PAGE), pageOrigin: PAGE };

let servers: McpServers;
let sse: EverythingServer;
const open: McpConnection[] = [];

beforeAll(async () => {
  [servers, sse] = await Promise.all([startMcpServers(), startEverything(undefined, { transport: "sse" })]);
}, 60_000);
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await Promise.all([servers?.close(), sse?.close()]);
});
beforeEach(async () => {
  await servers.files.reset();
});

function ok<T>(r: McpOutcome<T>): T {
  if (!r.ok) throw new Error(`${r.failure.kind}: ${r.failure.message}`);
  return r.value;
}

async function connect(url: string, headers?: Record<string, string>) {
  const r = await connectMcpServer({ url, ...(headers ? { headers } : {}) }, deps);
  if (r.ok) open.push(r.value);
  return r;
}

/** A raw JSON-RPC server that answers initialize and tools/list, and `onCall` for tools/call. */
async function rawServer(
  onCall: (res: import("node:http").ServerResponse, id: unknown) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const cors = { "access-control-allow-origin": "*", "access-control-expose-headers": "mcp-session-id" };
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        ...cors,
        "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*",
        "access-control-allow-methods": "POST, GET",
      });
      res.end();
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405, cors);
      res.end();
      return;
    }
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      const msg = JSON.parse(body) as { id?: unknown; method: string; params?: { protocolVersion?: string } };
      const reply = (result: unknown) => {
        res.writeHead(200, { ...cors, "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }));
      };
      if (msg.method === "initialize") {
        reply({
          protocolVersion: msg.params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: "raw", version: "0" },
        });
      } else if (msg.id === undefined) {
        res.writeHead(202, cors);
        res.end();
      } else if (msg.method === "tools/list") {
        reply({ tools: [{ name: "odd", inputSchema: { type: "object" } }] });
      } else onCall(res, msg.id);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

describe("connecting and calling", () => {
  it("server-everything over Streamable HTTP: its tools with descriptions; echo, an image, a resource", async () => {
    const c = ok(await connect(servers.everything.url));
    expect(c.transport).toBe("streamable-http");
    expect(c.server.name).toBe("mcp-servers/everything");
    const echo = c.tools.find((t) => t.name === "echo");
    expect(echo).toMatchObject({ description: "Echoes back the input string", readOnly: true });
    expect(echo?.inputSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    expect(callOutcomeText(await c.callTool("echo", { message: "hi" }))).toEqual({ text: "Echo: hi", isError: false });
    const image = ok(await c.callTool("get-tiny-image", {}));
    expect(image.content.some((x) => x.type === "image" && x.mimeType === "image/png" && x.data.length > 20)).toBe(
      true,
    );
    expect(callOutcomeText({ ok: true, value: image }).text).toContain("[image: image/png]");
    const resource = ok(await c.callTool("get-resource-reference", { resourceType: "Text", resourceId: 1 }));
    expect(resource.content.some((x) => x.type === "resource")).toBe(true);
  });

  it("falls back to the older SSE transport for a server that only has it", async () => {
    const c = ok(await connect(sse.url));
    expect(c.transport).toBe("sse");
    expect(c.tools.map((t) => t.name)).toContain("echo");
    expect(callOutcomeText(await c.callTool("echo", { message: "old" })).text).toBe("Echo: old");
  });

  it("the files server: reads and writes its folder; a tool's own error is an error result", async () => {
    const c = ok(await connect(servers.files.url));
    expect(c.tools.map((t) => t.name).sort()).toEqual(["edit_file", "list_directory", "read_file", "write_file"]);
    expect(callOutcomeText(await c.callTool("read_file", { path: "notes/todo.txt" })).text).toContain("buy milk");
    const missing = callOutcomeText(await c.callTool("read_file", { path: "nope.md" }));
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("ENOENT");
    const bad = callOutcomeText(await c.callTool("read_file", ["not", "an", "object"]));
    expect(bad).toEqual({ text: "The arguments must be a JSON object.", isError: true });
  });
});

describe("failures, in plain words, without credentials", () => {
  it("401: asks for the token; the token never appears in the reason", async () => {
    servers.files.setToken("s3cret-token");
    const none = await connect(servers.files.url);
    expect(none).toMatchObject({ ok: false, failure: { kind: "auth", status: 401 } });
    const wrong = await connect(servers.files.url, { Authorization: "Bearer wrong-token-123" });
    expect(wrong.ok ? "" : wrong.failure.message).not.toContain("wrong-token-123");
    expect(wrong).toMatchObject({ ok: false, failure: { kind: "auth" } });
    const right = ok(await connect(servers.files.url, { Authorization: "Bearer s3cret-token" }));
    expect(right.tools).toHaveLength(4);
  });

  it("CORS refused: the server is there but does not allow the page; the reason says how to allow it", async () => {
    servers.files.setAllowedOrigin(null);
    const r = await connect(servers.files.url);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.failure.kind).toBe("cors");
    expect(r.failure.message).toContain(`Access-Control-Allow-Origin: ${PAGE}`);
    expect(r.failure.message).toContain("let the provider connect");
  });

  it("unreachable: nothing listens there", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, "127.0.0.1", () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const r = await connect(`http://127.0.0.1:${port}/mcp?token=in-the-url-1234`);
    expect(r).toMatchObject({ ok: false, failure: { kind: "unreachable" } });
    expect(r.ok ? "" : r.failure.message).not.toContain("in-the-url-1234");
  });

  it("a per-call timeout, and Stop, end a long call", async () => {
    const c = ok(await connect(servers.everything.url));
    const slow = { duration: 30, steps: 3 };
    const timedOut = await c.callTool("trigger-long-running-operation", slow, { timeoutMs: 300 });
    expect(timedOut).toMatchObject({ ok: false, failure: { kind: "timeout" } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const stopped = await c.callTool("trigger-long-running-operation", slow, { signal: controller.signal });
    expect(stopped).toMatchObject({ ok: false, failure: { kind: "aborted" } });
  });

  it("a malformed result is a failure; a server that drops the call is a lost connection", async () => {
    const malformed = await rawServer((res, id) => {
      res.writeHead(200, { "access-control-allow-origin": "*", "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id, result: { content: "not a list" } }));
    });
    const dropping = await rawServer((res) => res.destroy());
    try {
      const a = ok(await connect(malformed.url));
      expect(await a.callTool("odd", {})).toMatchObject({ ok: false, failure: { kind: "malformed" } });
      const b = ok(await connect(dropping.url));
      expect(await b.callTool("odd", {})).toMatchObject({ ok: false, failure: { kind: "unreachable" } });
    } finally {
      malformed.server.close();
      dropping.server.close();
    }
  });
});
