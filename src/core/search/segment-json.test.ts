import MiniSearch from "minisearch";
import { describe, expect, it } from "vitest";
import { segmentJson } from "./segment-json";

type Doc = { id: string; at: number; sessionId: string; text: string };
const OPTIONS = { fields: ["text"], storeFields: ["at", "sessionId"] };

function index(n: number): MiniSearch<Doc> {
  const ms = new MiniSearch<Doc>(OPTIONS);
  for (let i = 0; i < n; i++)
    ms.add({
      id: `d${i}`,
      at: 1_000 + i,
      sessionId: `s${i % 3}`,
      text: `glacier ${i} walk "quoted" ${"x".repeat(i % 5)} 学习`,
    });
  return ms;
}

/** Runs the generator to its end, counting its pauses. */
function run(steps: Generator<void, string | null, void>): { json: string | null; pauses: number } {
  let pauses = 0;
  for (;;) {
    const step = steps.next();
    if (step.done) return { json: step.value, pauses };
    pauses++;
  }
}

describe("segmentJson", () => {
  it("writes exactly what JSON.stringify does, a slice at a time, and MiniSearch reads it back", () => {
    const ms = index(200);
    ms.discard("d7"); // its postings linger, as they do in a real segment
    const { json, pauses } = run(segmentJson(ms, 50));
    expect(pauses).toBeGreaterThan(5);
    expect(json).toBe(JSON.stringify(ms));
    const back = MiniSearch.loadJSON<Doc>(json!, OPTIONS);
    expect(back.search("glacier").length).toBe(199);
  });

  it("gives up when the index changes between slices, or is being vacuumed", () => {
    const ms = index(200);
    const steps = segmentJson(ms, 50);
    steps.next();
    ms.add({ id: "late", at: 9_999, sessionId: "s0", text: "late glacier" });
    expect(run(steps).json).toBeNull();

    ms.discard("d1");
    const vacuum = ms.vacuum();
    expect(run(segmentJson(ms, 50)).json).toBeNull();
    return vacuum;
  });
});
