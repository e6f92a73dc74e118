/**
 * The search client with a fake Worker that never answers: a search in flight when the worker dies
 * (silently: only its lifeline goes) answers with the plain message instead of "Searching…"
 * forever, and the next search starts a new worker.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeLocks, FakeWorker, fakeWorkerClass } from "../../worker-kit/testing/fake-worker";
import { WORKER_DIED } from "../../worker-kit/worker-died";

const flush = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  vi.resetModules(); // a fresh client: its worker slot is module state
  const locks = new FakeLocks();
  vi.stubGlobal("navigator", { locks });
  vi.stubGlobal("Worker", fakeWorkerClass(locks));
  FakeWorker.started.length = 0;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("a search worker that dies", () => {
  it("mid-search: the search answers `failed` with the plain message; the next search goes to a new worker", async () => {
    const { searchChats } = await import("./client");
    const answer = searchChats("ferry");
    await flush();
    const first = FakeWorker.started.at(-1);
    expect(first?.posted.length).toBeGreaterThan(0); // the query is with the worker
    first?.killSilently();
    expect(await answer).toMatchObject({ query: "ferry", results: [], failed: WORKER_DIED });
    expect(first?.terminated).toBe(true);

    void searchChats("harbor");
    await flush();
    expect(FakeWorker.started).toHaveLength(2);
    expect(FakeWorker.started[1]?.posted.length).toBeGreaterThan(0);
  });

  it("while idle: holding indexing does not start a worker, the next search does", async () => {
    const { holdIndexing, searchChats, startChatSearch } = await import("./client");
    startChatSearch();
    await flush();
    FakeWorker.started[0]?.killSilently();
    await flush();
    holdIndexing(true);
    expect(FakeWorker.started).toHaveLength(1);
    void searchChats("ember");
    await flush();
    expect(FakeWorker.started).toHaveLength(2);
  });
});
