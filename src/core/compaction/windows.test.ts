import { describe, expect, it } from "vitest";
import { count } from "../testing/compaction";
import { eid } from "../testing/entries";
import { packWindows, splitTextToTokens } from "./windows";

describe("splitTextToTokens", () => {
  it("cuts a long text into pieces within the budget that join back to the text", () => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i} ${"w".repeat(i % 50)}`).join("\n");
    const pieces = splitTextToTokens(text, 300, count);
    expect(pieces.length).toBeGreaterThan(3);
    for (const p of pieces) expect(count(p)).toBeLessThanOrEqual(300);
    expect(pieces.join("")).toBe(text);
  });

  it("never ends a piece between the halves of a surrogate pair", () => {
    const text = "𝒳".repeat(1000);
    const pieces = splitTextToTokens(text, 77, count);
    for (const p of pieces) {
      const last = p.charCodeAt(p.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
      expect(count(p)).toBeLessThanOrEqual(77);
    }
    expect(pieces.join("")).toBe(text);
  });
});

describe("packWindows", () => {
  it("packs segments in order within the budget and splits a segment larger than a window", () => {
    const seg = (i: number, n: number) => ({ entryId: eid(`e${i}`), text: `[User]\n${"x".repeat(n * 4 - 7)}` });
    const segments = [seg(1, 100), seg(2, 100), seg(3, 100), seg(4, 1000), seg(5, 50)];
    const windows = packWindows(segments, 250, count);
    for (const w of windows) expect(count(w)).toBeLessThanOrEqual(250);
    expect(windows[0]).toBe(`${segments[0]?.text}\n\n${segments[1]?.text}`);
    expect(windows.join("")).toContain(segments[3]?.text.slice(0, 100));
    expect(windows.at(-1)).toBe(segments[4]?.text);
    expect(packWindows([], 250, count)).toEqual([]);
  });
});
