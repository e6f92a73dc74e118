import { describe, expect, it } from "vitest";
import type { ProviderConfig } from "../../providers/types";
import { testKey } from "./test-key";

const provider: ProviderConfig = {
  id: "anthropic",
  name: "Anthropic",
  api: "anthropic-messages",
  baseUrl: "http://127.0.0.1:1",
  apiKey: "sk-ant-x",
  customModels: [],
  builtIn: true,
};

describe("testKey", () => {
  it("lists the models a good key sees", async () => {
    expect(await testKey(provider, async () => ["a", "b"])).toEqual({ kind: "ok", models: ["a", "b"] });
  });

  it("tells a rejected key from an unreachable provider", async () => {
    const rejected = await testKey(provider, async () => {
      throw { kind: "auth", status: 401, message: "The API key was rejected (401). Check it in Settings." };
    });
    expect(rejected).toMatchObject({ kind: "rejected" });
    const unreachable = await testKey(provider, async () => {
      throw { kind: "network", message: "Couldn't reach the provider." };
    });
    expect(unreachable).toEqual({ kind: "unreachable", message: "Couldn't reach the provider." });
    const other = await testKey(provider, async () => {
      throw new Error("boom");
    });
    expect(other.kind).toBe("failed");
  });
});
