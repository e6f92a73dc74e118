/**
 * pi → Grove → pi changes nothing pi's model would see (issue 13, part 1), checked against the
 * real pi package: pi's own `buildSessionContext` on the re-exported file equals it on the
 * original, at every leaf, entry for entry.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSessionContext } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import type { Entry } from "../../session/entries";
import { exportGroveJson, parseGroveJson } from "../grove-json";
import { exportPiJsonl } from "./export";
import { parsePiJsonl } from "./import";
import { everyKindSession, piEntries, piLeaves } from "./testing/pi-sessions";

const DIR = fileURLToPath(new URL("../../../../../shared/fixtures/real-world/", import.meta.url));

function roundTrip(text: string) {
  const parsed = parsePiJsonl(text);
  if (parsed.kind !== "ok") throw new Error(parsed.message);
  const [session] = parsed.sessions;
  if (!session) throw new Error("no session");
  return { session, exported: exportPiJsonl(session) };
}

/** pi's context at every leaf of the original, and at the same place in the copy. */
function expectSameContextAtEveryLeaf(original: string, copy: string) {
  const before = piEntries(original);
  const after = piEntries(copy);
  const afterIds = new Set(after.map((e) => e.id));
  const byId = new Map(before.map((e) => [e.id, e]));
  const leaves = piLeaves(before);
  expect(leaves.length).toBeGreaterThan(0);
  for (const leaf of leaves) {
    // A leaf that is a label or session_info line (written at the end by the export) has the
    // context of its nearest ancestor that is an entry.
    let at: (typeof before)[number] | undefined = leaf;
    while (at && !afterIds.has(at.id)) at = at.parentId ? byId.get(at.parentId) : undefined;
    expect(at, `leaf ${leaf.id} (${leaf.type})`).toBeDefined();
    if (!at) continue;
    expect(at.type === "label" || at.type === "session_info" ? "metadata" : "entry").toBe("entry");
    const want = buildSessionContext(before, leaf.id);
    const got = buildSessionContext(after, at.id);
    expect(got, `context at leaf ${leaf.id}`).toEqual(want);
  }
}

describe("pi fidelity: sessions written by pi's own SessionManager", () => {
  const original = everyKindSession();
  const { session, exported } = roundTrip(original);

  it("gives pi the same context at every leaf after a round trip through Grove", () => {
    expectSameContextAtEveryLeaf(original, exported);
    expect(piLeaves(piEntries(original)).length).toBeGreaterThanOrEqual(4);
  });

  it("writes every entry back as pi wrote it: same ids, same fields (labels and the name move to the end)", () => {
    expect(exported).toContain('"grove":');
    const meta = (e: { type: string }) => e.type === "label" || e.type === "session_info";
    const before = piEntries(original).filter((e) => !meta(e));
    const after = new Map(piEntries(exported).map((e) => [e.id, e]));
    for (const e of before) {
      const copy = after.get(e.id);
      // Children of a label or name line now hang from that line's parent; `grove` is Grove's own
      // data on compactions and branch summaries (pi ignores it).
      const { grove: _grove, ...rest } = (copy ?? {}) as typeof e & { grove?: unknown };
      expect(copy ? { ...rest, parentId: null } : undefined, `${e.type} ${e.id}`).toEqual({ ...e, parentId: null });
    }
    const header = JSON.parse(exported.split("\n")[0] ?? "{}");
    expect(header.cwd).toBe("/home/user/project");
  });

  it("keeps pi's metadata and extension entries as Grove entries of their own kind", () => {
    const kinds = (t: Entry["type"]) => session.entries.filter((e) => e.type === t);
    expect(kinds("model_change").map((e) => e.type === "model_change" && e.modelId)).toEqual([
      "claude-sonnet-4-5",
      "gpt-5",
    ]);
    expect(kinds("thinking_level_change")).toHaveLength(2);
    expect(kinds("custom")).toHaveLength(1);
    expect(kinds("context_note").map((e) => e.type === "context_note" && [e.customType, e.display])).toEqual([
      ["todo-reminder", true],
      ["hidden-context", false],
      ["hook-note", true],
    ]);
    expect(kinds("command").map((e) => e.type === "command" && e.command)).toEqual(["npm test", "cat ~/.secret"]);
    const images = session.entries.flatMap((e) =>
      e.type === "message" ? e.content.filter((b) => b.type === "image") : [],
    );
    expect(images).toHaveLength(2);
    expect(session.images?.size).toBe(1);
    expect(session.session.title).toBe("Fixing the app");
    expect(session.session.titleSource).toBe("user");
  });

  it("reads a branch summary's fromId as pi does: the root stays root, Grove points at the branch left", () => {
    const summaries = session.entries.filter((e) => e.type === "branch_summary");
    expect(summaries).toHaveLength(2);
    const [atRoot, atEntry] = summaries;
    expect(atRoot?.parentId).toBeNull();
    expect(atEntry?.parentId).not.toBeNull();
    const lines = piEntries(exported).filter((e) => e.type === "branch_summary");
    expect(lines.map((l) => l.type === "branch_summary" && l.fromId)).toEqual([
      "root",
      piEntries(original).find((e) => e.type === "branch_summary" && e.fromId !== "root")?.parentId,
    ]);
  });

  it("a second round trip changes nothing", () => {
    expect(roundTrip(exported).exported).toBe(exported);
  });

  it("survives a Grove JSON backup: the new entry kinds and the kept pi fields come back", () => {
    const backup = parseGroveJson(exportGroveJson([session]));
    if (backup.kind !== "ok") throw new Error(backup.message);
    const [restored] = backup.sessions;
    if (!restored) throw new Error("no session");
    // Image bytes live in the blobs table, not in the JSON: given back as the export job does.
    // (Grove JSON sorts keys, so kept values may come back with their keys in another order.)
    const lines = (text: string) =>
      text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
    expect(lines(exportPiJsonl(restored, { images: session.images }))).toEqual(lines(exported));
  });
});

describe("pi fidelity: real pi session files", () => {
  for (const name of ["pi-session-v1-large.jsonl", "pi-session-v1-with-compactions.jsonl"]) {
    it(`${name}: pi's context is the same after a round trip`, () => {
      const original = readFileSync(`${DIR}${name}`, "utf8");
      const { exported } = roundTrip(original);
      // v1 files are linear and get ids only when read: one leaf, the last entry.
      const before = piEntries(original);
      const after = piEntries(exported).filter((e) => e.type !== "label" && e.type !== "session_info");
      expect(buildSessionContext(after, after[after.length - 1]?.id)).toEqual(
        buildSessionContext(before, before[before.length - 1]?.id),
      );
    });
  }
});
