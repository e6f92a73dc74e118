/**
 * Talking to an MCP server from the browser (issue 28), over the official TypeScript SDK: connect with
 * Streamable HTTP, falling back to the older SSE transport when the server answers the new one with a
 * 4xx (not 401/403); list its tools; call one with Stop (`AbortSignal`) and a per-call timeout. Every
 * failure is a value (`McpOutcome`) with a plain reason (mcp-failure.ts), credentials redacted; the
 * server's headers go to that server and nowhere else.
 *
 * Effects at the edge: the network (through an injectable `fetch`). No state here: the state layer
 * keeps connections and their status; nothing here touches storage.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { classifyFetchFailure, classifyMcpError, isFetchFailure, originOf, serverSecrets } from "./mcp-failure";
import { normalizeToolResult } from "./mcp-result";
import type { McpFailure, McpOutcome, McpServerConfig, McpToolInfo, McpToolResult } from "./mcp-types";

/** How long connecting (and listing the tools) may take. */
const MCP_CONNECT_TIMEOUT_MS = 15_000;
/** How long one tool call may take unless the settings say otherwise. */
const MCP_CALL_TIMEOUT_MS = 60_000;
/** Pages of `tools/list` read at most (a server that pages forever is cut off there). */
const MAX_TOOL_PAGES = 20;

const CLIENT_INFO = { name: "grove", version: "1.0.0" } as const;

/**
 * The SDK checks a tool's structured output against its declared schema with Ajv, which compiles
 * validators with `new Function`: Grove's Content Security Policy (no 'unsafe-eval') refuses that, and
 * the first `tools/list` fails in the browser. A result is data the model reads, never trusted for
 * anything, so it is taken as the server sent it (the text the model sees comes from its content).
 */
const acceptingValidator: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

type McpClientDeps = {
  /** The fetch to use (tests emulate the browser's CORS with it). Default: the global one. */
  fetch?: typeof fetch;
  /** The page's origin, named in the CORS advice. Default: `location.origin` where there is one. */
  pageOrigin?: string;
};

export type McpConnectOptions = McpClientDeps & { signal?: AbortSignal; timeoutMs?: number };
type McpCallOptions = { signal?: AbortSignal; timeoutMs?: number };

/** A live connection: the server's tools as listed when it connected. */
export type McpConnection = {
  readonly transport: "streamable-http" | "sse";
  /** The server's name and version, as it gave them (untrusted text: show, never interpret). */
  readonly server: { readonly name: string; readonly version: string };
  readonly tools: readonly McpToolInfo[];
  /** Lists the tools again (after the server said they changed). */
  listTools(opts?: McpCallOptions): Promise<McpOutcome<McpToolInfo[]>>;
  /** Calls a tool; a tool's own failure is a result with `isError`, a transport failure a failure. */
  callTool(name: string, args: unknown, opts?: McpCallOptions): Promise<McpOutcome<McpToolResult>>;
  close(): Promise<void>;
};

type Context = { url: string; secrets: readonly string[]; fetchFn: typeof fetch; pageOrigin: string | undefined };

function pageOriginOf(deps: McpClientDeps): string | undefined {
  if (deps.pageOrigin !== undefined) return deps.pageOrigin;
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  return typeof origin === "string" && origin !== "null" ? origin : undefined;
}

/**
 * A failure's reason. A fetch that got no answer at all is CORS or "nothing there" while connecting
 * (classifyFetchFailure asks once more); once connected, the page was allowed, so it is a lost connection.
 */
async function failureOf(
  e: unknown,
  ctx: Context,
  what: string,
  opts: { signal?: AbortSignal; timeoutMs?: number; connected?: boolean },
): Promise<McpFailure> {
  if (!opts.signal?.aborted && isFetchFailure(e)) {
    if (!opts.connected) return classifyFetchFailure(ctx.url, ctx.fetchFn, ctx.pageOrigin);
    return { kind: "unreachable", message: `The connection to ${originOf(ctx.url)} was lost (${what.toLowerCase()}).` };
  }
  return classifyMcpError(e, {
    url: ctx.url,
    secrets: ctx.secrets,
    what,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
  });
}

/** Whether a Streamable HTTP failure means "this server speaks the older SSE transport". */
function wantsSseFallback(e: unknown): boolean {
  const code = typeof e === "object" && e !== null ? (e as { code?: unknown }).code : undefined;
  return typeof code === "number" && code >= 400 && code < 500 && code !== 401 && code !== 403;
}

function toolInfo(t: {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean | undefined; destructiveHint?: boolean | undefined } | undefined;
}): McpToolInfo {
  return {
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    ...(t.description ? { description: t.description } : {}),
    inputSchema: t.inputSchema,
    ...(t.annotations?.readOnlyHint !== undefined ? { readOnly: t.annotations.readOnlyHint } : {}),
    ...(t.annotations?.destructiveHint !== undefined ? { destructive: t.annotations.destructiveHint } : {}),
  };
}

async function listAll(client: Client, opts: McpCallOptions): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const res = await client.listTools(cursor ? { cursor } : undefined, {
      ...(opts.signal ? { signal: opts.signal } : {}),
      timeout: opts.timeoutMs ?? MCP_CONNECT_TIMEOUT_MS,
    });
    tools.push(...res.tools.map(toolInfo));
    cursor = res.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

function transportFor(kind: "streamable-http" | "sse", server: McpServerConfig, fetchFn: typeof fetch): Transport {
  const url = new URL(server.url);
  const requestInit: RequestInit = { headers: { ...server.headers } };
  return kind === "streamable-http"
    ? new StreamableHTTPClientTransport(url, { requestInit, fetch: fetchFn })
    : new SSEClientTransport(url, { requestInit, fetch: fetchFn });
}

async function open(
  kind: "streamable-http" | "sse",
  server: McpServerConfig,
  fetchFn: typeof fetch,
  opts: McpConnectOptions,
): Promise<Client> {
  const client = new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator: acceptingValidator });
  await client.connect(transportFor(kind, server, fetchFn), {
    ...(opts.signal ? { signal: opts.signal } : {}),
    timeout: opts.timeoutMs ?? MCP_CONNECT_TIMEOUT_MS,
  });
  return client;
}

/**
 * Connects to `server` and lists its tools. Never throws: a failure comes back with its reason
 * ("unreachable", "cors" with how to allow this origin, "auth", "timeout", "malformed", "server",
 * "aborted"), the server's credentials taken out of it.
 */
export async function connectMcpServer(
  server: McpServerConfig,
  opts: McpConnectOptions = {},
): Promise<McpOutcome<McpConnection>> {
  const fetchFn = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const ctx: Context = {
    url: server.url,
    secrets: serverSecrets(server.url, server.headers),
    fetchFn,
    pageOrigin: pageOriginOf(opts),
  };
  try {
    new URL(server.url);
  } catch {
    return { ok: false, failure: { kind: "unreachable", message: "The server address is not a URL." } };
  }

  let client: Client;
  let kind: "streamable-http" | "sse" = "streamable-http";
  try {
    try {
      client = await open("streamable-http", server, fetchFn, opts);
    } catch (e) {
      if (!wantsSseFallback(e) || opts.signal?.aborted) throw e;
      kind = "sse";
      client = await open("sse", server, fetchFn, opts);
    }
  } catch (e) {
    return { ok: false, failure: await failureOf(e, ctx, "Connecting", opts) };
  }

  let tools: McpToolInfo[];
  try {
    tools = await listAll(client, opts);
  } catch (e) {
    await client.close().catch(() => {});
    return { ok: false, failure: await failureOf(e, ctx, "Listing the tools", opts) };
  }
  const info = client.getServerVersion();
  const connection: McpConnection = {
    transport: kind,
    server: { name: info?.name ?? "", version: info?.version ?? "" },
    tools,
    async listTools(o = {}) {
      try {
        return { ok: true, value: await listAll(client, o) };
      } catch (e) {
        return { ok: false, failure: await failureOf(e, ctx, "Listing the tools", { ...o, connected: true }) };
      }
    },
    async callTool(name, args, o = {}) {
      if (typeof args !== "object" || args === null || Array.isArray(args)) {
        // The model's mistake, not the server's: it reads why.
        return {
          ok: true,
          value: { content: [{ type: "text", text: "The arguments must be a JSON object." }], isError: true },
        };
      }
      const timeoutMs = o.timeoutMs ?? MCP_CALL_TIMEOUT_MS;
      try {
        const raw = await client.callTool({ name, arguments: args as Record<string, unknown> }, undefined, {
          ...(o.signal ? { signal: o.signal } : {}),
          timeout: timeoutMs,
        });
        return normalizeToolResult(raw);
      } catch (e) {
        return { ok: false, failure: await failureOf(e, ctx, `Calling ${name}`, { ...o, timeoutMs, connected: true }) };
      }
    },
    close: () => client.close().catch(() => {}),
  };
  return { ok: true, value: connection };
}
