/**
 * The remote summarizer call over a fake fetch: what goes out (only its own token, only to its
 * URL), what comes back, and every failure in words the user can act on.
 */
import { describe, expect, it } from "vitest";
import {
  CORS_OR_UNREACHABLE,
  callRemoteSummarizer,
  type RemoteSummarizerConfig,
  resolveRemoteSummarizer,
  unconfirmedTokenOrigin,
} from "./remote-summarizer";
import { createFakeFetch, jsonReply } from "./testing/fake-fetch";

const CONFIG: RemoteSummarizerConfig = {
  url: "https://summarizer.example/v1/summarize",
  token: "remote-tok",
  tokenOrigin: "https://summarizer.example",
};
const BODY = { systemPrompt: "You write context summaries.", prompt: "<conversation>[User] hi</conversation>" };
const signal = () => new AbortController().signal;
const page = { pageOrigin: "http://127.0.0.1:4173" };

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  throw new Error("expected a failure");
}

describe("callRemoteSummarizer", () => {
  it("POSTs { systemPrompt, prompt } with its own bearer token and returns the summary", async () => {
    const fake = createFakeFetch([jsonReply(200, { summary: "The summary.", extra: 1 })]);
    expect(await callRemoteSummarizer(CONFIG, BODY, signal(), { fetch: fake.fetch, ...page })).toBe("The summary.");
    const [sent] = fake.requests;
    expect(sent?.url).toBe(CONFIG.url);
    expect(sent?.method).toBe("POST");
    expect(sent?.body).toEqual(BODY);
    expect(sent?.headers.authorization).toBe("Bearer remote-tok");
    expect(Object.keys(sent?.headers ?? {}).sort()).toEqual(["accept", "authorization", "content-type"]);
  });

  it("sends no Authorization header without a token", async () => {
    const fake = createFakeFetch([jsonReply(200, { summary: "S" })]);
    await callRemoteSummarizer({ url: CONFIG.url, token: "" }, BODY, signal(), { fetch: fake.fetch, ...page });
    expect(fake.requests[0]?.headers).not.toHaveProperty("authorization");
  });

  it("non-2xx, bad JSON and a missing summary fail in words, the token redacted", async () => {
    const fake = createFakeFetch([
      jsonReply(500, { error: "down, token remote-tok" }),
      { status: 200, headers: { "content-type": "application/json" }, chunks: ["{ nope"] },
      jsonReply(200, { text: "no summary" }),
      jsonReply(200, { summary: "   " }),
    ]);
    const call = () => callRemoteSummarizer(CONFIG, BODY, signal(), { fetch: fake.fetch, ...page });
    const http = await failure(call());
    expect(http).toContain("answered HTTP 500");
    expect(http).not.toContain("remote-tok");
    expect(await failure(call())).toBe("The remote summarizer's answer is not JSON");
    expect(await failure(call())).toBe("The remote summarizer's answer has no summary");
    expect(await failure(call())).toBe("The remote summarizer's answer has no summary");
  });

  it("explains a fetch TypeError to another origin as CORS or unreachable", async () => {
    const typeError: typeof fetch = async () => {
      throw new TypeError("Failed to fetch");
    };
    expect(await failure(callRemoteSummarizer(CONFIG, BODY, signal(), { fetch: typeError, ...page }))).toBe(
      CORS_OR_UNREACHABLE,
    );
    const sameOrigin = { url: "http://127.0.0.1:4173/summarize", token: "" };
    expect(await failure(callRemoteSummarizer(sameOrigin, BODY, signal(), { fetch: typeError, ...page }))).toBe(
      "The remote summarizer is unreachable",
    );
  });

  it("an abort is the caller's abort, not a summarizer failure", async () => {
    const fake = createFakeFetch([{ status: 200, chunks: [], end: "hang" }]);
    const ac = new AbortController();
    const pending = callRemoteSummarizer(CONFIG, BODY, ac.signal, { fetch: fake.fetch, ...page });
    ac.abort();
    const e = await pending.catch((err: unknown) => err);
    expect((e as Error).name).toBe("AbortError");
  });

  it("plain http:// outside this machine only once confirmed; local http is fine", async () => {
    const insecure = { url: "http://203.0.113.9/summarize", token: "t", tokenOrigin: "http://203.0.113.9" };
    expect(resolveRemoteSummarizer(insecure)).toMatchObject({ ok: false });
    const fake = createFakeFetch([]);
    expect(await failure(callRemoteSummarizer(insecure, BODY, signal(), { fetch: fake.fetch, ...page }))).toContain(
      "plain http://",
    );
    expect(fake.requests).toHaveLength(0);
    expect(resolveRemoteSummarizer({ ...insecure, plainHttpOrigin: "http://203.0.113.9" })).toEqual({
      ok: true,
      url: insecure.url,
    });
    expect(resolveRemoteSummarizer({ url: "http://localhost:9000/s", token: "" })).toMatchObject({ ok: true });
    expect(resolveRemoteSummarizer({ url: "ftp://x/s", token: "" })).toMatchObject({ ok: false });
    expect(resolveRemoteSummarizer({ url: "https://user:pw@x.example/s", token: "" })).toMatchObject({ ok: false });
  });

  it("the token does not follow a changed URL until that origin is confirmed (issue 30.7)", async () => {
    const moved = { ...CONFIG, url: "https://elsewhere.example/summarize" };
    expect(unconfirmedTokenOrigin(moved)).toBe("https://elsewhere.example");
    const fake = createFakeFetch([jsonReply(200, { summary: "S" })]);
    expect(await failure(callRemoteSummarizer(moved, BODY, signal(), { fetch: fake.fetch, ...page }))).toBe(
      "The token was given for https://summarizer.example, not https://elsewhere.example: confirm in Settings that it may go there",
    );
    expect(fake.requests).toHaveLength(0);
    // A token entered with no URL set has no origin yet: it asks too.
    const { tokenOrigin: _, ...unbound } = CONFIG;
    expect(unconfirmedTokenOrigin(unbound)).toBe("https://summarizer.example");
    expect(resolveRemoteSummarizer(unbound)).toMatchObject({ ok: false });
    // Another path on the same origin, no token, or the new origin confirmed: it goes.
    expect(unconfirmedTokenOrigin({ ...CONFIG, url: "https://summarizer.example/v2/other" })).toBeUndefined();
    expect(resolveRemoteSummarizer({ ...moved, token: "" })).toEqual({ ok: true, url: moved.url });
    const confirmed = { ...moved, tokenOrigin: "https://elsewhere.example" };
    expect(await callRemoteSummarizer(confirmed, BODY, signal(), { fetch: fake.fetch, ...page })).toBe("S");
    expect(fake.requests[0]?.url).toBe(moved.url);
    expect(fake.requests[0]?.headers.authorization).toBe("Bearer remote-tok");
  });
});
