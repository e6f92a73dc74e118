import { describe, expect, it } from "vitest";
import { encodeHlc } from "./hlc";
import { pickWinner, replaces } from "./lww";

const at = (wall: number, node = "a") => encodeHlc({ wall, counter: 0, node });

describe("last-writer-wins", () => {
  it("the latest stamp wins, whatever order the versions come in", () => {
    const versions = [
      { hlc: at(2), v: "middle" },
      { hlc: at(3), v: "latest" },
      { hlc: at(1), v: "oldest" },
    ];
    for (const order of [versions, [...versions].reverse(), [versions[1]!, versions[0]!, versions[2]!]]) {
      expect(pickWinner(order)?.v).toBe("latest");
    }
  });

  it("equal wall times are ordered by counter, then by device", () => {
    expect(pickWinner([{ hlc: at(5, "a") }, { hlc: at(5, "b") }])?.hlc).toBe(at(5, "b"));
  });

  it("a deletion is final: a later edit made elsewhere does not bring the record back", () => {
    const deleted = { hlc: at(1), final: true };
    const edited = { hlc: at(9) };
    expect(pickWinner([edited, deleted])).toBe(deleted);
    expect(replaces(edited, deleted)).toBe(false);
    expect(replaces(deleted, edited)).toBe(true);
  });

  it("replaces: newer replaces, older and the same version do not, anything replaces nothing", () => {
    expect(replaces({ hlc: at(2) }, { hlc: at(1) })).toBe(true);
    expect(replaces({ hlc: at(1) }, { hlc: at(2) })).toBe(false);
    expect(replaces({ hlc: at(1) }, { hlc: at(1) })).toBe(false);
    expect(replaces({ hlc: at(1) }, undefined)).toBe(true);
    expect(pickWinner([])).toBeUndefined();
  });
});
