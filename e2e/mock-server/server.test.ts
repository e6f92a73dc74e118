/**
 * Provider-independent parts of the mock: CORS, recording, script matching, the HTTP control API and
 * the stand-alone CLI (plain `node`, as Node 20 has no type stripping).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockServer, requestMessages, requestSystem, startMockServer } from "./index";
import { splitIntoChunks } from "./plan";

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ config: { chunkDelayMs: 0 } });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  mock.reset();
});

const ORIGIN = "http://127.0.0.1:4173";

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${mock.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN, ...headers },
    body: JSON.stringify(body),
  });
}

const anthropicBody = (text: string, stream = false) => ({
  model: "claude-sonnet-4-5",
  max_tokens: 100,
  stream,
  messages: [{ role: "user", content: text }],
});

describe("CORS", () => {
  it("answers a preflight allowing every requested header and method", async () => {
    const res = await fetch(`${mock.anthropicBaseUrl}/v1/messages`, {
      method: "OPTIONS",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers":
          "authorization,x-api-key,anthropic-version,content-type,anthropic-dangerous-direct-browser-access,x-stainless-os",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")).toContain("anthropic-dangerous-direct-browser-access");
    expect(res.headers.get("access-control-allow-headers")).toContain("x-stainless-os");
    // Preflights are recorded but hidden unless asked for.
    expect(mock.requests()).toHaveLength(0);
    expect(mock.requests({ includePreflight: true })[0]).toMatchObject({
      method: "OPTIONS",
      status: 204,
      outcome: "completed",
    });
  });

  it("puts CORS headers on SSE, errors and control responses, exposing retry-after", async () => {
    mock.enqueue("openai", { fault: { kind: "http", status: 429, retryAfterSeconds: 2 } });
    const error = await post(
      "/openai/v1/chat/completions",
      { model: "m", messages: [{ role: "user", content: "x" }] },
      {
        authorization: "Bearer k",
      },
    );
    expect(error.status).toBe(429);
    expect(error.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(error.headers.get("access-control-expose-headers")).toContain("retry-after");
    const sse = await post("/anthropic/v1/messages", anthropicBody("x", true), { "x-api-key": "k" });
    expect(sse.headers.get("content-type")).toContain("text/event-stream");
    expect(sse.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    await sse.text();
    const control = await fetch(`${mock.url}/__mock/health`, { headers: { origin: ORIGIN } });
    expect(control.headers.get("access-control-allow-origin")).toBe(ORIGIN);
  });

  it("allows any origin when none is sent", async () => {
    const res = await fetch(`${mock.url}/__mock/health`);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("recording", () => {
  it("records rejected requests, models calls and unknown paths, with lowercased headers", async () => {
    await post("/anthropic/v1/messages", anthropicBody("no key"));
    await fetch(`${mock.openaiBaseUrl}/models`, { headers: { Authorization: "Bearer k", "X-Custom": "Yes" } });
    await post("/v1/messages", {});
    const all = mock.requests();
    expect(all.map((r) => [r.api, r.method, r.path, r.status])).toEqual([
      ["anthropic", "POST", "/anthropic/v1/messages", 401],
      ["openai", "GET", "/openai/v1/models", 200],
      [null, "POST", "/v1/messages", 404],
    ]);
    expect(all[1]?.headers["x-custom"]).toBe("Yes");
    expect(all.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(mock.requests({ api: "openai" })).toHaveLength(1);
  });

  it("returns snapshots, and clearRequests empties the log", async () => {
    await post("/anthropic/v1/messages", anthropicBody("x"), { "x-api-key": "k" });
    const snapshot = mock.requests();
    const first = snapshot[0];
    if (first) first.headers.mutated = "1";
    expect(mock.requests()[0]?.headers.mutated).toBeUndefined();
    mock.clearRequests();
    expect(mock.requests()).toEqual([]);
  });

  it("views messages and system prompts of both formats", async () => {
    await post(
      "/anthropic/v1/messages",
      {
        model: "claude-sonnet-4-5",
        max_tokens: 100,
        system: [{ type: "text", text: "Sys A" }],
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "q1" },
              { type: "image", source: {} },
            ],
          },
          {
            role: "assistant",
            content: [
              { type: "thinking", thinking: "t", signature: "s" },
              { type: "text", text: "a1" },
            ],
          },
          { role: "user", content: "q2" },
        ],
      },
      { "x-api-key": "k" },
    );
    await post(
      "/openai/v1/chat/completions",
      {
        model: "gpt-4o",
        messages: [
          { role: "system", content: "Sys B" },
          { role: "user", content: [{ type: "text", text: "hi" }] },
        ],
      },
      { authorization: "Bearer k" },
    );
    const [a, o] = mock.requests();
    if (!a || !o) throw new Error("expected two requests");
    expect(requestSystem(a)).toBe("Sys A");
    expect(requestMessages(a)).toEqual([
      { role: "user", text: "q1", blockTypes: ["text", "image"] },
      { role: "assistant", text: "a1", blockTypes: ["thinking", "text"] },
      { role: "user", text: "q2", blockTypes: ["text"] },
    ]);
    expect(requestSystem(o)).toBe("Sys B");
    expect(requestMessages(o).map((m) => m.role)).toEqual(["system", "user"]);
  });
});

describe("scripts", () => {
  it("match picks the first fitting script, leaving the others queued", async () => {
    mock.enqueue("anthropic", { text: "chat reply" }, { text: "summary reply", match: { lastUser: "summarize" } });
    const summary = await post("/anthropic/v1/messages", anthropicBody("please summarize this"), { "x-api-key": "k" });
    expect(await summary.json()).toMatchObject({ content: [{ text: "chat reply" }] });
    mock.reset();
    mock.enqueue("anthropic", { text: "summary reply", match: { lastUser: "summarize" } }, { text: "chat reply" });
    const chat = await post("/anthropic/v1/messages", anthropicBody("hello"), { "x-api-key": "k" });
    expect(await chat.json()).toMatchObject({ content: [{ text: "chat reply" }] });
    expect(mock.queued("anthropic")).toBe(1);
  });

  it("splits text into a few chunks that concatenate back", () => {
    const text = "  The quick brown fox jumps over the lazy dog.\nAgain ";
    const chunks = splitIntoChunks(text, 4);
    expect(chunks.join("")).toBe(text);
    expect(chunks.length).toBeLessThanOrEqual(4);
    expect(splitIntoChunks("", 4)).toEqual([]);
    expect(splitIntoChunks("one", 4)).toEqual(["one"]);
  });

  it("reset restores the start config and empties the queues", () => {
    mock.config({ strict: true, models: { openai: ["only"] } });
    mock.enqueue("openai", { text: "x" });
    expect(mock.config().models).toEqual({
      anthropic: ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-sonnet-4-6", "claude-opus-4-6"],
      openai: ["only"],
    });
    mock.reset();
    expect(mock.config().strict).toBe(false);
    expect(mock.config().chunkDelayMs).toBe(0);
    expect(mock.queued()).toBe(0);
  });
});

describe("HTTP control API", () => {
  it("enqueues, configures, lists and resets over HTTP", async () => {
    const enqueued = await post("/__mock/enqueue", { api: "openai", scripts: [{ text: "from http" }] });
    expect(await enqueued.json()).toEqual({ queued: 1 });
    const configured = await post("/__mock/config", { strict: true });
    expect(await configured.json()).toMatchObject({ strict: true });
    const reply = await post(
      "/openai/v1/chat/completions",
      { model: "gpt-4o", messages: [{ role: "user", content: "q" }] },
      { authorization: "Bearer k" },
    );
    expect(await reply.json()).toMatchObject({ choices: [{ message: { content: "from http" } }] });
    const listed = (await (await fetch(`${mock.url}/__mock/requests?api=openai`)).json()) as unknown[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ api: "openai", path: "/openai/v1/chat/completions" });
    await post("/__mock/reset", {});
    expect(mock.config().strict).toBe(false);
    expect(mock.requests()).toEqual([]);
  });

  it("rejects malformed scripts with a reason", async () => {
    const res = await post("/__mock/enqueue", { api: "anthropic", scripts: [{ fault: { kind: "explode" } }] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain("body.scripts[0].fault.kind");
    const typo = await post("/__mock/enqueue", { api: "anthropic", script: { txt: "x" } });
    expect(typo.status).toBe(400);
    expect(mock.queued()).toBe(0);
  });

  it("takes tool scripts over HTTP, and names the field of a malformed one", async () => {
    const script = {
      serverTools: [{ kind: "web_search", query: "q", results: [{ url: "https://e.com", title: "E" }] }],
      citations: [{ url: "https://e.com", title: "E", citedText: "e" }],
      toolCalls: [{ name: "read_file", input: { path: "a" }, id: "call_1" }],
      match: { lastToolResult: "x" },
    };
    const ok = await post("/__mock/enqueue", { api: "openai", script });
    expect(ok.status).toBe(200);
    const badKind = await post("/__mock/enqueue", { api: "openai", script: { serverTools: [{ kind: "sql" }] } });
    expect(((await badKind.json()) as { error: string }).error).toContain("body.script.serverTools[0].kind");
    const badInput = await post("/__mock/enqueue", {
      api: "openai",
      script: { toolCalls: [{ name: "f", input: "not an object" }] },
    });
    expect(((await badInput.json()) as { error: string }).error).toContain("body.script.toolCalls[0].input");
    expect(mock.queued()).toBe(1);
  });

  it("serves a blank page for a neutral browser origin", async () => {
    const res = await fetch(`${mock.url}/__mock/blank`);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain("<body>");
  });
});

describe("CLI", () => {
  it("runs under plain node and serves both apis", async () => {
    const cli = fileURLToPath(new URL("./cli.mjs", import.meta.url));
    const child = spawn(process.execPath, [cli, "--port", "0", "--strict"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = "";
        let err = "";
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          const found = /grove-mock listening (\{.*\})/.exec(out);
          if (found?.[1]) resolve(found[1]);
        });
        child.stderr.on("data", (d: Buffer) => {
          err += d.toString();
        });
        child.on("exit", (code) => reject(new Error(`cli exited with ${code}: ${err}`)));
      });
      const info = JSON.parse(line) as { url: string; anthropicBaseUrl: string; openaiBaseUrl: string };
      const res = await fetch(`${info.anthropicBaseUrl}/v1/messages`, {
        method: "POST",
        headers: { "x-api-key": "k", "content-type": "application/json" },
        body: JSON.stringify(anthropicBody("from the cli")),
      });
      expect(await res.json()).toMatchObject({ content: [{ text: "Echo: from the cli" }] });
      const config = (await (await fetch(`${info.url}/__mock/config`)).json()) as { strict: boolean };
      expect(config.strict).toBe(true);
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  }, 60_000);
});
