import { afterEach, describe, expect, it, vi } from "vitest";
import { isQuotaError, requestPersistentStorage, storageEstimate } from "./storage";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("isQuotaError", () => {
  const quota = new DOMException("The quota has been exceeded.", "QuotaExceededError");

  it("recognizes the native error, and Dexie's wrappings of it", () => {
    expect(isQuotaError(quota)).toBe(true);
    // An aborted transaction: AbortError with the cause as `inner`.
    expect(isQuotaError({ name: "AbortError", message: "aborted", inner: quota })).toBe(true);
    // A bulk write: BulkError listing per-row failures.
    expect(isQuotaError({ name: "BulkError", failures: [new Error("x"), quota] })).toBe(true);
    expect(isQuotaError(new DOMException("full", "NS_ERROR_DOM_QUOTA_REACHED"))).toBe(true);
  });

  it("is false for anything else", () => {
    expect(isQuotaError(new DOMException("nope", "ConstraintError"))).toBe(false);
    expect(isQuotaError({ name: "AbortError", inner: new Error("other") })).toBe(false);
    expect(isQuotaError(null)).toBe(false);
    expect(isQuotaError("QuotaExceededError")).toBe(false);
    const cyclic: { name: string; inner?: unknown } = { name: "AbortError" };
    cyclic.inner = cyclic;
    expect(isQuotaError(cyclic)).toBe(false);
  });
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
