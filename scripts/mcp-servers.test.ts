/**
 * The test MCP servers answer the official SDK client: list tools and call one on each, over Streamable
 * HTTP; a browser page's CORS preflight is answered; the files server's token and CORS switches work and
 * its tools stay inside their folder.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type McpServers, SEED_FILES, startMcpServers } from "./mcp-servers.mjs";

let servers: McpServers;

beforeAll(async () => {
  servers = await startMcpServers();
}, 60_000);
afterAll(async () => {
  await servers?.close();
});
beforeEach(async () => {
  await servers.files.reset();
});

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "grove-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>): string =>
  (Array.isArray(result.content) ? result.content : [])
    .map((c) => (c.type === "text" ? c.text : `[${c.type}]`))
    .join("\n");

const PAGE_ORIGIN = "http://127.0.0.1:4304";

async function preflight(url: string): Promise<Response> {
  return fetch(url, {
    method: "OPTIONS",
    headers: {
      origin: PAGE_ORIGIN,
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type, mcp-protocol-version, mcp-session-id",
    },
  });
}

describe("server-everything (Streamable HTTP)", () => {
  it("lists its tools and runs echo and get-sum", async () => {
    const client = await connect(servers.everything.url);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "get-tiny-image"]));
      expect(tools.find((t) => t.name === "echo")?.description).toBe("Echoes back the input string");
      expect(textOf(await client.callTool({ name: "echo", arguments: { message: "hi" } }))).toBe("Echo: hi");
      expect(textOf(await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } }))).toContain("is 5");
    } finally {
      await client.close();
    }
  });

  it("answers a browser page's preflight and exposes the session header", async () => {
    const res = await preflight(servers.everything.url);
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("mcp-session-id");
    const post = await fetch(servers.everything.url, {
      method: "POST",
      headers: {
        origin: PAGE_ORIGIN,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
    expect(post.headers.get("access-control-expose-headers")?.toLowerCase()).toContain("mcp-session-id");
    expect(post.headers.get("mcp-session-id")).toBeTruthy();
    await post.body?.cancel();
  });
});

describe("the files server", () => {
  it("lists read_file, write_file, edit_file, list_directory and uses them on its folder", async () => {
    const client = await connect(servers.files.url);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["edit_file", "list_directory", "read_file", "write_file"]);
      expect(textOf(await client.callTool({ name: "read_file", arguments: { path: "README.md" } }))).toBe(
        SEED_FILES["README.md"],
      );
      await client.callTool({ name: "write_file", arguments: { path: "out/new.txt", content: "fresh" } });
      expect(await readFile(join(servers.files.dir, "out/new.txt"), "utf8")).toBe("fresh");
      const edited = await client.callTool({
        name: "edit_file",
        arguments: { path: "notes/todo.txt", edits: [{ oldText: "buy milk", newText: "buy bread" }] },
      });
      expect(edited.isError).toBeFalsy();
      expect(await readFile(join(servers.files.dir, "notes/todo.txt"), "utf8")).toContain("buy bread");
      expect(textOf(await client.callTool({ name: "list_directory", arguments: { path: "." } }))).toBe(
        "[DIR] notes\n[DIR] out\n[FILE] README.md",
      );
    } finally {
      await client.close();
    }
  });

  it("answers errors as error results, and never leaves its folder", async () => {
    const client = await connect(servers.files.url);
    try {
      const missing = await client.callTool({ name: "read_file", arguments: { path: "nope.txt" } });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toContain("ENOENT");
      const outside = await client.callTool({ name: "read_file", arguments: { path: "../../etc/passwd" } });
      expect(outside.isError).toBe(true);
      expect(textOf(outside)).toContain("outside the allowed folder");
    } finally {
      await client.close();
    }
  });

  it("asks for its bearer token when one is set (401), and takes it", async () => {
    servers.files.setToken("s3cret");
    const refused = await connect(servers.files.url).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Error);
    expect(refused).toMatchObject({ code: 401 });
    const client = await connect(servers.files.url, { authorization: "Bearer s3cret" });
    expect((await client.listTools()).tools).toHaveLength(4);
    await client.close();
  });

  it("answers the preflight for the allowed origin, and sends no CORS headers when it allows none", async () => {
    const allowed = await preflight(servers.files.url);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("*");
    expect(allowed.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version");
    servers.files.setAllowedOrigin(null);
    const refused = await preflight(servers.files.url);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
  });
});
