/**
 * The client in Node, where there is no Worker: the same API runs in-process, through the real
 * provider registry and Anthropic adapter, with `fetch` replaced by a scripted one.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { counterFor } from "../core/tokens/counter-for";
import { createFakeFetch, sseEvent, sseReply } from "../providers/testing/fake-fetch";
import { testProvider } from "../providers/testing/requests";
import type { SummarizeRequest } from "./api";
import { getWorker, newOpId, summarizeInWorker, terminateWorker } from "./client";

afterEach(() => {
  vi.unstubAllGlobals();
  terminateWorker();
});

const REQ: SummarizeRequest = {
  provider: testProvider("anthropic-messages"),
  model: "claude-haiku-4-5",
  system: "Summarize.",
  prompt: "<conversation>[User] hi</conversation>",
  maxOutputTokens: 256,
};

function textEvents(deltas: string[]): string[] {
  return [
    sseEvent("message_start", {
      type: "message_start",
      message: {
        id: "msg_01",
        type: "message",
        role: "assistant",
        content: [],
        model: "claude-haiku-4-5-20251001",
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 25, output_tokens: 1 },
      },
    }),
    sseEvent("content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    }),
    ...deltas.map((text) =>
      sseEvent("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }),
    ),
    sseEvent("content_block_stop", { type: "content_block_stop", index: 0 }),
    sseEvent("message_delta", {
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: 5 },
    }),
    sseEvent("message_stop", { type: "message_stop" }),
  ];
}

describe("client without a Worker (in-process)", () => {
  it("is one lazy instance that counts like core", async () => {
    expect(typeof Worker).toBe("undefined");
    const worker = getWorker();
    expect(getWorker()).toBe(worker);
    const o200k = await counterFor({ encoding: "o200k_base" });
    expect(await worker.countTexts("o200k_base", ["Hello, world"])).toEqual([o200k.count("Hello, world")]);
  });

  it("makes distinct op ids", () => {
    expect(newOpId()).not.toBe(newOpId());
  });

  it("summarizes through the provider registry, reporting progress", async () => {
    const fake = createFakeFetch([sseReply(textEvents(["Standing facts: ", "none."]))]);
    vi.stubGlobal("fetch", fake.fetch);
    const seen: string[] = [];
    const text = await summarizeInWorker(REQ, { onText: (t) => seen.push(t) });
    expect(text).toBe("Standing facts: none.");
    expect(seen.at(-1)).toBe(text);
    expect(fake.requests[0]?.body).toMatchObject({ model: "claude-haiku-4-5", max_tokens: 256, system: "Summarize." });
  });

  it("cancels when the signal aborts: the request is aborted and the call rejects as aborted", async () => {
    const fake = createFakeFetch([sseReply(textEvents(["Half a sum"]).slice(0, 3), "hang")]);
    vi.stubGlobal("fetch", fake.fetch);
    const controller = new AbortController();
    const seen: string[] = [];
    const pending = summarizeInWorker(REQ, {
      signal: controller.signal,
      onText: (t) => {
        seen.push(t);
        controller.abort(); // stop as soon as text arrives
      },
    });
    await expect(pending).rejects.toMatchObject({ kind: "aborted" });
    expect(seen).toEqual(["Half a sum"]);
  });

  it("rejects at once for a signal that is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(summarizeInWorker(REQ, { signal: controller.signal })).rejects.toMatchObject({ kind: "aborted" });
  });
});
