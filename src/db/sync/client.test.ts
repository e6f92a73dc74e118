/**
 * The sync client with a fake Worker that never answers: when the sync worker dies (silently: only
 * its lifeline goes) the status says so with the plain message, a call in flight fails with the
 * worker kit's WorkerDied, and the next action starts a new worker and initializes it again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeLocks, FakeWorker, fakeWorkerClass } from "../../worker-kit/testing/fake-worker";
import { isWorkerDied, WORKER_DIED } from "../../worker-kit/worker-died";
import type { SyncStatus } from "./sync-status";

const flush = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  vi.resetModules(); // a fresh client: its worker is module state
  const locks = new FakeLocks();
  vi.stubGlobal("navigator", { locks });
  vi.stubGlobal("Worker", fakeWorkerClass(locks));
  FakeWorker.started.length = 0;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("a sync worker that dies", () => {
  it("fails the call in flight, says so in the status, and the next action starts and initializes a new worker", async () => {
    const { connectSync, syncNow } = await import("./client");
    const statuses: SyncStatus[] = [];
    const events = { status: (s: SyncStatus) => statuses.push(s), leafConflicts: () => {} };
    const connecting = connectSync(events, { url: "http://couch.test/grove", username: "", password: "" }, "pass");
    connecting.catch(() => {});
    for (let i = 0; i < 3; i++) await flush();
    const first = FakeWorker.started[0];
    expect(first?.posted.length).toBeGreaterThan(0); // init is with the worker
    first?.killSilently();
    const error = await connecting.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isWorkerDied(error)).toBe(true);
    await flush();
    expect(statuses.at(-1)).toEqual({ kind: "error", message: WORKER_DIED });

    void syncNow(events).catch(() => {});
    for (let i = 0; i < 3; i++) await flush();
    expect(FakeWorker.started).toHaveLength(2);
    expect(FakeWorker.started[1]?.posted.length).toBeGreaterThan(0); // a new init
  });
});
