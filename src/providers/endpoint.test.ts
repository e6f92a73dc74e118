import { describe, expect, it } from "vitest";
import { baseUrlProblem, resolveEndpoint } from "./endpoint";
import { testProvider } from "./testing/requests";

const custom = (baseUrl: string, patch = {}) =>
  testProvider("openai-chat", { id: "custom-1", name: "Local Llama", builtIn: false, baseUrl, ...patch });

describe("resolveEndpoint", () => {
  it("a built-in provider without a base URL uses its official host", () => {
    expect(resolveEndpoint(testProvider("anthropic-messages", { baseUrl: "" }))).toEqual({
      ok: true,
      baseUrl: "https://api.anthropic.com",
    });
    expect(resolveEndpoint(testProvider("openai-chat", { baseUrl: " " }))).toEqual({
      ok: true,
      baseUrl: "https://api.openai.com/v1",
    });
  });

  it("a custom provider without a base URL sends nothing (no fallback to an official host)", () => {
    for (const api of ["openai-chat", "anthropic-messages"] as const) {
      const r = resolveEndpoint(testProvider(api, { id: "custom-2", name: "Mine", builtIn: false, baseUrl: "" }));
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.kind).toBe("invalid_request");
        expect(r.error.message).toMatch(/Mine needs a base URL/);
      }
    }
  });

  it("refuses a non-http(s) address", () => {
    expect(resolveEndpoint(custom("ftp://example.com")).ok).toBe(false);
    expect(baseUrlProblem({ builtIn: true, name: "OpenAI" }, "javascript:alert(1)")).toMatch(
      /not an http\(s\) address/,
    );
  });

  it("plain http to a non-local host needs that origin confirmed; local hosts and https do not", () => {
    const lan = custom("http://192.168.1.10:11434/v1");
    const refused = resolveEndpoint(lan);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/unencrypted.*Confirm it in Settings/);
    expect(resolveEndpoint({ ...lan, plainHttpOrigin: "http://192.168.1.10:11434" })).toEqual({
      ok: true,
      baseUrl: "http://192.168.1.10:11434/v1",
    });
    // A confirmation is for one origin, not for plain http in general.
    expect(resolveEndpoint({ ...lan, plainHttpOrigin: "http://192.168.1.11:11434" }).ok).toBe(false);
    expect(resolveEndpoint(custom("http://localhost:11434/v1")).ok).toBe(true);
    expect(resolveEndpoint(custom("https://openrouter.ai/api/v1")).ok).toBe(true);
  });
});
