import { describe, expect, it } from "vitest";
import { streamAnthropic } from "./anthropic";
import { createListModels, listAnthropicModels, listOpenAIModels } from "./list-models";
import { streamOpenAI } from "./openai";
import { loadProvider, streamFor } from "./registry";
import { createFakeFetch, jsonReply } from "./testing/fake-fetch";
import { testProvider } from "./testing/requests";

const signal = () => new AbortController().signal;

describe("listModels", () => {
  it("lists Anthropic models across pages, sorted", async () => {
    const fake = createFakeFetch([
      jsonReply(200, {
        data: [
          {
            type: "model",
            id: "claude-sonnet-4-6",
            display_name: "Claude Sonnet 4.6",
            created_at: "2026-02-17T00:00:00Z",
          },
          {
            type: "model",
            id: "claude-haiku-4-5",
            display_name: "Claude Haiku 4.5",
            created_at: "2025-10-01T00:00:00Z",
          },
        ],
        has_more: true,
        first_id: "claude-sonnet-4-6",
        last_id: "claude-haiku-4-5",
      }),
      jsonReply(200, {
        data: [
          { type: "model", id: "claude-opus-4-5", display_name: "Claude Opus 4.5", created_at: "2025-11-01T00:00:00Z" },
        ],
        has_more: false,
        first_id: "claude-opus-4-5",
        last_id: "claude-opus-4-5",
      }),
    ]);
    const list = createListModels("anthropic-messages", { fetch: fake.fetch });
    await expect(list(testProvider("anthropic-messages"), signal())).resolves.toEqual([
      "claude-haiku-4-5",
      "claude-opus-4-5",
      "claude-sonnet-4-6",
    ]);
    expect(fake.requests[0]?.url).toBe("https://api.anthropic.com/v1/models?limit=1000");
    expect(fake.requests[1]?.url).toContain("after_id=claude-haiku-4-5");
  });

  it("lists OpenAI-compatible models (Ollama's /v1/models), sorted", async () => {
    const fake = createFakeFetch([
      jsonReply(200, {
        object: "list",
        data: [
          { id: "qwen3:8b", object: "model", created: 1746000000, owned_by: "library" },
          { id: "llama3.2:latest", object: "model", created: 1745000000, owned_by: "library" },
        ],
      }),
    ]);
    const list = createListModels("openai-chat", { fetch: fake.fetch });
    const provider = testProvider("openai-chat", { baseUrl: "http://localhost:11434/v1", apiKey: "" });
    await expect(list(provider, signal())).resolves.toEqual(["llama3.2:latest", "qwen3:8b"]);
    expect(fake.requests[0]?.url).toBe("http://localhost:11434/v1/models");
  });

  it("rejects with a classified MessageError", async () => {
    const fake = createFakeFetch([
      jsonReply(401, { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }),
    ]);
    const list = createListModels("anthropic-messages", { fetch: fake.fetch });
    await expect(list(testProvider("anthropic-messages"), signal())).rejects.toMatchObject({
      kind: "auth",
      status: 401,
    });
  });

  it("rejects with kind network when the server is unreachable", async () => {
    const list = createListModels("openai-chat", {
      fetch: async () => {
        throw new TypeError("Failed to fetch");
      },
    });
    await expect(list(testProvider("openai-chat"), signal())).rejects.toMatchObject({ kind: "network" });
  });
});

describe("registry", () => {
  it("loads each api's adapter and lister on demand", async () => {
    expect((await loadProvider("anthropic-messages")).stream).toBe(streamAnthropic);
    expect((await loadProvider("openai-chat")).stream).toBe(streamOpenAI);
    expect((await loadProvider("anthropic-messages")).listModels).toBe(listAnthropicModels);
    expect((await loadProvider("openai-chat")).listModels).toBe(listOpenAIModels);
  });

  it("keeps the stream contract: the lazy adapter's events come through unchanged", async () => {
    const ac = new AbortController();
    ac.abort();
    const events = [];
    for await (const e of streamFor("openai-chat")({
      provider: testProvider("openai-chat"),
      model: "gpt-4o",
      context: { system: "", messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] },
      maxOutputTokens: 100,
      thinking: { kind: "off" },
      signal: ac.signal,
    })) {
      events.push(e);
    }
    expect(events.at(-1)).toMatchObject({ type: "error", error: { kind: "aborted" } });
  });
});
