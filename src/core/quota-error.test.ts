import { describe, expect, it } from "vitest";
import { isQuotaError, STORAGE_FULL_MESSAGE } from "./quota-error";
import { errorText } from "./session/message-error";

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

describe("a storage-full error in words (issue 30.7: the browser's raw text was shown)", () => {
  it("is the plain sentence wherever it is turned into text, wrapped or not", () => {
    const raw = new DOMException("The quota has been exceeded.", "QuotaExceededError");
    expect(errorText(raw)).toBe(STORAGE_FULL_MESSAGE);
    expect(
      errorText({ name: "AbortError", message: "QuotaExceededError: The quota has been exceeded.", inner: raw }),
    ).toBe(STORAGE_FULL_MESSAGE);
    expect(errorText(new Error("disk on fire"))).toBe("disk on fire");
  });
});
