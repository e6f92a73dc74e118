/**
 * The transfer client with a fake Worker that never answers: an import whose worker dies silently
 * (terminate(), a crash) or with an error event ends with a plain error instead of waiting forever.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeLocks, FakeWorker, fakeWorkerClass } from "../../worker-kit/testing/fake-worker";
import { WORKER_DIED } from "../../worker-kit/worker-died";
import { exportInWorker, startImport } from "./client";

const flush = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  const locks = new FakeLocks();
  vi.stubGlobal("navigator", { locks });
  vi.stubGlobal("Worker", fakeWorkerClass(locks));
  FakeWorker.started.length = 0;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const lastWorker = (): FakeWorker => {
  const w = FakeWorker.started.at(-1);
  if (!w) throw new Error("no worker started");
  return w;
};

describe("a transfer worker that dies mid-import", () => {
  it("killed silently while analyzing: the import resolves as an error saying nothing was imported", async () => {
    const handle = startImport();
    const analysis = handle.analyze(new Blob(["{}"]), "x.json", () => {});
    await flush();
    lastWorker().killSilently();
    await expect(analysis).resolves.toEqual({ kind: "error", message: WORKER_DIED });
    expect(lastWorker().terminated).toBe(true);
    handle.dispose();
  });

  it("killed silently while committing: the commit resolves as an error", async () => {
    const handle = startImport();
    const outcome = handle.commit("skip", () => {});
    await flush();
    lastWorker().killSilently();
    await expect(outcome).resolves.toEqual({ kind: "error", message: WORKER_DIED });
  });

  it("an error event ends an export with the worker's message", async () => {
    const outcome = exportInWorker({} as never);
    await flush();
    lastWorker().emit("error", { message: "out of memory" });
    await expect(outcome).resolves.toEqual({ kind: "error", message: "The background worker stopped: out of memory." });
  });

  it("disposed on purpose: no death reported, the worker is ended", async () => {
    const handle = startImport();
    await flush();
    handle.dispose();
    expect(lastWorker().terminated).toBe(true);
  });
});
