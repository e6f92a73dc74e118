/**
 * The mock provider server for end-to-end tests (DESIGN §9): one node:http server speaking the real
 * Anthropic Messages API under `/anthropic` and OpenAI Chat Completions under `/openai`, with scripted
 * replies and faults, request recording, CORS for browser callers, and an HTTP control API under
 * `/__mock` so a browser page or another process can drive it too.
 *
 * Why TypeScript and how it runs: the server is ordinary strict TypeScript, so `tsc` checks it with the
 * rest of the repo and the Playwright fixtures / Vitest tests import it directly (both transpile TS on
 * the fly). Node 20 cannot run TS by itself (no `--experimental-strip-types`, and tsx is not a
 * dependency), so the stand-alone entry `cli.mjs` registers a ~40-line module hook (`ts-hooks.mjs`)
 * that transpiles these files with the repo's own `typescript` package. One source, three runners,
 * no build step and no hand-kept `.d.ts`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { keepIdleConnections } from "../../scripts/keep-idle-connections.mjs";
import { handleAnthropic } from "./anthropic";
import { Exchange, lowercaseHeaders, parseBody, preflightHeaders, readBody } from "./exchange";
import type { HandlerContext } from "./handler-context";
import { handleOpenAI } from "./openai";
import { ParseError, parseApi, parseConfigPatch, parseEnqueue, parseReleaseApi } from "./parse";
import { takeScript } from "./plan";
import { handleRemoteSummarizer, REMOTE_SUMMARIZER_PATH } from "./remote-summarizer";
import {
  APIS,
  type Api,
  type MockConfig,
  type MockConfigPatch,
  type MockServer,
  type MockServerOptions,
  type RecordedRequest,
  type ReplyScript,
  type RequestFilter,
} from "./types";

export const DEFAULT_MOCK_CONFIG: MockConfig = {
  strict: false,
  apiKey: null,
  chunkDelayMs: 5,
  validate: true,
  models: {
    anthropic: ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-sonnet-4-6", "claude-opus-4-6"],
    openai: ["gpt-4o", "gpt-4o-mini", "gpt-4.1", "o4-mini", "gpt-5"],
  },
  openaiReasoningField: "reasoning_content",
  countTokens: "chars",
  remoteSummarizer: "ok",
  remoteSummary: "Remote summary: the user and the assistant discussed the planted facts.",
  unscripted: "echo",
};

const BLANK_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Grove mock</title><link rel="icon" href="data:,"></head><body></body></html>';

function applyPatch(config: MockConfig, patch: MockConfigPatch): MockConfig {
  const { models, ...rest } = patch;
  const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  return {
    ...config,
    ...defined,
    models: {
      anthropic: [...(models?.anthropic ?? config.models.anthropic)],
      openai: [...(models?.openai ?? config.models.openai)],
    },
  };
}

function apiOfPath(path: string): Api | null {
  return APIS.find((api) => path === `/${api}` || path.startsWith(`/${api}/`)) ?? null;
}

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const initialConfig = applyPatch(DEFAULT_MOCK_CONFIG, options.config ?? {});
  let config = applyPatch(initialConfig, {});
  let queues: Record<Api, ReplyScript[]> = { anthropic: [], openai: [] };
  let records: RecordedRequest[] = [];
  let seq = 0;
  let ids = 0;
  const inFlight = new Set<Exchange>();
  /** Responses parked by a `hold` script, each with the function that lets it go on. */
  const parked = new Set<{ api: Api; go: () => void }>();

  const hold = (api: Api, ex: Exchange): Promise<void> => {
    if (ex.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        api,
        go: () => {
          parked.delete(entry);
          resolve();
        },
      };
      parked.add(entry);
      // A client abort (Stop), reset or close ends the wait too; the handler then finds ex.closed.
      void ex.waitClosed().then(entry.go);
    });
  };
  const held = (api?: Api): number => [...parked].filter((p) => api === undefined || p.api === api).length;
  const release = (api?: Api): number => {
    const going = [...parked].filter((p) => api === undefined || p.api === api);
    for (const p of going) p.go();
    return going.length;
  };

  const ctx: HandlerContext = {
    config: () => config,
    takeScript: (api, req) => takeScript(queues[api], req),
    hold,
    nextId: () => ++ids,
    flakyFiles: new Set(),
  };

  const enqueue = (api: Api, ...scripts: ReplyScript[]): void => {
    queues[api].push(...structuredClone(scripts));
  };
  const queued = (api?: Api): number => (api ? queues[api].length : queues.anthropic.length + queues.openai.length);
  const requests = (filter: RequestFilter = {}): RecordedRequest[] =>
    structuredClone(
      records.filter(
        (r) =>
          (filter.api === undefined || r.api === filter.api) && (filter.includePreflight || r.method !== "OPTIONS"),
      ),
    );
  const clearRequests = (): void => {
    records = [];
  };
  const configure = (patch: MockConfigPatch = {}): MockConfig => {
    config = applyPatch(config, patch);
    return structuredClone(config);
  };
  const reset = (): void => {
    for (const ex of inFlight) ex.destroy();
    inFlight.clear();
    release();
    queues = { anthropic: [], openai: [] };
    records = [];
    seq = 0;
    ids = 0;
    ctx.flakyFiles.clear();
    config = applyPatch(initialConfig, {});
  };

  function makeRecord(req: IncomingMessage, path: string, search: string, body: unknown): RecordedRequest {
    return {
      seq: 0,
      api: apiOfPath(path),
      method: req.method ?? "GET",
      path,
      search,
      headers: lowercaseHeaders(req),
      body,
      at: Date.now(),
      status: 0,
      outcome: "pending",
    };
  }

  function record(req: IncomingMessage, path: string, search: string, body: unknown): RecordedRequest {
    const rec = makeRecord(req, path, search, body);
    rec.seq = ++seq;
    records.push(rec);
    return rec;
  }

  async function handleControl(ex: Exchange, route: string, url: URL, bodyText: string): Promise<void> {
    const method = ex.record.method;
    const body = (): unknown => {
      const parsed = parseBody(bodyText);
      if (!parsed.isJson && parsed.value !== null) throw new ParseError("body: expected JSON");
      return parsed.value ?? {};
    };
    if (method === "GET" && route === "/health") return ex.json(200, { ok: true });
    if (method === "GET" && route === "/blank") return ex.html(200, BLANK_PAGE);
    if (method === "POST" && route === "/enqueue") {
      const { api, scripts } = parseEnqueue(body());
      enqueue(api, ...scripts);
      return ex.json(200, { queued: queued(api) });
    }
    if (method === "GET" && route === "/queued") {
      const api = url.searchParams.get("api");
      return ex.json(200, { queued: api === null ? queued() : queued(parseApi(api, "query api")) });
    }
    if (method === "GET" && route === "/held") {
      const api = url.searchParams.get("api");
      return ex.json(200, { held: api === null ? held() : held(parseApi(api, "query api")) });
    }
    if (method === "POST" && route === "/release") {
      const api = parseReleaseApi(body());
      return ex.json(200, { released: release(api) });
    }
    if (method === "GET" && route === "/requests") {
      const api = url.searchParams.get("api");
      const filter: RequestFilter = { includePreflight: url.searchParams.get("includePreflight") === "1" };
      if (api !== null) filter.api = parseApi(api, "query api");
      return ex.json(200, requests(filter));
    }
    if ((method === "DELETE" && route === "/requests") || (method === "POST" && route === "/requests/clear")) {
      clearRequests();
      return ex.json(200, { ok: true });
    }
    if (method === "POST" && route === "/reset") {
      reset();
      return ex.json(200, { ok: true });
    }
    if (method === "GET" && route === "/config") return ex.json(200, configure());
    if (method === "POST" && route === "/config") return ex.json(200, configure(parseConfigPatch(body())));
    ex.json(404, { error: `no control route ${method} /__mock${route}` });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://mock.invalid");
    const path = url.pathname;
    const isControl = path === "/__mock" || path.startsWith("/__mock/");
    if (req.method === "OPTIONS") {
      // Preflights are recorded (visible with includePreflight) but never consume scripts.
      if (!isControl) Object.assign(record(req, path, url.search, null), { status: 204, outcome: "completed" });
      res.writeHead(204, preflightHeaders(req));
      res.end();
      return;
    }
    const bodyText = await readBody(req);
    const body = parseBody(bodyText).value;
    if (isControl) {
      // Control calls are not provider traffic: answered with CORS, never recorded.
      const ex = new Exchange(req, res, makeRecord(req, path, url.search, body));
      try {
        await handleControl(ex, path.slice("/__mock".length), url, bodyText);
      } catch (error) {
        if (!(error instanceof ParseError)) throw error;
        ex.json(400, { error: error.message });
      }
      return;
    }
    const ex = new Exchange(req, res, record(req, path, url.search, body));
    inFlight.add(ex);
    res.on("close", () => inFlight.delete(ex));
    const api = ex.record.api;
    if (api === "anthropic") await handleAnthropic(ex, path.slice("/anthropic".length), ctx);
    else if (api === "openai") await handleOpenAI(ex, path.slice("/openai".length), ctx);
    else if (path === REMOTE_SUMMARIZER_PATH) handleRemoteSummarizer(ex, ctx);
    else ex.json(404, { error: `not a mock provider path: ${path} (use /anthropic/v1/... or /openai/v1/...)` });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`[grove mock] ${req.method} ${req.url} failed: ${message}`);
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json", "access-control-allow-origin": "*" });
        res.end(JSON.stringify({ error: `mock server bug: ${message}` }));
      } else {
        res.destroy();
      }
    });
  });
  // SSE replies may idle for long (hang faults); the app, not Node, decides when to give up.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  keepIdleConnections(server);

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}`;

  return {
    url,
    port,
    anthropicBaseUrl: `${url}/anthropic`,
    openaiBaseUrl: `${url}/openai/v1`,
    remoteSummarizerUrl: `${url}${REMOTE_SUMMARIZER_PATH}`,
    enqueue,
    queued,
    held,
    release,
    requests,
    clearRequests,
    config: configure,
    reset,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const ex of inFlight) ex.destroy();
        release();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
