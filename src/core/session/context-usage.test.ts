import { describe, expect, it } from "vitest";
import { a, branchSummary, compaction, linkPath, u } from "../testing/entries";
import { contextTokens } from "./context-tokens";
import { contextUsage, lastReportedUsage } from "./context-usage";

const chars = (s: string) => s.length;
const OPTS = { systemPrompt: "sys", targetApi: "anthropic-messages" as const };
const usage = { input: 1000, output: 200 };

describe("contextUsage", () => {
  it("estimates the whole context when no reply reported usage", () => {
    const path = linkPath([u("u1", "hello"), a("a1", "hi")]);
    expect(contextUsage(path, OPTS, chars)).toEqual({ tokens: contextTokens(path, OPTS, chars), source: "estimate" });
  });

  it("anchors on the newest reported usage and estimates only what came after", () => {
    const upToReply = linkPath([u("u1", "hello"), a("a1", "hi", { usage, api: "anthropic-messages", model: "m" })]);
    const path = linkPath([
      u("u1", "hello"),
      a("a1", "hi", { usage, api: "anthropic-messages", model: "m" }),
      branchSummary("b", "tried something"),
      u("u2", "next question"),
    ]);
    const after = contextTokens(path, OPTS, chars) - contextTokens(upToReply, OPTS, chars);
    expect(after).toBeGreaterThan(0);
    expect(contextUsage(path, { ...OPTS, model: "m" }, chars)).toEqual({ tokens: 1200 + after, source: "reported" });
  });

  it("does not reuse usage from another api or another model", () => {
    const path = linkPath([u("u1", "hello"), a("a1", "hi", { usage, api: "openai-chat", model: "gpt" })]);
    expect(contextUsage(path, OPTS, chars).source).toBe("estimate");
    const sameApi = linkPath([u("u1", "hello"), a("a1", "hi", { usage, api: "anthropic-messages", model: "a" })]);
    expect(contextUsage(sameApi, { ...OPTS, model: "b" }, chars).source).toBe("estimate");
    expect(contextUsage(sameApi, OPTS, chars).source).toBe("reported");
  });

  it("ignores usage from before the latest compaction", () => {
    const path = linkPath([
      u("u1", "hello"),
      a("a1", "hi", { usage }),
      compaction("c", { summary: "short", firstKept: null }),
      u("u2", "go on"),
    ]);
    expect(lastReportedUsage(path)).toBeNull();
    expect(contextUsage(path, OPTS, chars).source).toBe("estimate");
  });

  it("passes over error replies when looking for usage", () => {
    const path = linkPath([
      u("u1", "hello"),
      a("a1", "hi", { usage }),
      u("u2", "again"),
      a("a2", "part", { status: "error", usage: { input: 5, output: 1 } }),
    ]);
    expect(lastReportedUsage(path)?.entry.id).toBe("a1");
  });
});
