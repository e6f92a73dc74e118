import { describe, expect, it } from "vitest";
import { chatParamsFrom, effectiveParams } from "./chat-params";

const DEFAULTS = { maxOutputTokens: 64_000, thinking: { kind: "off" } as const };

describe("effectiveParams", () => {
  it("the model's defaults when the chat sets nothing", () => {
    expect(effectiveParams(undefined, DEFAULTS)).toEqual({ maxOutputTokens: 64_000, thinking: { kind: "off" } });
  });

  it("the chat's choices win, within the model's output limit and 0–2", () => {
    expect(
      effectiveParams(
        { temperature: 3, maxOutputTokens: 100_000, thinking: { kind: "openai-effort", effort: "low" } },
        DEFAULTS,
      ),
    ).toEqual({ temperature: 2, maxOutputTokens: 64_000, thinking: { kind: "openai-effort", effort: "low" } });
    expect(effectiveParams({ maxOutputTokens: 500 }, DEFAULTS).maxOutputTokens).toBe(500);
  });
});

describe("chatParamsFrom", () => {
  it("keeps valid fields and drops the rest", () => {
    expect(chatParamsFrom({ temperature: 0.5, maxOutputTokens: -3, thinking: "x" })).toEqual({ temperature: 0.5 });
    expect(chatParamsFrom(null)).toBeUndefined();
    expect(chatParamsFrom({})).toBeUndefined();
  });
});
