import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_MODEL_ID,
  deprecationOf,
  findModel,
  MODEL_REGISTRY,
  normalizeModelId,
  resolveModel,
  UNKNOWN_MODEL_CONTEXT_WINDOW,
  UNKNOWN_MODEL_MAX_OUTPUT,
  vendorDefaultsFor,
} from "./models";

describe("MODEL_REGISTRY", () => {
  it("has unique, normalized ids and sane limits", () => {
    const ids = MODEL_REGISTRY.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const m of MODEL_REGISTRY) {
      expect(normalizeModelId(m.id)).toBe(m.id);
      expect(Number.isInteger(m.contextWindow) && m.contextWindow >= 100_000).toBe(true);
      expect(Number.isInteger(m.maxOutput) && m.maxOutput > 0 && m.maxOutput < m.contextWindow).toBe(true);
      expect(m.asOf).toMatch(/^\d{4}-\d{2}$/);
      expect(m.encoding === "claude").toBe(m.vendor === "anthropic");
      if (m.vendor === "anthropic") expect(m.thinking.startsWith("anthropic-")).toBe(true);
      else expect(["none", "openai-effort"]).toContain(m.thinking);
    }
  });

  it("knows the current Claude and GPT lineups", () => {
    for (const id of [
      "claude-opus-5-5",
      "claude-sonnet-5-5",
      "claude-haiku-5-5",
      "claude-haiku-4-5",
      "gpt-6.2-sol",
      "gpt-5",
      "gpt-4.1",
      "gpt-4o",
      "o3",
      "o4-mini",
    ]) {
      expect(findModel(id)?.id).toBe(id);
    }
  });

  it("marks Claude models that reject budget_tokens as adaptive", () => {
    expect(findModel("claude-opus-4-7")?.thinking).toBe("anthropic-adaptive");
    expect(findModel("claude-sonnet-4-5")?.thinking).toBe("anthropic-budget");
  });
});

describe("normalizeModelId / findModel", () => {
  it("resolves dated snapshots, router prefixes and dotted Claude ids", () => {
    expect(findModel("claude-haiku-4-5-20251001")?.id).toBe("claude-haiku-4-5");
    expect(findModel("claude-opus-4-5-20251101")?.id).toBe("claude-opus-4-5");
    expect(findModel("anthropic/claude-sonnet-4.5")?.id).toBe("claude-sonnet-4-5");
    expect(findModel("gpt-4o-2024-11-20")?.id).toBe("gpt-4o");
    expect(findModel("openai/gpt-5.5")?.id).toBe("gpt-5.5");
    expect(findModel("O3-2025-04-16")?.id).toBe("o3");
  });

  it("does not confuse GPT version dots with Claude's", () => {
    expect(normalizeModelId("gpt-6.1-sol")).toBe("gpt-6.1-sol");
    expect(findModel("gpt-6-1-sol")).toBeUndefined();
  });
});

describe("resolveModel", () => {
  it("returns the registry entry for a known id", () => {
    const r = resolveModel("claude-sonnet-4-5-20250929");
    expect(r).toEqual({ info: findModel("claude-sonnet-4-5"), known: true, overridden: false });
  });

  it("assumes a 128k window and a small output limit for an unknown id", () => {
    const r = resolveModel("llama-3.3-70b-instruct");
    expect(r.known).toBe(false);
    expect(r.overridden).toBe(false);
    expect(r.info).toMatchObject({
      id: "llama-3.3-70b-instruct",
      vendor: "openai",
      contextWindow: UNKNOWN_MODEL_CONTEXT_WINDOW,
      maxOutput: UNKNOWN_MODEL_MAX_OUTPUT,
      thinking: "none",
    });
    expect(UNKNOWN_MODEL_CONTEXT_WINDOW).toBe(128_000);
    expect(resolveModel("some-model", undefined, "anthropic-messages").info.vendor).toBe("anthropic");
    expect(resolveModel("claude-opus-9").info.encoding).toBe("claude");
  });

  it("applies valid user overrides, by the id as written or normalized", () => {
    const r = resolveModel("gpt-4o", { "gpt-4o": { contextWindow: 64_000 } });
    expect(r).toMatchObject({ known: true, overridden: true, info: { contextWindow: 64_000, maxOutput: 16_384 } });
    const dated = resolveModel("gpt-4o-2024-11-20", { "gpt-4o": { maxOutput: 4_096 } });
    expect(dated.info.maxOutput).toBe(4_096);
    const unknown = resolveModel("local-model", { "local-model": { contextWindow: 32_768 } });
    expect(unknown).toMatchObject({ known: false, overridden: true, info: { contextWindow: 32_768 } });
  });

  it("ignores overrides that are not positive integers", () => {
    const r = resolveModel("gpt-4o", { "gpt-4o": { contextWindow: 0, maxOutput: Number.NaN } });
    expect(r.overridden).toBe(false);
    expect(r.info).toBe(findModel("gpt-4o"));
  });
});

describe("vendorDefaultsFor", () => {
  it("maps each api to its vendor and encoding, with thinking off", () => {
    expect(vendorDefaultsFor("anthropic-messages")).toEqual({
      vendor: "anthropic",
      encoding: "claude",
      thinking: "none",
    });
    expect(vendorDefaultsFor("openai-chat")).toEqual({ vendor: "openai", encoding: "o200k_base", thinking: "none" });
  });
});

describe("deprecations", () => {
  it("the default model is known and not deprecated", () => {
    expect(findModel(DEFAULT_MODEL_ID)).toBeDefined();
    expect(deprecationOf(DEFAULT_MODEL_ID, "2026-11-24")).toBeNull();
  });

  it("says when a model retires, and whether that day has passed", () => {
    expect(deprecationOf("claude-sonnet-4-5-20250929", "2026-11-24")).toEqual({
      retiresOn: "2026-11-30",
      retired: false,
    });
    expect(deprecationOf("claude-sonnet-4-5", "2026-12-01")?.retired).toBe(true);
    expect(deprecationOf("my-local-model", "2026-11-24")).toBeNull();
  });

  it("carries every end-of-life date of the Anthropic SDK's table for the models it knows", () => {
    const months = [
      "January",
      "February",
      "March",
      "April",
      "May",
      "June",
      "July",
      "August",
      "September",
      "October",
      "November",
      "December",
    ];
    // The table is not exported by the package: read its source, `'id': 'Month Nth, YYYY'` per line.
    const table = readFileSync("node_modules/@anthropic-ai/sdk/src/internal/data/deprecated-models.ts", "utf8");
    const rows = [...table.matchAll(/'([^']+)': '([^']+)'/g)].map((r) => [r[1] ?? "", r[2] ?? ""] as const);
    expect(rows.length).toBeGreaterThan(0);
    for (const [id, when] of rows) {
      const m = /^(\w+) (\d+)\w*, (\d{4})$/.exec(when);
      if (!m || !findModel(id)) continue;
      const iso = `${m[3]}-${String(months.indexOf(m[1] ?? "") + 1).padStart(2, "0")}-${(m[2] ?? "").padStart(2, "0")}`;
      expect(findModel(id)?.retiresOn, id).toBe(iso);
    }
  });
});
