/** A maintenance job's requests, metered: the usage each reports is summed per model. */
import { describe, expect, it } from "vitest";
import type { StreamEvent, StreamFn, StreamRequest } from "../providers/types";
import { meteredStream } from "./metered-stream";

const partial = (usage?: { input: number; output: number }) => ({
  content: [],
  providerId: "openai",
  api: "openai-chat" as const,
  model: "x",
  ...(usage ? { usage } : {}),
});

const scripted =
  (ends: StreamEvent[]): StreamFn =>
  () => {
    const events = [...ends];
    return (async function* () {
      for (const e of events) yield e;
    })();
  };

const req = (model: string) => ({ model }) as unknown as StreamRequest;

describe("meteredStream", () => {
  it("sums the usage of done and error events per model, passing every event through", async () => {
    let n = 0;
    const stream: StreamFn = (r) => {
      n++;
      return n === 3
        ? scripted([
            { type: "error", partial: partial({ input: 5, output: 1 }), error: { kind: "network", message: "x" } },
          ])(r)
        : scripted([
            { type: "text_delta", delta: "a", partial: partial() },
            { type: "done", partial: partial({ input: 100, output: 10 }) },
          ])(r);
    };
    const m = meteredStream(stream);
    const seen: string[] = [];
    for (const model of ["mini", "mini", "big", "big"]) {
      for await (const e of m.stream(req(model))) seen.push(e.type);
    }
    expect(seen).toEqual(["text_delta", "done", "text_delta", "done", "error", "text_delta", "done"]);
    expect(m.usage()).toEqual([
      { model: "mini", usage: { input: 200, output: 20 } },
      { model: "big", usage: { input: 105, output: 11 } },
    ]);
  });

  it("reports nothing when no request reported usage", async () => {
    const m = meteredStream(scripted([{ type: "done", partial: partial() }]));
    for await (const _ of m.stream(req("x"))) {
      // drain
    }
    expect(m.usage()).toEqual([]);
  });
});
