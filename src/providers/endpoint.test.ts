import { describe, expect, it } from "vitest";
import { baseUrlProblem, isLocalHostname, plainHttpOrigin, resolveEndpoint } from "./endpoint";
import { testProvider } from "./testing/requests";

const custom = (baseUrl: string, patch = {}) =>
  testProvider("openai-chat", { id: "custom-1", name: "Local Llama", builtIn: false, baseUrl, ...patch });

describe("isLocalHostname / plainHttpOrigin", () => {
  it.each(["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "[::1]", "::1", "nas.local", "app.localhost"])(
    "%s is local",
    (h) => expect(isLocalHostname(h)).toBe(true),
  );
  it.each(["example.com", "192.168.1.10", "127.0.0.1.example.com", "localhost.evil.com", "10.0.0.2"])(
    "%s is not",
    (h) => expect(isLocalHostname(h)).toBe(false),
  );
  it("flags only plain http to a non-local host", () => {
    expect(plainHttpOrigin("http://192.168.1.10:11434/v1")).toBe("http://192.168.1.10:11434");
    expect(plainHttpOrigin("http://proxy.example.com/v1")).toBe("http://proxy.example.com");
    expect(plainHttpOrigin("https://proxy.example.com/v1")).toBeUndefined();
    expect(plainHttpOrigin("http://localhost:11434/v1")).toBeUndefined();
    expect(plainHttpOrigin("http://127.0.0.1:8080")).toBeUndefined();
    expect(plainHttpOrigin("not a url")).toBeUndefined();
  });
});

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
