import { describe, expect, it } from "vitest";
import type { CompactionEntry, Entry, Session } from "../session/entries";
import { asEntryId, asSessionId } from "../session/ids";
import { type ExportedSession, exportGroveJson, parseGroveJson } from "./grove-json";
import { exportPiJsonl } from "./pi/export";
import { parsePiJsonl } from "./pi/import";

const S = asSessionId("s-native");
const e = asEntryId;
// Key order and odd fields on purpose: the provider's material must come back unchanged.
const ITEMS = [
  { role: "user", type: "message", content: [{ type: "input_text", text: "Miso" }], extra: { z: 1, a: 2 } },
  { type: "compaction", id: "cmp_1", encrypted_content: "OPAQUE==" },
];
const BLOCK = { type: "compaction", signature: "SIG", content: "Claude's summary.", encrypted_content: "ENC" } as const;

function sample(c: Partial<CompactionEntry>): ExportedSession[] {
  const session: Session = { id: S, title: "t", titleSource: "user", createdAt: 1, updatedAt: 2, leafId: e("c1") };
  const entries: Entry[] = [
    {
      type: "message",
      id: e("u1"),
      sessionId: S,
      parentId: null,
      createdAt: 1,
      role: "user",
      status: "complete",
      content: [{ type: "text", text: "My cat is Miso." }],
    },
    {
      type: "message",
      id: e("a1"),
      sessionId: S,
      parentId: e("u1"),
      createdAt: 2,
      role: "assistant",
      status: "complete",
      content: [{ type: "text", text: "Nice." }],
    },
    {
      type: "compaction",
      id: e("c1"),
      sessionId: S,
      parentId: e("a1"),
      createdAt: 3,
      summary: "S",
      shortSummary: "s",
      firstKeptEntryId: null,
      keptUserTurnIds: [e("u1")],
      tokensBefore: 10,
      tokensAfter: 2,
      reason: "manual",
      model: "m",
      ...c,
    },
  ];
  return [{ session, entries, labels: {} }];
}

const openai: Partial<CompactionEntry> = {
  compactedBy: "openai",
  preserveData: {
    openaiRemoteCompaction: { api: "openai-responses", provider: "openai", model: "gpt-5", items: ITEMS },
  },
};
const anthropic: Partial<CompactionEntry> = {
  compactedBy: "anthropic",
  preserveData: { anthropicCompaction: { api: "anthropic-messages", provider: "anthropic", model: "c", block: BLOCK } },
};

const compactionOf = (sessions: ExportedSession[]) => sessions[0]?.entries.find((x) => x.type === "compaction");

describe("provider-native compaction in exports", () => {
  for (const [name, extra] of [
    ["OpenAI", openai],
    ["Claude", anthropic],
    ["fallback", { compactedBy: "grove", nativeFallback: "HTTP 500" } as Partial<CompactionEntry>],
  ] as const) {
    it(`Grove JSON keeps a ${name} compaction byte-identical`, () => {
      const text = exportGroveJson(sample(extra));
      const back = parseGroveJson(text);
      if (back.kind !== "ok") throw new Error(back.message);
      expect(exportGroveJson(back.sessions)).toBe(text);
      const c = compactionOf(back.sessions) as CompactionEntry;
      expect(c.preserveData).toEqual(extra.preserveData);
      expect(c.compactedBy).toBe(extra.compactedBy);
    });

    it(`pi export keeps a ${name} compaction through import`, () => {
      const back = parsePiJsonl(exportPiJsonl(sample(extra)[0] as ExportedSession));
      if (back.kind !== "ok") throw new Error(back.message);
      const c = compactionOf(back.sessions) as CompactionEntry;
      expect(JSON.stringify(c.preserveData)).toBe(JSON.stringify(extra.preserveData));
      expect(c.nativeFallback).toBe(extra.nativeFallback);
    });
  }

  it("pi export writes pi's preserveData.openaiRemoteCompaction for an OpenAI compaction", () => {
    const lines = exportPiJsonl(sample(openai)[0] as ExportedSession)
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = lines.find((l) => l.type === "compaction");
    expect(line?.preserveData).toEqual({
      openaiRemoteCompaction: { provider: "openai", replacementHistory: ITEMS, compactionItem: ITEMS[1] },
    });
  });
});
