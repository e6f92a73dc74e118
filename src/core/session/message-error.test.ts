import { describe, expect, it } from "vitest";
import { errorText, FAILURE_FALLBACK, isAbortedError, isMessageError } from "./message-error";

describe("isMessageError: the one guard for the error shape after the provider boundary", () => {
  it("accepts a known kind with a string message, extra fields allowed", () => {
    expect(isMessageError({ kind: "rate_limit", message: "Slow down." })).toBe(true);
    expect(isMessageError({ kind: "unknown", message: "", worker: "search", death: "lifeline" })).toBe(true);
  });

  it("refuses anything else: no kind, an unknown kind, no message, an Error, a string", () => {
    expect(isMessageError({ message: "x" })).toBe(false);
    expect(isMessageError({ kind: "teapot", message: "x" })).toBe(false);
    expect(isMessageError({ kind: "auth" })).toBe(false);
    expect(isMessageError(Object.assign(new Error("x"), { name: "AbortError" }))).toBe(false);
    expect(isMessageError("auth")).toBe(false);
    expect(isMessageError(null)).toBe(false);
  });

  it("isAbortedError: a MessageError of kind aborted, never an Error by its name", () => {
    expect(isAbortedError({ kind: "aborted", message: "Stopped." })).toBe(true);
    expect(isAbortedError({ kind: "network", message: "x" })).toBe(false);
    expect(isAbortedError(Object.assign(new Error("x"), { name: "AbortError" }))).toBe(false);
  });
});

describe("errorText: any thrown value in words", () => {
  it("an Error's message (its name when it has none)", () => {
    expect(errorText(new Error("disk full"))).toBe("disk full");
    expect(errorText(new TypeError(""))).toBe("TypeError");
  });

  it("a MessageError's message, else its kind's fallback", () => {
    expect(errorText({ kind: "quota", message: "Out of credit on org x." })).toBe("Out of credit on org x.");
    expect(errorText({ kind: "quota", message: "  " })).toBe(FAILURE_FALLBACK.quota);
  });

  it("a string, a plain object's message (PouchDB throws those), anything else as a string", () => {
    expect(errorText("nope")).toBe("nope");
    expect(errorText({ status: 409, name: "conflict", message: "Document update conflict" })).toBe(
      "Document update conflict",
    );
    expect(errorText(42)).toBe("42");
    expect(errorText(undefined)).toBe("undefined");
  });
});
