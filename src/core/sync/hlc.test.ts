import { describe, expect, it } from "vitest";
import { compareHlc, decodeHlc, encodeHlc, HybridClock, receiveHlc, tickHlc } from "./hlc";

describe("hybrid logical clock", () => {
  it("encodes so that string order is clock order, and decodes back", () => {
    const a = encodeHlc({ wall: 999, counter: 12, node: "b" });
    const b = encodeHlc({ wall: 1000, counter: 0, node: "a" });
    const c = encodeHlc({ wall: 1000, counter: 1, node: "a" });
    const d = encodeHlc({ wall: 1000, counter: 1, node: "b" });
    expect([d, c, b, a].sort()).toEqual([a, b, c, d]);
    expect(compareHlc(a, b)).toBeLessThan(0);
    expect(decodeHlc(c)).toEqual({ wall: 1000, counter: 1, node: "a" });
    expect(() => decodeHlc("garbage")).toThrow(/Not a clock stamp/);
  });

  it("ticks forward even when the wall clock stands still or goes back", () => {
    let t = tickHlc({ wall: 0, counter: 0, node: "n" }, 100);
    expect(t).toEqual({ wall: 100, counter: 0, node: "n" });
    t = tickHlc(t, 100);
    expect(t).toEqual({ wall: 100, counter: 1, node: "n" });
    t = tickHlc(t, 50); // the clock was set back
    expect(t).toEqual({ wall: 100, counter: 2, node: "n" });
  });

  it("after receiving a stamp from a device whose clock runs ahead, the next local stamp is later", () => {
    const now = 1_000;
    const clock = new HybridClock("local", () => now);
    const before = clock.next();
    const ahead = encodeHlc({ wall: 5_000, counter: 7, node: "remote" });
    clock.receive(ahead);
    const after = clock.next();
    expect(compareHlc(after, ahead)).toBeGreaterThan(0);
    expect(compareHlc(after, before)).toBeGreaterThan(0);
    expect(receiveHlc({ wall: 10, counter: 3, node: "x" }, { wall: 10, counter: 5, node: "y" }, 9)).toEqual({
      wall: 10,
      counter: 6,
      node: "x",
    });
  });

  it("ignores a value without a valid stamp", () => {
    const clock = new HybridClock("n", () => 5);
    clock.receiveIfStamped({ kind: "entry" });
    clock.receiveIfStamped({ hlc: "not a stamp" });
    expect(decodeHlc(clock.next())).toEqual({ wall: 5, counter: 0, node: "n" });
  });
});
