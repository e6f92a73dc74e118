import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { CODE_SNIPPET, ENGLISH_PROSE } from "../testing/token-texts";
import { CLAUDE_TOKENS_PER_O200K_TOKEN } from "./claude-estimate";
import { counterFor } from "./counter-for";
import { findModel } from "./models";
import { loadTiktokenCounter } from "./tokenizer";

describe("loadTiktokenCounter", () => {
  it("loads each encoding once and shares the load between callers", async () => {
    const a = loadTiktokenCounter("o200k_base");
    const b = loadTiktokenCounter("o200k_base");
    expect(a).toBe(b);
    const counter = await a;
    expect(counter.encoding).toBe("o200k_base");
    expect(counter.exact).toBe(true);
    expect(counter.count("")).toBe(0);
  });

  it("counts like js-tiktoken with the matching ranks", async () => {
    const tiktoken = new Tiktoken(o200k);
    const counter = await loadTiktokenCounter("o200k_base");
    expect(counter.count(ENGLISH_PROSE)).toBe(tiktoken.encode(ENGLISH_PROSE).length);
  });

  it("gives different counts per encoding (cl100k is not o200k)", async () => {
    const [o, c] = await Promise.all([loadTiktokenCounter("o200k_base"), loadTiktokenCounter("cl100k_base")]);
    expect(c.encoding).toBe("cl100k_base");
    const text = "日本語のテキストは、エンコーディングによってトークン数が大きく変わります。";
    expect(c.count(text)).toBeGreaterThan(o.count(text));
  });
});

describe("counterFor", () => {
  it("picks the exact counter for GPT models and the estimate for Claude", async () => {
    const gpt = findModel("gpt-4o");
    const claudeModel = findModel("claude-sonnet-4-5");
    if (!gpt || !claudeModel) throw new Error("registry lost a model");
    const exact = await counterFor(gpt);
    expect(exact).toBe(await loadTiktokenCounter("o200k_base"));
    expect((await counterFor({ encoding: "cl100k_base" })).encoding).toBe("cl100k_base");

    const claude = await counterFor(claudeModel);
    expect(claude).toBe(await counterFor({ encoding: "claude" }));
    expect(claude.encoding).toBe("claude");
    expect(claude.exact).toBe(false);
    expect(claude.count(CODE_SNIPPET)).toBe(Math.round(exact.count(CODE_SNIPPET) * CLAUDE_TOKENS_PER_O200K_TOKEN));
    expect(claude.count("")).toBe(0);
  });
});
