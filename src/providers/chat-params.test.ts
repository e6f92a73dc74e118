/**
 * A chat's parameters (Model settings: temperature, output limit, thinking) reach each adapter's
 * request body as that api names them, and are left out where the provider would reject them.
 */
import { describe, expect, it } from "vitest";
import type { ApiKind } from "../core/session/entries";
import { createAnthropicStream } from "./anthropic";
import { createOpenAIStream } from "./openai";
import { createOpenAIResponsesStream } from "./openai-responses";
import { temperatureApplies } from "./temperature";
import { createFakeFetch, jsonReply } from "./testing/fake-fetch";
import { collect, testRequest } from "./testing/requests";
import type { StreamFn, StreamRequest } from "./types";

const STREAMS: Record<ApiKind, (deps: { fetch: typeof fetch }) => StreamFn> = {
  "anthropic-messages": createAnthropicStream,
  "openai-chat": createOpenAIStream,
  "openai-responses": createOpenAIResponsesStream,
};

/** The body the adapter sent (the fake answers 400: the body is recorded all the same). */
async function sentBody(api: ApiKind, patch: Partial<StreamRequest>): Promise<Record<string, unknown>> {
  const fake = createFakeFetch([jsonReply(400, { error: { message: "stop here" } })]);
  await collect(STREAMS[api]({ fetch: fake.fetch })(testRequest(api, patch)));
  return fake.requests[0]?.body as Record<string, unknown>;
}

describe("chat parameters in requests", () => {
  it("Anthropic: output limit and adaptive effort; temperature is never sent", async () => {
    const body = await sentBody("anthropic-messages", {
      model: "claude-sonnet-5-5",
      maxOutputTokens: 2048,
      thinking: { kind: "anthropic-adaptive", effort: "high" },
      temperature: 0.3,
    });
    expect(body).toMatchObject({ max_tokens: 2048, thinking: { type: "adaptive" }, output_config: { effort: "high" } });
    expect(body).not.toHaveProperty("temperature");
  });

  it("Chat Completions: temperature, max_tokens and reasoning_effort", async () => {
    const body = await sentBody("openai-chat", {
      model: "gpt-4o",
      maxOutputTokens: 700,
      temperature: 0.25,
    });
    expect(body).toMatchObject({ temperature: 0.25, max_completion_tokens: 700 });
    const reasoning = await sentBody("openai-chat", {
      model: "o3",
      thinking: { kind: "openai-effort", effort: "low" },
      temperature: 0.25,
    });
    expect(reasoning).toMatchObject({ reasoning_effort: "low" });
    // o3 rejects temperature: it is left out, not sent to fail.
    expect(reasoning).not.toHaveProperty("temperature");
  });

  it("Responses: temperature, max_output_tokens and reasoning.effort", async () => {
    const body = await sentBody("openai-responses", { model: "gpt-4.1", maxOutputTokens: 900, temperature: 1.5 });
    expect(body).toMatchObject({ temperature: 1.5, max_output_tokens: 900 });
    const reasoning = await sentBody("openai-responses", {
      model: "gpt-5",
      thinking: { kind: "openai-effort", effort: "medium" },
      temperature: 1.5,
    });
    expect(reasoning).toMatchObject({ reasoning: { effort: "medium" } });
    expect(reasoning).not.toHaveProperty("temperature");
  });

  it("a temperature outside 0–2 is clamped; none set sends none", async () => {
    expect(await sentBody("openai-chat", { temperature: 5 })).toMatchObject({ temperature: 2 });
    expect(await sentBody("openai-chat", {})).not.toHaveProperty("temperature");
  });

  it("says where a temperature applies", () => {
    expect(temperatureApplies("anthropic-messages", "claude-sonnet-5-5")).toBe(false);
    expect(temperatureApplies("openai-chat", "gpt-5")).toBe(false);
    expect(temperatureApplies("openai-chat", "llama3.1:8b")).toBe(true);
  });
});
