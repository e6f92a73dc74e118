import { describe, expect, it } from "vitest";
import { nativeMethodFor, nativeMethodOfApi } from "./native-method";
import { DEFAULT_COMPACTION_SETTINGS } from "./settings";

describe("compaction method setting", () => {
  it("defaults to Grove's summary for every provider", () => {
    expect(DEFAULT_COMPACTION_SETTINGS.methods).toEqual({});
    expect(DEFAULT_COMPACTION_SETTINGS.serverCompaction).toBe(false);
    expect(nativeMethodFor(DEFAULT_COMPACTION_SETTINGS, { id: "openai", api: "openai-responses" })).toBeNull();
  });

  it("uses the provider's own compaction only when chosen and its api has one", () => {
    const settings = { methods: { openai: "native", anthropic: "native", local: "native", x: "grove" } as const };
    expect(nativeMethodFor(settings, { id: "openai", api: "openai-responses" })).toBe("openai");
    expect(nativeMethodFor(settings, { id: "anthropic", api: "anthropic-messages" })).toBe("anthropic");
    expect(nativeMethodFor(settings, { id: "local", api: "openai-chat" })).toBeNull();
    expect(nativeMethodFor(settings, { id: "x", api: "openai-responses" })).toBeNull();
    expect(nativeMethodOfApi("openai-chat")).toBeNull();
  });
});
