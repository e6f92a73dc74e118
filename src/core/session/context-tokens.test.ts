import { describe, expect, it } from "vitest";
import { a, linkPath, text, thinking, u } from "../testing/entries";
import { buildContext } from "./build-context";
import { contextBlockText } from "./context";
import { contextTokens, countContextTokens, MESSAGE_OVERHEAD_TOKENS } from "./context-tokens";

/** One token per character: makes the arithmetic visible. */
const chars = (s: string) => s.length;

describe("contextTokens", () => {
  it("counts the system prompt and every block of what buildContext returns, plus overhead per message", () => {
    const sig = thinking("abc", { signature: "opaque-signature", signedBy: "anthropic-messages" });
    const path = linkPath([u("u1", "12345"), a("a1", [sig, text("123")]), u("u2", "1")]);
    const opts = { systemPrompt: "sys", targetApi: "anthropic-messages" as const };
    // system 3, messages 5 + (3 + 3) + 1; four messages counting the system prompt; signature not counted
    expect(contextTokens(path, opts, chars)).toBe(3 + 5 + 6 + 1 + 4 * MESSAGE_OVERHEAD_TOKENS);
    expect(contextTokens(path, opts, chars)).toBe(countContextTokens(buildContext(path, opts), chars));
  });

  it("counts merged and dropped content the way it is sent", () => {
    const path = linkPath([
      u("u1", "ab"),
      u("u2", "cd"),
      a("a1", [thinking("foreign", { signedBy: "openai-chat" }), text("x")]),
    ]);
    const opts = { systemPrompt: "", targetApi: "anthropic-messages" as const };
    const built = buildContext(path, opts);
    expect(built.messages).toHaveLength(2);
    const first = built.messages[0]?.content[0];
    const merged = first ? contextBlockText(first) : "";
    expect(contextTokens(path, opts, chars)).toBe(merged.length + 1 + 2 * MESSAGE_OVERHEAD_TOKENS);
  });

  it("is zero for an empty path with no system prompt", () => {
    expect(contextTokens([], { systemPrompt: "", targetApi: "openai-chat" }, chars)).toBe(0);
  });
});
