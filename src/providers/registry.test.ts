import { afterEach, describe, expect, it, vi } from "vitest";
import { listModels, stream } from "./registry";
import { collect, last, testProvider, testRequest, types } from "./testing/requests";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A global fetch that records every URL and answers with `reply` (or throws when none). */
function stubFetch(reply?: () => Response) {
  const urls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      urls.push(String(input instanceof Request ? input.url : input));
      if (!reply) throw new Error("no request was expected");
      return reply();
    }),
  );
  return urls;
}

describe("the providers' door", () => {
  it.each(["openai-chat", "anthropic-messages"] as const)(
    "%s: a custom provider without a base URL neither streams nor lists models, and nothing is sent",
    async (api) => {
      const urls = stubFetch();
      const provider = testProvider(api, { id: "custom-x", name: "Mine", builtIn: false, baseUrl: "  " });
      const events = await collect(stream(testRequest(api, { provider })));
      expect(types(events)).toEqual(["start", "error"]);
      const end = last(events);
      if (end.type !== "error") throw new Error("expected an error");
      expect(end.error).toEqual({ kind: "invalid_request", message: expect.stringMatching(/Mine needs a base URL/) });
      await expect(listModels(provider, new AbortController().signal)).rejects.toMatchObject({
        kind: "invalid_request",
      });
      expect(urls).toEqual([]);
    },
  );

  it("an unconfirmed plain-http remote base URL is refused before any request", async () => {
    const urls = stubFetch();
    const provider = testProvider("openai-chat", { baseUrl: "http://proxy.example.com/v1" });
    const end = last(await collect(stream(testRequest("openai-chat", { provider }))));
    expect(end.type === "error" && end.error.message).toMatch(/plain http/);
    await expect(listModels(provider, new AbortController().signal)).rejects.toMatchObject({
      message: expect.stringMatching(/unencrypted/),
    });
    expect(urls).toEqual([]);
  });

  it("an error body quoting the configured key comes out redacted, from a stream and from a model list", async () => {
    const key = "my-local-secret-42";
    stubFetch(
      () =>
        new Response(JSON.stringify({ error: { message: `Invalid API key: ${key}`, code: "invalid_api_key" } }), {
          status: 401,
          headers: { "content-type": "application/json" },
        }),
    );
    const provider = testProvider("openai-chat", { apiKey: key, baseUrl: "https://llm.example.com/v1" });
    const end = last(await collect(stream(testRequest("openai-chat", { provider }))));
    if (end.type !== "error") throw new Error("expected an error");
    expect(end.error.kind).toBe("auth");
    expect(end.error.message).toContain("Invalid API key: [redacted]");
    expect(end.error.message).not.toContain(key);

    const listed = await listModels(provider, new AbortController().signal).catch((e: unknown) => e);
    expect(JSON.stringify(listed)).toContain("[redacted]");
    expect(JSON.stringify(listed)).not.toContain(key);
  });

  it("an error quoting a request's MCP connector token comes out redacted too", async () => {
    const token = "connector-token-77";
    stubFetch(
      () =>
        new Response(
          JSON.stringify({
            type: "error",
            error: { type: "invalid_request_error", message: `MCP server refused token ${token}` },
          }),
          { status: 400, headers: { "content-type": "application/json" } },
        ),
    );
    const provider = testProvider("anthropic-messages", { baseUrl: "https://llm.example.com" });
    const tools = [
      { kind: "mcp", name: "files", url: "https://mcp.example.com/mcp", authorizationToken: token },
    ] as const;
    const end = last(await collect(stream(testRequest("anthropic-messages", { provider, tools }))));
    if (end.type !== "error") throw new Error("expected an error");
    expect(end.error.message).toContain("MCP server refused token [redacted]");
    expect(end.error.message).not.toContain(token);
  });
});
