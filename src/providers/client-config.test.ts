import { describe, expect, it } from "vitest";
import { makeAnthropicClient } from "./anthropic-client";
import { clientFetch } from "./client-config";
import { makeOpenAIClient } from "./openai-client";
import { testProvider } from "./testing/requests";

/** A fetch that records the init of each call and answers a model list. */
function recording() {
  const inits: (RequestInit | undefined)[] = [];
  const fetch = async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    inits.push(init);
    return new Response(JSON.stringify({ data: [], has_more: false, first_id: null, last_id: null }), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
  return { fetch, inits };
}

describe("provider clients send no Referer (issue 30.7: a worker without the headers file sent the app's URL)", () => {
  it("Anthropic", async () => {
    const r = recording();
    await makeAnthropicClient(testProvider("anthropic-messages"), { fetch: r.fetch }).models.list();
    expect(r.inits.length).toBeGreaterThan(0);
    for (const init of r.inits) expect(init?.referrerPolicy).toBe("no-referrer");
  });

  it("OpenAI", async () => {
    const r = recording();
    await makeOpenAIClient(testProvider("openai-chat"), { fetch: r.fetch }).models.list();
    expect(r.inits.length).toBeGreaterThan(0);
    for (const init of r.inits) expect(init?.referrerPolicy).toBe("no-referrer");
  });
});

describe("provider clients reach only the provider's own host (issue 24.14)", () => {
  it("refuses a request to another host before it leaves, naming the host", async () => {
    const r = recording();
    const provider = { ...testProvider("openai-chat"), baseUrl: "https://api.example.com/v1" };
    const fetch = clientFetch({ fetch: r.fetch }, provider);
    await expect(fetch("https://collector.evil.example/v1/chat/completions", { method: "POST" })).rejects.toThrow(
      /refused a request to collector\.evil\.example/,
    );
    await expect(fetch(new Request("http://api.example.com/v1/models"))).rejects.toThrow(/refused/);
    expect(r.inits).toEqual([]);
    await fetch("https://api.example.com/v1/models");
    expect(r.inits).toHaveLength(1);
    expect(r.inits[0]?.redirect).toBe("error");
  });
});
