import { describe, expect, it } from "vitest";
import { COMPACTION_SUMMARY_CONTEXT } from "../prompts";
import { a, compaction, linkPath, u } from "../testing/entries";
import { buildContext } from "./build-context";
import { contextBlockText } from "./context";
import type { CompactionEntry } from "./entries";
import { NATIVE_FLOOR_INTRO, nativePrefixFor } from "./native-compaction";

const SUMMARY = "GROVE DIGEST\n\n<verbatim_tail>\nNext I will paint the fence.\n</verbatim_tail>";
const ITEMS = [
  { type: "message", role: "user", content: [{ type: "input_text", text: "My cat is Miso." }] },
  { type: "compaction", id: "cmp_1", encrypted_content: "OPAQUE==" },
];
const BLOCK = { type: "compaction", content: "Claude's summary.", encrypted_content: "ENC", signature: "SIG" } as const;

function pathWith(extra: Partial<CompactionEntry>) {
  return linkPath([
    u("u1", "My cat is Miso."),
    a("a1", "Nice."),
    u("u2", "Tell me more"),
    a("a2", "Sure."),
    { ...compaction("c1", { summary: SUMMARY, firstKept: "u2", kept: ["u1"] }), ...extra },
    u("u3", "And now?"),
  ]);
}

const openaiNative: Partial<CompactionEntry> = {
  compactedBy: "openai",
  preserveData: {
    openaiRemoteCompaction: { api: "openai-responses", provider: "openai", model: "gpt-5", items: ITEMS },
  },
};
const anthropicNative: Partial<CompactionEntry> = {
  compactedBy: "anthropic",
  preserveData: {
    anthropicCompaction: { api: "anthropic-messages", provider: "anthropic", model: "claude-x", block: BLOCK },
  },
};

const allText = (ctx: ReturnType<typeof buildContext>) =>
  ctx.messages.flatMap((m) => m.content.map(contextBlockText)).join("\n");

describe("buildContext with a provider-native compaction", () => {
  it("sends the native items verbatim to the provider that made them, then the floor (kept turns + tail)", () => {
    const ctx = buildContext(pathWith(openaiNative), {
      systemPrompt: "",
      targetApi: "openai-responses",
      targetProviderId: "openai",
    });
    expect(ctx.native).toEqual({ kind: "openai", items: ITEMS });
    expect(ctx.native?.kind === "openai" && ctx.native.items[1]).toBe(ITEMS[1]);
    const first = ctx.messages[0];
    expect(first?.role).toBe("user");
    const floor = first?.content.map(contextBlockText).join("\n") ?? "";
    expect(floor.startsWith(NATIVE_FLOOR_INTRO)).toBe(true);
    expect(floor).toContain("<user_message>\nMy cat is Miso.\n</user_message>");
    expect(floor).toContain("<verbatim_tail>\nNext I will paint the fence.\n</verbatim_tail>");
    // Grove's digest is not sent to the provider that has its own summary.
    expect(allText(ctx)).not.toContain("GROVE DIGEST");
    // The kept region follows.
    expect(allText(ctx)).toContain("Tell me more");
    expect(allText(ctx)).toContain("And now?");
  });

  it("sends Grove's summary, and no native item, to any other provider", () => {
    for (const opts of [
      { systemPrompt: "", targetApi: "anthropic-messages" as const, targetProviderId: "anthropic" },
      { systemPrompt: "", targetApi: "openai-responses" as const, targetProviderId: "other-openai-account" },
      { systemPrompt: "", targetApi: "openai-responses" as const },
    ]) {
      const ctx = buildContext(pathWith(openaiNative), opts);
      expect(ctx.native).toBeUndefined();
      expect(allText(ctx)).toContain("GROVE DIGEST");
      expect(allText(ctx)).toContain("My cat is Miso.");
      expect(allText(ctx)).not.toContain("OPAQUE");
      expect(COMPACTION_SUMMARY_CONTEXT.length).toBeGreaterThan(0);
    }
  });

  it("sends Claude's compaction block to the same Anthropic provider only", () => {
    const same = buildContext(pathWith(anthropicNative), {
      systemPrompt: "",
      targetApi: "anthropic-messages",
      targetProviderId: "anthropic",
    });
    expect(same.native).toEqual({ kind: "anthropic", block: BLOCK });
    expect(allText(same)).not.toContain("GROVE DIGEST");
    expect(allText(same)).toContain("My cat is Miso.");
    const other = buildContext(pathWith(anthropicNative), {
      systemPrompt: "",
      targetApi: "openai-responses",
      targetProviderId: "openai",
    });
    expect(other.native).toBeUndefined();
    expect(allText(other)).toContain("GROVE DIGEST");
  });

  it("a fallback entry (native failed) sends Grove's summary even to that provider", () => {
    const ctx = buildContext(pathWith({ compactedBy: "grove", nativeFallback: "HTTP 500" }), {
      systemPrompt: "",
      targetApi: "openai-responses",
      targetProviderId: "openai",
    });
    expect(ctx.native).toBeUndefined();
    expect(allText(ctx)).toContain("GROVE DIGEST");
  });

  it("material recorded under one method is not sent as another", () => {
    const c = { ...compaction("c", { summary: "S", firstKept: null }), ...openaiNative, compactedBy: "grove" as const };
    expect(nativePrefixFor(c as CompactionEntry, "openai-responses", "openai")).toBeNull();
  });
});
