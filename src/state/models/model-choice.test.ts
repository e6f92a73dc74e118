import { describe, expect, it } from "vitest";
import { MODEL_REGISTRY } from "../../core/tokens/models";
import { BUILT_IN_PROVIDERS } from "../settings/settings-model";
import { decode, encode, modelIdsFor } from "./model-choice";

describe("model choices", () => {
  it("a model is one option value and back (model ids may hold colons)", () => {
    const ref = { providerId: "custom-1", modelId: "llama3:8b" };
    expect(decode(encode(ref))).toEqual(ref);
    expect(decode("no separator")).toBeNull();
  });

  it("offers the registry's models for a built-in provider, then the user's own and the listed ones, once each", () => {
    const openai = { ...BUILT_IN_PROVIDERS[1]!, customModels: ["my-tune", "gpt-4o"] };
    const ids = modelIdsFor(openai, ["gpt-4o", "listed-1"]);
    const registry = MODEL_REGISTRY.filter((m) => m.vendor === "openai").map((m) => m.id);
    expect(ids).toEqual([...registry, "my-tune", "listed-1"]);
    const custom = { ...openai, id: "custom-x", builtIn: false, customModels: ["m"] };
    expect(modelIdsFor(custom, ["n", "m"])).toEqual(["m", "n"]);
  });
});
