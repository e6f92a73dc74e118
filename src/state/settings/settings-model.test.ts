import { describe, expect, it } from "vitest";
import type { ProviderConfig } from "../../providers/types";
import { BUILT_IN_PROVIDERS, findProvider, settingsFromRows } from "./settings-model";

const custom = (api: ProviderConfig["api"], id = "custom-ollama"): ProviderConfig => ({
  id,
  name: "Ollama",
  api,
  baseUrl: "http://localhost:11434/v1",
  apiKey: "",
  customModels: ["llama3.2"],
  builtIn: false,
});

describe("settingsFromRows: provider api types", () => {
  it("the built-in OpenAI provider speaks Responses; Anthropic speaks Messages", () => {
    const s = settingsFromRows({});
    expect(findProvider(s, "openai")?.api).toBe("openai-responses");
    expect(findProvider(s, "anthropic")?.api).toBe("anthropic-messages");
  });

  it("stored settings from before Responses: built-in OpenAI moves to Responses (key and URL kept), custom providers keep Chat Completions", () => {
    const storedOpenAI = {
      ...BUILT_IN_PROVIDERS[1],
      api: "openai-chat",
      apiKey: "sk-old",
      baseUrl: "https://proxy/v1",
    };
    const s = settingsFromRows({ providers: [BUILT_IN_PROVIDERS[0], storedOpenAI, custom("openai-chat")] });
    expect(findProvider(s, "openai")).toMatchObject({
      api: "openai-responses",
      apiKey: "sk-old",
      baseUrl: "https://proxy/v1",
    });
    expect(findProvider(s, "custom-ollama")?.api).toBe("openai-chat");
  });

  it("a custom provider added as OpenAI Responses or Anthropic keeps that api", () => {
    const s = settingsFromRows({
      providers: [custom("openai-responses", "custom-azure"), custom("anthropic-messages", "custom-proxy")],
    });
    expect(findProvider(s, "custom-azure")?.api).toBe("openai-responses");
    expect(findProvider(s, "custom-proxy")?.api).toBe("anthropic-messages");
  });
});

describe("settingsFromRows: remote summarizer", () => {
  it("a token stored before tokens had an origin keeps going to the URL it was stored with (issue 30.7)", () => {
    const before = { url: "https://sum.example/s", token: "t" };
    expect(settingsFromRows({ remoteSummarizer: before }).remoteSummarizer).toEqual({
      ...before,
      tokenOrigin: "https://sum.example",
    });
    // No token, or no usable URL: nothing to bind.
    expect(
      settingsFromRows({ remoteSummarizer: { url: "https://sum.example/s", token: "" } }).remoteSummarizer,
    ).toEqual({ url: "https://sum.example/s", token: "" });
    expect(settingsFromRows({ remoteSummarizer: { url: "", token: "t" } }).remoteSummarizer).toEqual({
      url: "",
      token: "t",
    });
  });

  it("defaults to none; keeps a stored URL, token and confirmed origin; ignores junk", () => {
    expect(settingsFromRows({}).remoteSummarizer).toEqual({ url: "", token: "" });
    const stored = {
      url: "http://10.0.0.5/s",
      token: "t",
      plainHttpOrigin: "http://10.0.0.5",
      tokenOrigin: "http://x",
    };
    expect(settingsFromRows({ remoteSummarizer: stored }).remoteSummarizer).toEqual(stored);
    expect(settingsFromRows({ remoteSummarizer: { url: 5, token: null } }).remoteSummarizer).toEqual({
      url: "",
      token: "",
    });
  });
});

describe("settingsFromRows: Generate chat titles", () => {
  it("is on unless the user turned it off", () => {
    expect(settingsFromRows({}).modelTitles).toBe(true);
    expect(settingsFromRows({ modelTitles: true }).modelTitles).toBe(true);
    expect(settingsFromRows({ modelTitles: false }).modelTitles).toBe(false);
  });
});

describe("settingsFromRows: model presets", () => {
  it("a preset keeps its tools (issue 28 item 4); one stored before tools or with broken tools has none", () => {
    const s = settingsFromRows({
      paramsPresets: [
        { name: "Research", params: { temperature: 0.2 }, tools: { servers: ["s1"], provider: ["web_search"] } },
        { name: "Plain", params: { maxOutputTokens: 900 } },
        { name: "Broken", params: {}, tools: "everything" },
      ],
    });
    expect(s.paramsPresets).toEqual([
      { name: "Research", params: { temperature: 0.2 }, tools: { servers: ["s1"], provider: ["web_search"] } },
      { name: "Plain", params: { maxOutputTokens: 900 } },
      { name: "Broken", params: {} },
    ]);
  });
});
