import { describe, expect, it } from "vitest";
import { REDACTED, redactError, redactSecrets } from "./redact";

describe("redactSecrets", () => {
  it.each([
    [
      "Anthropic key quoted by a proxy",
      "invalid x-api-key: sk-ant-api03-AbCdEf_123-xyz",
      "invalid x-api-key: [redacted]",
    ],
    [
      "OpenRouter key",
      "No auth credentials found for sk-or-v1-0123456789abcdef",
      "No auth credentials found for [redacted]",
    ],
    [
      "OpenAI project key",
      "Incorrect API key provided: sk-proj-AAAA1111BBBB.",
      "Incorrect API key provided: [redacted]",
    ],
    [
      "OpenAI's own masked echo",
      "Incorrect API key provided: sk-abc1*********wxyz.",
      "Incorrect API key provided: [redacted]",
    ],
    [
      "a bearer token of any shape",
      "Authorization: Bearer eyJhbGciOi.J9.abc failed",
      "Authorization: Bearer [redacted] failed",
    ],
    ["api_key=…", "bad request: api_key=abcdef123456&model=x", "bad request: api_key=[redacted]&model=x"],
    ["Groq key", "invalid gsk_abcdefghijklmnop1234", "invalid [redacted]"],
    ["Google key", "API key AIzaSyA-1234567890abcdefghijk not valid", "API key [redacted] not valid"],
  ])("%s", (_name, text, expected) => {
    expect(redactSecrets(text)).toBe(expected);
  });

  it("removes a configured key that does not look like a key, wherever it appears", () => {
    expect(redactSecrets("key 'hunter2-local' rejected; hunter2-local is not valid", ["hunter2-local"])).toBe(
      `key '${REDACTED}' rejected; ${REDACTED} is not valid`,
    );
  });

  it("leaves ordinary provider words alone, and ignores tiny or empty keys", () => {
    const text = "The model 'gpt-4o' is overloaded (task-queue sk- limit). Please try again.";
    expect(redactSecrets(text, ["", "  ", "gpt"])).toBe(text);
  });
});

describe("redactError", () => {
  it("returns the same error when nothing is secret, a copy otherwise", () => {
    const clean = { kind: "auth" as const, message: "The API key was rejected (401)." };
    expect(redactError(clean, ["sk-ant-zzzzzzzz"])).toBe(clean);
    const leaky = { kind: "auth" as const, message: "Provider said: invalid key my-own-secret", status: 401 };
    expect(redactError(leaky, ["my-own-secret"])).toEqual({
      kind: "auth",
      message: "Provider said: invalid key [redacted]",
      status: 401,
    });
  });
});
