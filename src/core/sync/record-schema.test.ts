import { describe, expect, it } from "vitest";
import type { Entry } from "../session/entries";
import { asEntryId, asSessionId } from "../session/ids";
import { encodeHlc } from "./hlc";
import { parseSyncRecord } from "./record-schema";
import type { SyncRecord } from "./records";

const sid = asSessionId("0190a0a0-0000-7000-8000-000000000001");
const eid = asEntryId("0190a0a0-0000-7000-8000-000000000011");
const hlc = encodeHlc({ wall: 1_700_000_000_000, counter: 0, node: "a1b2c3d4" });
const entry: Entry = {
  id: eid,
  sessionId: sid,
  parentId: null,
  createdAt: 5,
  type: "message",
  role: "user",
  content: [{ type: "text", text: "hello" }],
  status: "complete",
};

const good: SyncRecord[] = [
  { kind: "entry", entry },
  { kind: "blob", id: "b1", row: { id: "b1", data: { $blob: "AAEC", type: "image/png" }, mimeType: "image/png" } },
  {
    kind: "session",
    id: sid,
    hlc,
    session: {
      id: sid,
      title: "Trip",
      titleSource: "user",
      createdAt: 1,
      pinned: true,
      archived: true,
      params: { temperature: 0.3, thinking: { kind: "off" } },
      piHeader: { cwd: "/home/me" },
    },
  },
  { kind: "session", id: sid, hlc, final: true, session: null },
  { kind: "leaf", id: sid, hlc, leafId: eid, updatedAt: 9 },
  { kind: "leaf", id: sid, hlc, leafId: null, updatedAt: 9 },
  { kind: "label", id: eid, hlc, sessionId: sid, text: "start" },
  { kind: "label", id: eid, hlc, sessionId: sid, text: null },
];

describe("checking a received sync record", () => {
  it.each(good.map((r) => [r.kind, r] as const))("accepts a well-formed %s record as it is", (_kind, record) => {
    expect(parseSyncRecord(record)).toEqual({ ok: true, record });
  });

  const bad: Array<[string, unknown]> = [
    ["not an object", "HIJACKED"],
    ["an unknown kind", { kind: "setting", id: "x" }],
    ["an entry without an id", { kind: "entry", entry: { ...entry, id: undefined } }],
    ["an entry whose id is not text", { kind: "entry", entry: { ...entry, id: { $gt: "" } } }],
    ["an entry of an unknown type", { kind: "entry", entry: { ...entry, type: "script" } }],
    ["a session without a stamp", { kind: "session", id: sid, session: null, final: true }],
    ["a stamp that is not a clock stamp", { kind: "leaf", id: sid, hlc: "zzzz", leafId: null, updatedAt: 1 }],
    [
      "settings naming another session",
      {
        kind: "session",
        id: sid,
        hlc,
        session: {
          id: "0190a0a0-0000-7000-8000-000000000002",
          title: "HIJACKED-TITLE",
          titleSource: "user",
          createdAt: 1,
        },
      },
    ],
    ["settings missing where the session is not deleted", { kind: "session", id: sid, hlc, session: null }],
    ["a tombstone carrying settings", { kind: "session", id: sid, hlc, final: true, session: good[2] }],
    ["a leaf with a numeric target", { kind: "leaf", id: sid, hlc, leafId: 7, updatedAt: 1 }],
    ["a label of no session", { kind: "label", id: eid, hlc, text: "x" }],
    [
      "a blob whose row names another blob",
      { kind: "blob", id: "b1", row: { id: "b2", data: { $blob: "", type: "" } } },
    ],
    ["a blob without bytes", { kind: "blob", id: "b1", row: { id: "b1" } }],
    [
      "pinned that is not a boolean",
      { kind: "session", id: sid, hlc, session: { ...(good[2] as { session: object }).session, pinned: "yes" } },
    ],
  ];
  it.each(bad)("refuses %s, saying what is wrong", (_what, value) => {
    const result = parseSyncRecord(value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(/\S/);
  });
});
