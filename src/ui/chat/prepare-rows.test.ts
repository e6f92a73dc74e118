import { describe, expect, it } from "vitest";
import type { EntrySpec } from "../../core/testing/entries";
import { a, linkPath, u } from "../../core/testing/entries";
import { displayRows } from "./display-rows";
import { needsPreparing, prepareRows, rowsOf } from "./prepare-rows";
import { isEstimated } from "./row-estimate";

const longPath = (n: number) => {
  const specs: EntrySpec[] = [];
  for (let i = 0; i < n; i++) specs.push(i % 2 === 0 ? u(`u${i}`, `question ${i}`) : a(`a${i}`, `answer ${i}\n\nmore`));
  return linkPath(specs);
};

describe("prepareRows", () => {
  it("estimates every entry and makes the rows, yielding to the page between chunks", async () => {
    const path = longPath(1_000);
    expect(needsPreparing(path)).toBe(true);
    let yields = 0;
    await prepareRows(path, async () => {
      yields++;
    });
    expect(path.every(isEstimated)).toBe(true);
    expect(needsPreparing(path)).toBe(false);
    // 1,000 entries: 7 chunks, then the rows, then the joined rows' estimates.
    expect(yields).toBeGreaterThanOrEqual(8);
    // The rows the render asks for are the ones made, for a new array of the same entries too.
    const made = rowsOf(path);
    expect(rowsOf([...path])).toBe(made);
    expect(made).toEqual(displayRows(path));
  });

  it("a short path is drawn at once", () => {
    expect(needsPreparing(longPath(20))).toBe(false);
  });

  it("a path with other entries gets its own rows", () => {
    const path = longPath(10);
    const rows = rowsOf(path);
    const other = [...path.slice(0, 8)];
    expect(rowsOf(other)).not.toBe(rows);
    expect(rowsOf(other)).toEqual(displayRows(other));
  });
});
