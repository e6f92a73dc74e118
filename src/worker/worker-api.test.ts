/**
 * The worker API, called directly (no Worker, no comlink): real token counters, and a scripted
 * provider stream and clock for `summarize` and `cancel`.
 */
import * as Comlink from "comlink";
import { describe, expect, it } from "vitest";
import { buildContext } from "../core/session/build-context";
import { contextTokens, countContextTokens } from "../core/session/context-tokens";
import type { MessageError } from "../core/session/entries";
import { a, compaction, linkPath, u } from "../core/testing/entries";
import { CHINESE_PROSE, ENGLISH_PROSE, unbrokenRun } from "../core/testing/token-texts";
import { counterFor } from "../core/tokens/counter-for";
import { countEntryTokens } from "../core/tokens/entry-tokens";
import { testProvider } from "../providers/testing/requests";
import type { AssistantPartial, StreamEvent, StreamFn, StreamRequest } from "../providers/types";
import type { SummarizeRequest } from "./api";
import { createWorkerApi } from "./worker-api";

const REQ: SummarizeRequest = {
  provider: testProvider("anthropic-messages"),
  model: "claude-haiku-4-5",
  system: "Summarize; do not continue the conversation.",
  prompt: "<conversation>[User] hi</conversation>",
  maxOutputTokens: 512,
};

const partial = (): AssistantPartial => ({
  content: [],
  providerId: "anthropic",
  api: "anthropic-messages",
  model: "claude-haiku-4-5",
});

type Step = { delta: string } | { thinking: string } | { error: MessageError } | "done" | "hang" | "end";

/** A stream that plays `steps`, records its requests, and advances `clock.now` by 30 ms per event. */
function scripted(steps: Step[], clock = { now: 0 }) {
  const requests: StreamRequest[] = [];
  const stream: StreamFn = async function* (req) {
    requests.push(req);
    const p = partial();
    yield { type: "start", partial: p };
    for (const step of steps) {
      clock.now += 30;
      if (step === "done") {
        yield { type: "done", partial: { ...p, stopReason: "end" } };
        return;
      }
      if (step === "end") return; // contract violation: no final event
      if (step === "hang") {
        await new Promise<void>(() => {}); // ignores the signal entirely: cancel must still work
        return;
      }
      if ("delta" in step) yield { type: "text_delta", delta: step.delta, partial: p };
      else if ("thinking" in step) yield { type: "thinking_delta", delta: step.thinking, partial: p };
      else {
        yield { type: "error", partial: p, error: step.error };
        return;
      }
    }
  };
  return { stream, requests, clock };
}

function progress() {
  const seen: string[] = [];
  return { seen, onText: Comlink.proxy((t: string) => void seen.push(t)) };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

describe("counting", () => {
  const api = createWorkerApi();

  it("countTexts counts each text with the encoding's counter", async () => {
    const o200k = await counterFor({ encoding: "o200k_base" });
    const claude = await counterFor({ encoding: "claude" });
    const texts = ["", ENGLISH_PROSE, CHINESE_PROSE, ENGLISH_PROSE.repeat(3)];
    expect(await api.countTexts("o200k_base", texts)).toEqual(texts.map((t) => o200k.count(t)));
    expect(await api.countTexts("claude", texts)).toEqual(texts.map((t) => claude.count(t)));
  });

  it("counts a 20,000-character unbroken CJK paste quickly (the long-run guard)", async () => {
    const paste = unbrokenRun(CHINESE_PROSE, 20_000);
    const started = performance.now();
    const [n] = await api.countTexts("o200k_base", [paste]);
    // The quadratic merge this guards against takes minutes on such a run; the figure is the bench's.
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(n).toBeGreaterThan(10_000);
  }, 60_000);

  it("countEntries returns each entry's count by id", async () => {
    const path = linkPath([u("u1", "Hello"), a("a1", ENGLISH_PROSE), u("u2", "日本語で答えて")]);
    const o200k = await counterFor({ encoding: "o200k_base" });
    const counts = await api.countEntries("o200k_base", path);
    expect(counts).toEqual(Object.fromEntries(path.map((e) => [e.id, countEntryTokens(e, (t) => o200k.count(t))])));
  });

  it("contextTokens and countContext are core's functions with the real counter", async () => {
    const path = linkPath([
      u("u1", ENGLISH_PROSE),
      a("a1", "Noted."),
      compaction("c1", { summary: "Earlier: the user described Grove.", firstKept: "u2" }),
      u("u2", CHINESE_PROSE),
    ]);
    const opts = { systemPrompt: "Be brief.", targetApi: "openai-chat" as const };
    const cl100k = await counterFor({ encoding: "cl100k_base" });
    const expected = contextTokens(path, opts, (t) => cl100k.count(t));
    expect(await api.contextTokens(path, opts, "cl100k_base")).toBe(expected);
    expect(await api.countContext(buildContext(path, opts), "cl100k_base")).toBe(expected);
    expect(countContextTokens(buildContext(path, opts), (t) => cl100k.count(t))).toBe(expected);
  });

  it("a memoized count equals a fresh one", async () => {
    const long = ENGLISH_PROSE.repeat(10);
    const first = await api.countTexts("o200k_base", [long, long]);
    const again = await createWorkerApi().countTexts("o200k_base", [long]);
    expect(first).toEqual([again[0], again[0]]);
  });
});

describe("summarize", () => {
  it("sends one user message without thinking, and resolves with the streamed text", async () => {
    const { stream, requests } = scripted([
      { delta: "Standing " },
      { thinking: "(ignored)" },
      { delta: "facts" },
      "done",
    ]);
    const api = createWorkerApi({ stream, now: () => 0, progressIntervalMs: 0 });
    const { seen, onText } = progress();
    expect(await api.summarize(REQ, onText)).toBe("Standing facts");
    const sent = requests[0];
    expect(sent?.context).toEqual({
      system: REQ.system,
      messages: [{ role: "user", content: [{ type: "text", text: REQ.prompt }] }],
    });
    expect(sent?.thinking).toEqual({ kind: "off" });
    expect(sent?.maxOutputTokens).toBe(512);
    expect(seen).toEqual(["Standing ", "Standing facts"]);
  });

  it("forwards the growing text at most once per interval, and the final text last", async () => {
    const clock = { now: 0 };
    const deltas: Step[] = Array.from({ length: 10 }, (_, i) => ({ delta: `${i}` }));
    const { stream } = scripted([...deltas, "done"], clock);
    const api = createWorkerApi({ stream, now: () => clock.now, progressIntervalMs: 100 });
    const { seen, onText } = progress();
    expect(await api.summarize(REQ, onText)).toBe("0123456789");
    // Deltas at t = 30, 60, …, 300: sent at 30, 150 (≥ 30 + 100), 270, then the final text.
    expect(seen).toEqual(["0", "01234", "012345678", "0123456789"]);
  });

  it("rejects with the stream's MessageError", async () => {
    const overflow: MessageError = { kind: "context_overflow", message: "prompt is too long", status: 400 };
    const { stream } = scripted([{ delta: "partial" }, { error: overflow }]);
    const api = createWorkerApi({ stream });
    expect(await rejection(api.summarize(REQ, progress().onText))).toEqual(overflow);
  });

  it("rejects with a MessageError when the stream breaks its contract (ends early or throws)", async () => {
    const ended = await rejection(
      createWorkerApi({ stream: scripted([{ delta: "x" }, "end"]).stream }).summarize(REQ, progress().onText),
    );
    expect(ended).toMatchObject({ kind: expect.any(String), message: expect.any(String) });

    const throwing: StreamFn = async function* () {
      yield* [] as StreamEvent[];
      throw new TypeError("boom");
    };
    const thrown = await rejection(createWorkerApi({ stream: throwing }).summarize(REQ, progress().onText));
    expect(thrown).toMatchObject({ kind: expect.any(String), message: expect.any(String) });
  });

  it("survives a progress callback that throws", async () => {
    const { stream } = scripted([{ delta: "ok" }, "done"]);
    const api = createWorkerApi({ stream, progressIntervalMs: 0 });
    const onText = Comlink.proxy(() => {
      throw new Error("UI bug");
    });
    expect(await api.summarize(REQ, onText)).toBe("ok");
  });
});

describe("cancel", () => {
  it("aborts a running summary by op id: the request's signal aborts and the call rejects as aborted", async () => {
    const { stream, requests } = scripted([{ delta: "so far" }, "hang"]);
    const api = createWorkerApi({ stream, progressIntervalMs: 0 });
    const { seen, onText } = progress();
    const pending = api.summarize(REQ, onText, "op-1");
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual(["so far"]);
    expect(await api.cancel("op-1")).toBe(true);
    expect(await rejection(pending)).toMatchObject({ kind: "aborted" });
    expect(requests[0]?.signal.aborted).toBe(true);
    expect(await api.cancel("op-1")).toBe(false); // finished: nothing to cancel
  });

  it("finds a call it directly follows (no await in between)", async () => {
    const { stream } = scripted(["hang"]);
    const api = createWorkerApi({ stream });
    const pending = api.summarize(REQ, progress().onText, "op-2");
    const cancelled = api.cancel("op-2");
    expect(await cancelled).toBe(true);
    expect(await rejection(pending)).toMatchObject({ kind: "aborted" });
  });

  it("returns false for an unknown id, and refuses an id already running", async () => {
    const { stream } = scripted(["hang"]);
    const api = createWorkerApi({ stream });
    expect(await api.cancel("nope")).toBe(false);
    const first = api.summarize(REQ, progress().onText, "dup");
    expect(await rejection(api.summarize(REQ, progress().onText, "dup"))).toMatchObject({ kind: "invalid_request" });
    await api.cancel("dup");
    await rejection(first);
  });
});
