import { describe, expect, it } from "vitest";
import { compactionProperty } from "../testing/compaction-property-harness";

/** Runs per `npm test`; the bench runs `compactionProperty(10_000)`. */
const RUNS = 1_000;

describe("compaction guarantees hold for random sessions and adversarial summarizers", () => {
  it(`every guarantee of DESIGN §4 on the next context, ${RUNS} runs`, async () => {
    const stats = await compactionProperty(RUNS);
    // The generator must actually reach every case the guarantees are about.
    expect(stats.done).toBeGreaterThan(200);
    for (const key of [
      "failed",
      "cancelled",
      "nothingToCompact",
      "alreadyCompacted",
      "upToHere",
      "iterative",
      "splitTurns",
      "multiWindow",
      "evicted",
      "oversized",
      "clampedTails",
    ] as const) {
      expect(stats[key], key).toBeGreaterThan(5);
    }
    console.log(JSON.stringify(stats));
  }, 120_000);
});
