import { afterEach, describe, expect, it, vi } from "vitest";

// pouchdb-browser (imported by remote.ts) reads `self` when loaded; Node has none.
vi.hoisted(() => {
  (globalThis as { self?: unknown }).self ??= globalThis;
});

import { boundedFetch, describeServerError, passwordProblem, ServerTimeout, serverUrlProblem } from "./remote";

const DB = "http://couch.example.com:5984/grove";

describe("whether the password may go to the server", () => {
  const withPassword = { url: DB, username: "me", password: "hunter2-secret" };

  it("not in clear to a plain-http server outside this machine without the user's confirmation of that origin", () => {
    expect(passwordProblem(withPassword, DB)).toMatch(
      /^http:\/\/couch\.example\.com:5984 is plain http:\/\/ to a host outside this machine: the sync password would travel unencrypted\./,
    );
    expect(passwordProblem({ ...withPassword, plainHttpOrigin: "http://couch.example.com:5984" }, DB)).toBeUndefined();
    // A confirmation for another origin does not carry over.
    expect(passwordProblem({ ...withPassword, plainHttpOrigin: "http://other.example.com" }, DB)).toBeDefined();
  });

  it("freely over https, to this machine or the local network, and when there is no password", () => {
    expect(passwordProblem(withPassword, "https://couch.example.com/grove")).toBeUndefined();
    expect(passwordProblem(withPassword, "http://127.0.0.1:5984/grove")).toBeUndefined();
    expect(passwordProblem(withPassword, "http://nas.local:5984/grove")).toBeUndefined();
    expect(passwordProblem({ url: DB, username: "", password: "" }, DB)).toBeUndefined();
  });

  it("never in the URL, where it would be shown and quoted", () => {
    expect(serverUrlProblem("https://me:hunter2@couch.example.com/grove")).toMatch(/own fields/);
    expect(serverUrlProblem("ftp://couch.example.com")).toMatch(/https:\/\//);
    expect(serverUrlProblem("not a url")).toMatch(/not a valid address/);
    expect(serverUrlProblem("https://couch.example.com/grove")).toBeUndefined();
  });

  it("an error quoting it is redacted", () => {
    const e = Object.assign(new Error("authentication failed for me:hunter2-secret"), { status: 500 });
    const text = describeServerError(e, DB, { password: "hunter2-secret" });
    expect(text).not.toContain("hunter2-secret");
    expect(text).toContain("[redacted]");
  });
});

describe("every request to the server is bounded", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  /** A fetch that answers only when told, and fails when its signal aborts. */
  function stalledFetch() {
    const calls: Array<{ url: string; answer: (r: Response) => void }> = [];
    vi.stubGlobal(
      "fetch",
      (url: string, init: RequestInit) =>
        new Promise<Response>((resolve, reject) => {
          init.signal?.addEventListener("abort", () => reject(init.signal?.reason), { once: true });
          calls.push({ url, answer: resolve });
        }),
    );
    return calls;
  }

  it("a request with no answer fails after the timeout, in words", async () => {
    vi.useFakeTimers();
    stalledFetch();
    const f = boundedFetch(new AbortController().signal, 60_000, DB);
    const result = f(`${DB}/_bulk_docs`, { method: "POST" }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(60_000);
    const error = await result;
    expect(error).toBeInstanceOf(ServerTimeout);
    expect((error as Error).message).toBe(`The sync server at ${DB} did not answer within 60 seconds.`);
  });

  it("a stop aborts it at once; the caller's own signal too", async () => {
    stalledFetch();
    const stop = new AbortController();
    const f = boundedFetch(stop.signal, 60_000, DB);
    const pending = f(`${DB}/_all_docs`).catch((e: unknown) => e);
    stop.abort(new Error("stopped"));
    expect(await pending).toMatchObject({ message: "stopped" });
    expect(await f(`${DB}/_all_docs`).catch((e: unknown) => e)).toMatchObject({ message: "stopped" });
    const own = new AbortController();
    const fresh = boundedFetch(new AbortController().signal, 60_000, DB);
    const second = fresh(`${DB}/_all_docs`, { signal: own.signal }).catch((e: unknown) => e);
    own.abort(new Error("cancelled by PouchDB"));
    expect(await second).toMatchObject({ message: "cancelled by PouchDB" });
  });

  it("a long-poll change feed is timed only until it answers", async () => {
    vi.useFakeTimers();
    const calls = stalledFetch();
    const f = boundedFetch(new AbortController().signal, 60_000, DB);
    const feed = f(`${DB}/_changes?feed=longpoll&heartbeat=10000`);
    await vi.advanceTimersByTimeAsync(1_000);
    // Headers now; the body (heartbeats, then the changes) comes much later.
    let finish: (chunk: string) => void = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        finish = (chunk) => {
          controller.enqueue(new TextEncoder().encode(chunk));
          controller.close();
        };
      },
    });
    calls[0]?.answer(new Response(body, { status: 200 }));
    await vi.advanceTimersByTimeAsync(120_000);
    finish(`{"results":[],"last_seq":3}`);
    const response = await feed;
    expect(await response.json()).toEqual({ results: [], last_seq: 3 });
  });
});
