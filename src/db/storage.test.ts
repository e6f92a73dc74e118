import { afterEach, describe, expect, it, vi } from "vitest";
import { requestPersistentStorage, storageEstimate } from "./storage";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("persistence and estimates", () => {
  it("asks for persistence only when not yet persistent", async () => {
    const persist = vi.fn(async () => true);
    vi.stubGlobal("navigator", { storage: { persisted: async () => false, persist } });
    expect(await requestPersistentStorage()).toBe(true);
    expect(persist).toHaveBeenCalledOnce();

    vi.stubGlobal("navigator", { storage: { persisted: async () => true, persist } });
    expect(await requestPersistentStorage()).toBe(true);
    expect(persist).toHaveBeenCalledOnce();
  });

  it("reports unsupported as false / null", async () => {
    vi.stubGlobal("navigator", {});
    expect(await requestPersistentStorage()).toBe(false);
    expect(await storageEstimate()).toBeNull();
  });

  it("returns usage and quota", async () => {
    vi.stubGlobal("navigator", { storage: { estimate: async () => ({ usage: 10, quota: 100 }) } });
    expect(await storageEstimate()).toEqual({ usage: 10, quota: 100 });
  });
});
