import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Block, Entry, Session } from "../session/entries";
import { asEntryId, asSessionId, type EntryId, type SessionId } from "../session/ids";
import { checkSessionGraph, type ExportedSession, exportGroveJson, parseGroveJson } from "./grove-json";
import { remapSessions } from "./remap-ids";

const TEXT = fc.constantFrom("", "hi", "multi\n\nline", "日本語", "<script>x</script>", '"quoted"', "a\u0000b");
const block: fc.Arbitrary<Block> = fc.oneof(
  TEXT.map((text): Block => ({ type: "text", text })),
  fc.record({ text: TEXT, signature: fc.option(fc.constant("sig"), { nil: undefined }) }).map(
    ({ text, signature }): Block => ({
      type: "thinking",
      text,
      ...(signature ? { signature, signedBy: "anthropic-messages" as const } : {}),
    }),
  ),
  fc
    .record({ n: fc.integer(), s: TEXT, l: fc.array(fc.boolean(), { maxLength: 3 }) })
    .map((args): Block => ({ type: "tool_call", id: "c1", name: "read", args })),
  fc.boolean().map((isError): Block => ({ type: "tool_result", callId: "c1", toolName: "read", text: "out", isError })),
  // The tool loop's fields: a result cut for the model (and for storage), citations, server tools.
  fc.record({ text: TEXT, shown: fc.nat({ max: 4 }), original: fc.option(fc.nat(), { nil: undefined }) }).map(
    ({ text, shown, original }): Block => ({
      type: "tool_result",
      callId: "c1|fc_1",
      text,
      isError: false,
      shownChars: shown,
      ...(original !== undefined ? { originalChars: original } : {}),
    }),
  ),
  TEXT.map((text): Block => ({ type: "text", text, citations: [{ url: "https://e.com/?q=<b>", title: text }] })),
  fc
    .record({
      part: fc.constantFrom("use" as const, "result" as const, "item" as const),
      tool: fc.constantFrom("web_search" as const, "code_execution" as const, "mcp" as const, "other" as const),
      output: fc.option(TEXT, { nil: undefined }),
    })
    .map(
      ({ part, tool, output }): Block => ({
        type: "server_tool",
        api: "anthropic-messages",
        provider: "anthropic",
        tool,
        name: tool === "mcp" ? "read_file" : tool,
        part,
        callId: "srvtoolu_1",
        ...(tool === "mcp" ? { server: "files" } : {}),
        ...(part !== "result" ? { input: { query: "q", n: [1, null] } } : {}),
        ...(output !== undefined ? { output } : {}),
        ...(tool === "web_search" ? { sources: [{ url: "https://e.com", title: "E" }] } : {}),
        ...(tool === "code_execution" ? { files: ["file_1"], isError: true } : {}),
        raw: { type: "opaque", nested: { keep: ["exactly", 1, true] } },
      }),
    ),
);

/** One entry made from its index, its parent and the entries before it (references point backwards). */
type Maker = (id: EntryId, sessionId: SessionId, parentId: EntryId | null, earlier: readonly EntryId[]) => Entry;

const maker: fc.Arbitrary<Maker> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.constantFrom("user" as const, "assistant" as const, "tool" as const), fc.array(block, { maxLength: 3 }))
      .map(
        ([role, content]): Maker =>
          (id, sessionId, parentId, earlier) => ({
            type: "message",
            id,
            sessionId,
            parentId,
            createdAt: earlier.length,
            role,
            content,
            status: "complete",
            ...(role === "assistant" && earlier.length > 0 ? { continues: earlier[0]! } : {}),
          }),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.nat().map(
      (pick): Maker =>
        (id, sessionId, parentId, earlier) => ({
          type: "compaction",
          id,
          sessionId,
          parentId,
          createdAt: earlier.length,
          summary: "digest",
          shortSummary: "short",
          firstKeptEntryId: earlier.length > 0 ? earlier[pick % earlier.length]! : null,
          keptUserTurnIds: earlier.slice(0, pick % 3),
          tokensBefore: 1000,
          tokensAfter: 100,
          reason: "manual",
          model: "m",
          // Grove's own details name entries (and must follow them in a copy); pi's are opaque.
          details:
            pick % 2 === 0
              ? {
                  kind: "grove-compaction",
                  version: 1,
                  splitTurnStartId: earlier[0] ?? null,
                  evictedUserTurnIds: earlier.slice(0, 1),
                  foldedUserTurns: earlier.slice(1, 2).map((id) => ({ id, tokens: 5 })),
                }
              : { readFiles: ["a.ts"], nested: { n: pick } },
        }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.nat().map(
      (pick): Maker =>
        (id, sessionId, parentId, earlier) =>
          earlier.length === 0
            ? {
                type: "handoff",
                id,
                sessionId,
                parentId,
                createdAt: 0,
                document: "doc",
                fromSessionId: asSessionId("elsewhere"),
                fromEntryId: asEntryId("far"),
              }
            : {
                type: "branch_summary",
                id,
                sessionId,
                parentId,
                createdAt: earlier.length,
                fromId: earlier[pick % earlier.length]!,
                summary: "tried X",
                model: "m",
              },
    ),
  },
);

/** Sessions of random trees: each entry's parent is any earlier entry (or none: another root). */
const sessionsArb: fc.Arbitrary<ExportedSession[]> = fc
  .array(
    fc.record({
      makers: fc.array(fc.tuple(maker, fc.nat(), fc.boolean()), { minLength: 0, maxLength: 12 }),
      leafPick: fc.nat(),
      labelPick: fc.option(fc.nat(), { nil: undefined }),
      title: TEXT,
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((specs) =>
    specs.map(({ makers, leafPick, labelPick, title }, si) => {
      const sessionId = asSessionId(`s${si}`);
      const ids: EntryId[] = [];
      const entries = makers.map(([make, parentPick, root], i) => {
        const id = asEntryId(`s${si}-e${i}`);
        const parentId = root || ids.length === 0 ? null : ids[parentPick % ids.length]!;
        const entry = make(id, sessionId, parentId, [...ids]);
        ids.push(id);
        return entry;
      });
      const session: Session = {
        id: sessionId,
        title,
        titleSource: "user",
        createdAt: 1,
        updatedAt: 2,
        leafId: ids.length > 0 ? ids[leafPick % ids.length]! : null,
        ...(si > 0 ? { parentSessionId: asSessionId("s0"), parentEntryId: asEntryId("s0-e0") } : {}),
      };
      const labels: Record<EntryId, string> =
        labelPick !== undefined && ids.length > 0 ? { [ids[labelPick % ids.length]!]: "bookmark" } : {};
      return { session, entries, labels };
    }),
  );

/** Every id string reachable from a value (ids in these tests all start with "s"). */
function idsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === "string" && /^s\d/.test(value)) out.add(value);
  else if (Array.isArray(value)) for (const v of value) idsIn(v, out);
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (/^s\d/.test(k)) out.add(k);
      idsIn(v, out);
    }
  }
  return out;
}

describe("Grove JSON round trip (property)", () => {
  it("export -> parse gives the same sessions, and exporting again the same text", () => {
    fc.assert(
      fc.property(sessionsArb, (sessions) => {
        const text = exportGroveJson(sessions);
        const parsed = parseGroveJson(text);
        if (parsed.kind !== "ok") throw new Error(parsed.message);
        expect(parsed.sessions).toEqual(sessions);
        expect(exportGroveJson(parsed.sessions)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});

describe("Keep both: remapSessions (property)", () => {
  it("the copies are valid, share no id with the originals, and have the same shape", () => {
    fc.assert(
      fc.property(sessionsArb, fc.nat(), (sessions, pick) => {
        // Remap every session, or all but one (then links into the kept one stay as they were).
        const keep = pick % (sessions.length + 1);
        const toRemap = new Set(sessions.filter((_, i) => i !== keep).map((s) => s.session.id));
        let n = 0;
        const copies = remapSessions(sessions, toRemap, {
          newSessionId: () => asSessionId(`new-s-${n++}`),
          newEntryId: () => asEntryId(`new-e-${n++}`),
        });
        expect(checkSessionGraph(copies)).toBeNull();
        expect(
          checkSessionGraph([
            ...sessions.filter((s) => !toRemap.has(s.session.id)),
            ...copies.filter((_, i) => toRemap.has(sessions[i]!.session.id)),
          ]),
        ).toBeNull();
        copies.forEach((copy, i) => {
          const original = sessions[i]!;
          const remapped = toRemap.has(original.session.id);
          if (!remapped) {
            expect(copy).toBe(original);
            return;
          }
          // No id of a copied session (or of its entries) is left in a copy: links to sessions not
          // copied, or outside the file, stay as they were.
          const copiedIds = new Set<string>(
            sessions
              .filter((s) => toRemap.has(s.session.id))
              .flatMap((s) => [s.session.id, ...s.entries.map((e) => e.id)]),
          );
          expect([...idsIn(copy)].filter((id) => copiedIds.has(id))).toEqual([]);
          // Same shape: replacing ids back through the positions gives the original.
          const back = new Map<string, string>([[copy.session.id, original.session.id]]);
          for (const [k, c] of copies.entries()) {
            back.set(c.session.id, sessions[k]!.session.id);
            for (const [j, e] of c.entries.entries()) back.set(e.id, sessions[k]!.entries[j]!.id);
          }
          expect(restore(copy, back)).toEqual(original);
        });
      }),
      { numRuns: 200 },
    );
  });
});

/** Replaces every id string (values and keys) through `back`. */
function restore<T>(value: T, back: ReadonlyMap<string, string>): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return back.get(v) ?? v;
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [back.get(k) ?? k, walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}
