import { describe, expect, it } from "vitest";
import type { ProviderConfig } from "../../providers/types";
import { filterModelGroups, modelDetail, modelGroups } from "./model-options";

const provider = (id: string, name: string, apiKey: string, builtIn = true) =>
  ({ id, name, apiKey, builtIn, customModels: [] }) as unknown as ProviderConfig;

describe("model options", () => {
  const providers = [provider("openai", "OpenAI", ""), provider("anthropic", "Anthropic", "sk-ant")];
  const ids = (p: ProviderConfig) => (p.id === "openai" ? ["gpt-4o"] : ["claude-haiku-4-5", "claude-sonnet-4-5"]);
  const current = { providerId: "anthropic", modelId: "claude-sonnet-4-5" };

  it("lists providers with a key first and marks the others", () => {
    const groups = modelGroups(providers, ids, current);
    expect(groups.map((g) => g.name)).toEqual(["Anthropic", "OpenAI (no key yet)"]);
    expect(groups[0]?.options.map((o) => o.label)).toEqual([
      "Claude Haiku 4.5",
      "Claude Sonnet 4.5",
      "Other Anthropic model id…",
    ]);
  });

  it("says the context size and price of a known model, and only the id of an unknown one", () => {
    expect(modelDetail("claude-haiku-4-5")).toMatch(/^claude-haiku-4-5 · 200k context · \$1 \/ \$5 per M tokens$/);
    expect(modelDetail("my-own-model")).toBe("my-own-model");
  });

  it("keeps the options whose name, id or provider has a word starting with each word typed", () => {
    const groups = modelGroups(providers, ids, current);
    const found = filterModelGroups(groups, "haiku 4.5").flatMap((g) => g.options.map((o) => o.value));
    expect(found).toEqual(["anthropic::claude-haiku-4-5"]);
    expect(filterModelGroups(groups, "openai gpt").flatMap((g) => g.options.map((o) => o.value))).toEqual([
      "openai::gpt-4o",
    ]);
    expect(filterModelGroups(groups, "zzz")).toEqual([]);
  });
});
