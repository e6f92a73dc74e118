import { afterEach, describe, expect, it, vi } from "vitest";
import { classifyError } from "./classify-error";
import { OFFLINE_MESSAGE } from "./offline";

afterEach(() => vi.unstubAllGlobals());

describe("a send while the browser is offline", () => {
  it("says plainly that the provider is unreachable", () => {
    vi.stubGlobal("navigator", { onLine: false });
    const error = classifyError(new TypeError("Failed to fetch"), "anthropic-messages");
    expect(error.kind).toBe("network");
    expect(error.message).toContain(OFFLINE_MESSAGE);
  });

  it("online, a network failure keeps its usual advice", () => {
    vi.stubGlobal("navigator", { onLine: true });
    const error = classifyError(new TypeError("Failed to fetch"), "anthropic-messages");
    expect(error.message).not.toContain("offline");
    expect(error.message).toMatch(/Couldn't reach the provider/);
  });
});
