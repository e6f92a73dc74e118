import { describe, expect, it } from "vitest";
import { entryTokensFrom } from "../compaction/entry-text";
import { entryContextText } from "../session/entry-text";
import type { EntryId } from "../session/ids";
import {
  a,
  blobId,
  branchSummary,
  compaction,
  eid,
  handoff,
  linkPath,
  text,
  thinking,
  tool,
  u,
} from "../testing/entries";
import {
  cachedEntryTokens,
  countEntryTokens,
  entryTokenKey,
  entryTokenRows,
  mergeEntryCounts,
  uncountedEntries,
} from "./entry-tokens";

/** One token per character: makes the arithmetic visible. */
const chars = (s: string) => s.length;

const PATH = linkPath([
  u("u1", "Hello there"),
  a("a1", [thinking("hmm"), text("Hi"), { type: "tool_call", id: "c1", name: "read", args: { path: "x" } }]),
  tool("t1", [
    { type: "tool_result", callId: "c1", toolName: "read", text: "file body", isError: false },
    { type: "image", blobId: blobId("b1"), mimeType: "image/png" },
  ]),
  branchSummary("b1", "what happened on the other branch"),
  handoff("h1", "the handoff document"),
  a("e1", [], { status: "error", error: { kind: "network", message: "offline" } }),
  compaction("c1", { summary: "the digest", firstKept: null }),
]);

describe("countEntryTokens", () => {
  it("is the compaction engine's EntryTokens, so cached counts can stand in for it", () => {
    const engine = entryTokensFrom(chars);
    for (const entry of PATH)
      expect({ id: entry.id, n: countEntryTokens(entry, chars) }).toEqual({ id: entry.id, n: engine(entry) });
    const [user] = PATH;
    expect(countEntryTokens(user!, chars)).toBe(entryContextText(user!).length);
  });

  it("is 0 for what sends nothing from its place: a compaction entry, an empty error reply", () => {
    const byId = new Map(PATH.map((e) => [e.id, e]));
    expect(countEntryTokens(byId.get(eid("c1"))!, chars)).toBe(0);
    expect(countEntryTokens(byId.get(eid("e1"))!, chars)).toBe(0);
  });
});

describe("cache helpers", () => {
  const path = linkPath([u("u1", "one"), a("a1", "two"), u("u2", "three")]);

  it("keys a count by entry id and encoding", () => {
    expect(entryTokenKey(path[0]!, "o200k_base")).toEqual([eid("u1"), "o200k_base"]);
  });

  it("counts only what the cache lacks, once each, and merges cached with fresh counts", () => {
    const cached = new Map<EntryId, number>([[eid("a1"), 7]]);
    const todo = uncountedEntries([...path, path[0]!], cached);
    expect(todo.map((e) => e.id)).toEqual([eid("u1"), eid("u2")]);

    const fresh: Record<EntryId, number> = {};
    for (const e of todo) fresh[e.id] = countEntryTokens(e, chars);
    expect(entryTokenRows(fresh, "claude")).toEqual([
      { entryId: eid("u1"), encoding: "claude", count: 3 },
      { entryId: eid("u2"), encoding: "claude", count: 5 },
    ]);
    expect([...mergeEntryCounts(path, cached, fresh).values()]).toEqual([3, 7, 5]);
  });

  it("cachedEntryTokens answers from the cache and counts the rest", () => {
    const counted: string[] = [];
    const entryTokens = cachedEntryTokens(new Map([[eid("a1"), 70]]), (t) => {
      counted.push(t);
      return t.length;
    });
    expect(path.map(entryTokens)).toEqual([3, 70, 5]);
    expect(counted).toEqual(["one", "three"]);
  });
});
