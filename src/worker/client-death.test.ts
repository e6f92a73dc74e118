/**
 * The client with a fake Worker that never answers: a worker that dies — silently (terminate(),
 * a crash: only its lifeline lock goes), with an error event, or with an unreadable reply — fails
 * the call in flight with a plain message, and the next call starts a new worker.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeLocks, FakeWorker, fakeWorkerClass } from "../worker-kit/testing/fake-worker";
import { isWorkerDied, WORKER_DIED } from "../worker-kit/worker-died";
import { compactInWorker, getWorker, terminateWorker } from "./client";

const flush = () => new Promise((r) => setTimeout(r, 0));
let locks: FakeLocks;

beforeEach(() => {
  locks = new FakeLocks();
  vi.stubGlobal("navigator", { locks });
  vi.stubGlobal("Worker", fakeWorkerClass(locks));
  FakeWorker.started.length = 0;
});

afterEach(() => {
  terminateWorker();
  vi.unstubAllGlobals();
});

const lastWorker = (): FakeWorker => {
  const w = FakeWorker.started.at(-1);
  if (!w) throw new Error("no worker started");
  return w;
};

/** Settles `p` into a value to assert on, or "pending" if it has not settled by now. */
async function state<T>(p: Promise<T>): Promise<T | { rejected: unknown } | "pending"> {
  let out: T | { rejected: unknown } | "pending" = "pending";
  p.then(
    (v) => {
      out = v;
    },
    (e: unknown) => {
      out = { rejected: e };
    },
  );
  await flush();
  await flush();
  return out;
}

describe("a dead compaction worker fails the call and is replaced", () => {
  it("killed silently mid-compaction: the compaction rejects with WORKER_DIED; the next call uses a new worker", async () => {
    const job = compactInWorker({} as never);
    await flush();
    expect(await state(job)).toBe("pending"); // alive and busy: no deadline, no false alarm
    lastWorker().killSilently();
    const out = await state(job);
    expect(out).toMatchObject({ rejected: { kind: "unknown", message: WORKER_DIED } });
    expect(isWorkerDied((out as { rejected: unknown }).rejected)).toBe(true);
    expect(lastWorker().terminated).toBe(true);

    const before = FakeWorker.started.length;
    const count = getWorker().countTexts("o200k_base", ["hi"]);
    await flush();
    expect(FakeWorker.started.length).toBe(before + 1);
    expect(await state(count)).toBe("pending"); // the new worker got the call
    expect(lastWorker().posted.length).toBeGreaterThan(0);
  });

  it("killed silently while idle: the next call starts a new worker instead of waiting forever", async () => {
    getWorker();
    await flush();
    const first = lastWorker();
    first.killSilently();
    await flush();
    const call = getWorker().countTexts("o200k_base", ["hi"]);
    await flush();
    expect(lastWorker()).not.toBe(first);
    expect(lastWorker().posted.length).toBeGreaterThan(0);
    expect(first.posted.length).toBe(0);
    expect(await state(call)).toBe("pending");
  });

  it.each([
    ["error", { message: "boom" }, /The background worker stopped: boom/],
    ["messageerror", {}, /stopped unexpectedly/],
  ])("an %s event fails the call in flight", async (type, event, message) => {
    const call = getWorker().countTexts("o200k_base", ["hi"]);
    await flush();
    lastWorker().emit(type, event);
    const out = await state(call);
    expect(out).toMatchObject({ rejected: { kind: "unknown", message: expect.stringMatching(message) } });
    expect(lastWorker().terminated).toBe(true);
  });

  it("terminateWorker() on purpose is not reported as a death", async () => {
    const call = getWorker().countTexts("o200k_base", ["hi"]);
    await flush();
    terminateWorker();
    expect(await state(call)).toEqual({ rejected: { kind: "aborted", message: "The background worker was stopped." } });
  });
});
