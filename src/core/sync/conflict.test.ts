import { describe, expect, it } from "vitest";
import { asEntryId, asSessionId } from "../session/ids";
import { chooseVersion, type DocVersion } from "./conflict";
import { encodeHlc } from "./hlc";
import type { SessionMeta, SyncRecord } from "./records";

const S = asSessionId("s1");
const at = (wall: number, node = "a") => encodeHlc({ wall, counter: 0, node });
const leaf = (rev: string, wall: number, leafId: string | null): DocVersion => ({
  rev,
  record: { kind: "leaf", id: S, hlc: at(wall), leafId: leafId === null ? null : asEntryId(leafId), updatedAt: wall },
});
const meta: SessionMeta = { id: S, title: "Trip", titleSource: "user", createdAt: 1 };
const session = (rev: string, wall: number, final = false): DocVersion => ({
  rev,
  record: final
    ? { kind: "session", id: S, hlc: at(wall), final: true, session: null }
    : { kind: "session", id: S, hlc: at(wall), session: meta },
});

describe("chooseVersion", () => {
  it("the latest stamp wins, whichever revision CouchDB picked and whatever order they came in", () => {
    const versions = [leaf("2-a", 5, "x"), leaf("2-b", 9, "y"), leaf("2-c", 7, "z")];
    for (const order of [versions, [...versions].reverse()]) {
      const choice = chooseVersion(["2-c", "2-a", "2-b"], order);
      expect(choice?.winner.rev).toBe("2-b");
      expect(choice?.losingRevs).toEqual(["2-c", "2-a"]);
    }
  });

  it("names where the losing leaf versions stood, never the winner's", () => {
    const choice = chooseVersion(
      ["2-a", "2-b", "2-c"],
      [leaf("2-a", 5, "x"), leaf("2-b", 9, "y"), leaf("2-c", 7, null)],
    );
    expect(choice?.losingLeafIds).toEqual([asEntryId("x"), null]);
    expect(chooseVersion(["1-a"], [leaf("1-a", 1, "x")])).toMatchObject({ losingRevs: [], losingLeafIds: [] });
  });

  it("a session's deletion wins over a later edit made elsewhere", () => {
    const choice = chooseVersion(["3-a", "3-b"], [session("3-a", 9), session("3-b", 2, true)]);
    expect(choice?.winner.rev).toBe("3-b");
    expect(choice?.losingLeafIds).toEqual([]);
  });

  it("records without a stamp keep the lowest revision, the same on every device", () => {
    const entry = (rev: string): DocVersion => ({
      rev,
      record: { kind: "blob", id: "b1", row: {} } satisfies SyncRecord,
    });
    expect(chooseVersion(["1-b", "1-a"], [entry("1-b"), entry("1-a")])?.winner.rev).toBe("1-a");
  });

  it("deletes the revisions that could not be opened too; nothing is chosen when none could", () => {
    expect(chooseVersion(["2-a", "2-x"], [leaf("2-a", 1, "x")])?.losingRevs).toEqual(["2-x"]);
    expect(chooseVersion(["2-x"], [])).toBeUndefined();
  });
});
