/**
 * The worker kit's one death policy, with workers that answer (comlink over a MessageChannel) or
 * never do (FakeWorker), and an in-memory Web Locks manager: a worker that dies — silently (only
 * its lifeline lock goes), by an `error` or a `messageerror` event — fails every call it had not
 * answered, and every later one, with one WorkerDied; a slot starts a new worker on next use;
 * `dispose()` is a stop, not a death.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { spawnWorker, type WorkerSpec } from "./spawn-worker";
import { killHookName, TEST_HOOKS_FLAG } from "./test-hooks";
import { channelWorkers, FakeLocks, FakeWorker, fakeWorkerClass } from "./testing/fake-worker";
import { isWorkerDied, WORKER_DIED, workerDied, workerStopped } from "./worker-died";
import { workerSlot } from "./worker-slot";

type EchoApi = { echo(text: string): Promise<string>; park(): Promise<never> };

const flush = () => new Promise((r) => setTimeout(r, 0));

/** Settles `p` into a value to assert on, or "pending" if it has not settled by now. */
async function settled<T>(p: Promise<T>): Promise<{ value: T } | { rejected: unknown } | "pending"> {
  let out: { value: T } | { rejected: unknown } | "pending" = "pending";
  p.then(
    (value) => {
      out = { value };
    },
    (rejected: unknown) => {
      out = { rejected };
    },
  );
  for (let i = 0; i < 5; i++) await flush();
  return out;
}

const echo = (): EchoApi => ({
  echo: async (text) => `echo: ${text}`,
  park: () => new Promise<never>(() => {}),
});

let locks: FakeLocks;

beforeEach(() => {
  locks = new FakeLocks();
  vi.stubGlobal("navigator", { locks });
  // A Worker exists (the module-worker path); the spec's `start` makes the fake ones.
  vi.stubGlobal("Worker", fakeWorkerClass(locks));
  FakeWorker.started.length = 0;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function answering(): { spec: WorkerSpec<EchoApi>; workers: Array<{ name: string; terminated: boolean }> } {
  const { start, workers } = channelWorkers(locks, echo);
  return { spec: { kind: "search", start, inProcess: undefined }, workers };
}

describe("spawnWorker: one worker and its death", () => {
  it("answers calls while it lives, however long a call takes (no deadline)", async () => {
    const { spec } = answering();
    const w = spawnWorker(spec);
    expect(await w.api.echo("hi")).toBe("echo: hi");
    const parked = w.api.park();
    expect(await settled(parked)).toBe("pending");
    expect(w.isRunning()).toBe(true);
    w.dispose();
  });

  it("killed silently (only its lifeline goes): the call in flight and later calls fail with one WorkerDied", async () => {
    const { spec, workers } = answering();
    const w = spawnWorker(spec);
    await w.api.echo("alive"); // the lifeline is held and watched by now
    const parked = w.api.park();
    const name = workers[0]?.name ?? "";
    expect(name).toMatch(/^grove-lifeline:search:/);
    locks.kill(name);
    const failure = workerDied("search", "lifeline");
    expect(await settled(parked)).toEqual({ rejected: failure });
    expect(await w.died).toEqual(failure);
    expect(failure.message).toBe(WORKER_DIED);
    expect(isWorkerDied(failure)).toBe(true);
    expect(workers[0]?.terminated).toBe(true);
    expect(w.isRunning()).toBe(false);
    await expect(w.api.echo("after")).rejects.toEqual(failure);
  });

  it("an error event: the calls fail with the event's message, the worker is terminated", async () => {
    const w = spawnWorker<EchoApi>({
      kind: "compaction",
      start: (name) => new Worker("x", { name }),
      inProcess: undefined,
    });
    const call = w.api.echo("hi");
    await flush();
    const fake = FakeWorker.started.at(-1);
    fake?.emit("error", { message: "boom" });
    const failure = workerDied("compaction", "error", "boom");
    expect(failure.message).toBe("The background worker stopped: boom.");
    expect(await settled(call)).toEqual({ rejected: failure });
    expect(await w.died).toEqual(failure);
    expect(fake?.terminated).toBe(true);
  });

  it("a messageerror (a reply that cannot be read): the calls fail with the plain message", async () => {
    const w = spawnWorker<EchoApi>({ kind: "sync", start: (name) => new Worker("x", { name }), inProcess: undefined });
    const call = w.api.echo("hi");
    await flush();
    FakeWorker.started.at(-1)?.emit("messageerror", {});
    expect(await settled(call)).toEqual({ rejected: workerDied("sync", "messageerror") });
    expect((await w.died).message).toBe(WORKER_DIED);
  });

  it("a call after the death is not sent to the dead worker", async () => {
    const w = spawnWorker<EchoApi>({
      kind: "transfer",
      start: (name) => new Worker("x", { name }),
      inProcess: undefined,
    });
    await flush();
    const fake = FakeWorker.started.at(-1);
    fake?.killSilently();
    await flush();
    await expect(w.api.echo("late")).rejects.toMatchObject({ kind: "unknown", worker: "transfer", death: "lifeline" });
    expect(fake?.posted).toEqual([]);
  });

  it("dispose(): a stop, not a death — pending calls reject with workerStopped(), `died` stays pending, the lock is not watched", async () => {
    const { spec, workers } = answering();
    const w = spawnWorker(spec);
    await w.api.echo("alive");
    const parked = w.api.park();
    w.dispose();
    expect(await settled(parked)).toEqual({ rejected: workerStopped() });
    expect(workers[0]?.terminated).toBe(true);
    expect(await settled(w.died)).toBe("pending");
    await expect(w.api.echo("after")).rejects.toEqual(workerStopped());
  });
});

describe("workerSlot: restarted on next use", () => {
  it("keeps one worker while it lives, starts a new one after it died, and running() never starts one", async () => {
    const { spec, workers } = answering();
    const slot = workerSlot(spec);
    expect(slot.running()).toBeNull();
    const first = slot.get();
    expect(slot.get()).toBe(first);
    expect(await first.api.echo("one")).toBe("echo: one");

    const parked = first.api.park();
    locks.kill(workers[0]?.name ?? "");
    expect(await settled(parked)).toMatchObject({ rejected: { message: WORKER_DIED } });
    expect(slot.running()).toBeNull();
    expect(workers).toHaveLength(1);

    const second = slot.get();
    expect(second).not.toBe(first);
    expect(await second.api.echo("two")).toBe("echo: two");
    expect(workers).toHaveLength(2);
    slot.dispose();
    expect(workers[1]?.terminated).toBe(true);
    expect(slot.running()).toBeNull();
  });
});

describe("in-process (no Worker: vitest, Node)", () => {
  it("runs the implementation itself; dispose() stops its calls", async () => {
    vi.stubGlobal("Worker", undefined);
    const w = spawnWorker<EchoApi>({
      kind: "search",
      start: () => {
        throw new Error("no worker here");
      },
      inProcess: async () => echo(),
    });
    expect(await w.api.echo("here")).toBe("echo: here");
    w.dispose();
    await expect(w.api.echo("after")).rejects.toEqual(workerStopped());
  });

  it("without an in-process implementation (a production build) it says workers are missing", () => {
    vi.stubGlobal("Worker", undefined);
    expect(() => spawnWorker<EchoApi>({ kind: "search", start: () => ({}) as Worker, inProcess: undefined })).toThrow(
      "Web Workers are not available in this browser.",
    );
  });
});

describe("the e2e kill hook", () => {
  it("with the test-hooks flag, window.groveKill<Kind>Worker() ends the latest worker as a crash would", async () => {
    const storage = new Map([[TEST_HOOKS_FLAG, "1"]]);
    vi.stubGlobal("localStorage", { getItem: (k: string) => storage.get(k) ?? null });
    const { spec } = answering();
    const w = spawnWorker({ ...spec, kind: "sync" });
    await w.api.echo("alive");
    const kill = (globalThis as Record<string, unknown>)[killHookName("sync")];
    expect(killHookName("sync")).toBe("groveKillSyncWorker");
    expect(typeof kill).toBe("function");
    (kill as () => void)();
    expect((await w.died).death).toBe("lifeline");
    delete (globalThis as Record<string, unknown>)[killHookName("sync")];
  });

  it("without the flag there is no hook", () => {
    vi.stubGlobal("localStorage", { getItem: () => null });
    spawnWorker<EchoApi>({ kind: "compaction", start: (name) => new Worker("x", { name }), inProcess: undefined });
    expect((globalThis as Record<string, unknown>)[killHookName("compaction")]).toBeUndefined();
  });
});
