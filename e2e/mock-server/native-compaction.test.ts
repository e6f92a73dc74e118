/**
 * The mock's provider-native compaction (native-compaction.ts), proven with the real SDKs: OpenAI's
 * `responses.compact` and Anthropic's explicit compaction request (JSON and streaming) parse, carry
 * the scripted summary, are recorded, and fail on a queued fault.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "./index";
import { compactionBlock, encryptedCompaction, MOCK_COMPACTION_TEXT } from "./native-compaction";

let mock: MockServer;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  mock = await startMockServer({ config: { chunkDelayMs: 1 } });
  openai = new OpenAI({ baseURL: mock.openaiBaseUrl, apiKey: "sk-test-1234567890", maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: mock.anthropicBaseUrl, apiKey: "sk-ant-test", maxRetries: 0 });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  mock.reset();
});

describe("POST /v1/responses/compact", () => {
  it("returns the user messages and one compaction item, which the SDK parses", async () => {
    mock.enqueue("openai", { text: "Summary by OpenAI." });
    const res = await openai.responses.compact({
      model: "gpt-5",
      input: [
        { role: "user", content: "My cat is Miso." },
        { role: "assistant", content: "Nice." },
        { role: "user", content: [{ type: "input_text", text: "More" }] },
      ],
    });
    expect(res.object).toBe("response.compaction");
    expect(res.output.map((i) => i.type)).toEqual(["message", "message", "compaction"]);
    expect(JSON.stringify(res.output[0])).toContain("My cat is Miso.");
    const item = res.output[2] as { type: string; encrypted_content: string };
    expect(item.encrypted_content).toBe(encryptedCompaction("Summary by OpenAI."));
    expect(res.usage.total_tokens).toBeGreaterThan(0);
    const sent = mock.requests({ api: "openai" });
    expect(sent.at(-1)?.path).toBe("/openai/v1/responses/compact");
  });

  it("the compacted items are accepted back as input of /v1/responses", async () => {
    const res = await openai.responses.compact({ model: "gpt-5", input: [{ role: "user", content: "Hi" }] });
    const reply = await openai.responses.create({
      model: "gpt-5",
      input: [...(res.output as never[]), { role: "user", content: "Go on" }],
      store: false,
    });
    expect(reply.output_text).toContain("Go on");
  });

  it("fails with the queued fault", async () => {
    mock.enqueue("openai", { fault: { kind: "http", status: 500 } });
    await expect(openai.responses.compact({ model: "gpt-5", input: "Hi" })).rejects.toMatchObject({ status: 500 });
  });
});

describe("Anthropic explicit compaction (compact-2026-09-04)", () => {
  const body = {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    messages: [
      { role: "user" as const, content: "My cat is Miso." },
      { role: "assistant" as const, content: "Nice." },
    ],
    compaction: { type: "summarize" as const, instructions: "Keep names." },
    betas: ["compact-2026-09-04"],
  };

  it("answers with a lone compaction block (JSON)", async () => {
    mock.enqueue("anthropic", { text: "Summary by Claude." });
    const res = await anthropic.beta.messages.create(body);
    expect(res.stop_reason).toBe("compaction");
    expect(res.content).toEqual([compactionBlock("Summary by Claude.")]);
    const rec = mock.requests({ api: "anthropic" }).at(-1);
    expect(rec?.headers["anthropic-beta"]).toContain("compact-2026-09-04");
    expect((rec?.body as { compaction?: unknown } | undefined)?.compaction).toEqual({
      type: "summarize",
      instructions: "Keep names.",
    });
  });

  it("answers with a lone compaction block (stream) that the SDK assembles", async () => {
    const stream = anthropic.beta.messages.stream({ ...body });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe("compaction");
    expect(final.content).toHaveLength(1);
    expect(final.content[0]).toEqual(compactionBlock(MOCK_COMPACTION_TEXT));
  });

  it("accepts the block back first in messages under the beta, and rejects it without", async () => {
    const block = compactionBlock("S");
    const messages = [
      { role: "assistant" as const, content: [block as never] },
      { role: "user" as const, content: "Go on" },
    ];
    const ok = await anthropic.beta.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages,
      betas: ["compact-2026-09-04"],
    });
    expect(ok.content[0]).toMatchObject({ type: "text" });
    await expect(
      anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 100, messages: messages as never }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("fails with the queued fault", async () => {
    mock.enqueue("anthropic", { fault: { kind: "http", status: 500 } });
    await expect(anthropic.beta.messages.create(body)).rejects.toMatchObject({ status: 500 });
  });
});

describe("Anthropic server-side compaction (context_management compact_20260112)", () => {
  const body = (value: number) => ({
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    messages: [{ role: "user" as const, content: "A long story about Miso the cat." }],
    context_management: {
      edits: [{ type: "compact_20260112" as const, trigger: { type: "input_tokens" as const, value } }],
    },
    betas: ["compact-2026-01-12"],
  });

  it("past the trigger, the reply begins with a compaction block, then the text (JSON and stream)", async () => {
    mock.enqueue("anthropic", { text: "Here is more." }, { text: "And more." });
    const res = await anthropic.beta.messages.create(body(1));
    expect(res.content.map((b) => b.type)).toEqual(["compaction", "text"]);
    expect(res.content[0]).toEqual(compactionBlock(MOCK_COMPACTION_TEXT));
    const final = await anthropic.beta.messages.stream(body(1)).finalMessage();
    expect(final.content.map((b) => b.type)).toEqual(["compaction", "text"]);
    expect(final.content[0]).toEqual(compactionBlock(MOCK_COMPACTION_TEXT));
    expect(final.content[1]).toMatchObject({ type: "text", text: "And more." });
  });

  it("below the trigger, no compaction block", async () => {
    const res = await anthropic.beta.messages.create(body(1_000_000));
    expect(res.content.map((b) => b.type)).toEqual(["text"]);
  });
});
