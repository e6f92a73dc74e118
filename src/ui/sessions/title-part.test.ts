import { describe, expect, it } from "vitest";
import { splitPart } from "./title-part";

describe("splitPart", () => {
  it("splits a handoff part's number off its name", () => {
    expect(splitPart("Plan the penguin census at dawn (part 2)")).toEqual({
      base: "Plan the penguin census at dawn",
      part: "(part 2)",
    });
    expect(splitPart("Plan (part 12)")).toEqual({ base: "Plan", part: "(part 12)" });
  });
  it("leaves other titles whole", () => {
    expect(splitPart("Plan")).toEqual({ base: "Plan", part: null });
    expect(splitPart("(part 2)")).toEqual({ base: "(part 2)", part: null });
    expect(splitPart("Plan (part two)")).toEqual({ base: "Plan (part two)", part: null });
  });
});
