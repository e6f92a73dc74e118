import { describe, expect, it } from "vitest";
import type { Entry } from "../../core/session/entries";
import { asEntryId, asSessionId } from "../../core/session/ids";
import { encodeHlc } from "../../core/sync/hlc";
import { refOf, type SyncRecord } from "../../core/sync/records";
import { deriveKeys, docIdFor } from "./crypto";
import { checkRecord } from "./inbound-check";

// Few iterations keep the test fast (the app's own count is checked in crypto.test.ts).
const keys = await deriveKeys("correct horse", { salt: btoa("0123456789abcdef"), iterations: 1_000 });
const one = asSessionId("0190a0a0-0000-7000-8000-000000000001");
const two = asSessionId("0190a0a0-0000-7000-8000-000000000002");
const e1 = asEntryId("0190a0a0-0000-7000-8000-000000000011");
const e2 = asEntryId("0190a0a0-0000-7000-8000-000000000012");
const hlc = encodeHlc({ wall: 1_700_000_000_000, counter: 0, node: "n" });
const entry = (id: typeof e1, sessionId: typeof one): Entry => ({
  id,
  sessionId,
  parentId: null,
  createdAt: 1,
  type: "message",
  role: "user",
  content: [{ type: "text", text: "hi" }],
  status: "complete",
});
const meta = (id: typeof one, title: string) => ({ id, title, titleSource: "user" as const, createdAt: 1 });

describe("a decrypted record checked against its document", () => {
  it("accepts each kind of record in the document its ids name", async () => {
    const records: Array<[string, SyncRecord]> = [
      [refOf("entry", e1), { kind: "entry", entry: entry(e1, one) }],
      [refOf("session", one), { kind: "session", id: one, hlc, session: meta(one, "Trip") }],
      [refOf("leaf", one), { kind: "leaf", id: one, hlc, leafId: e1, updatedAt: 2 }],
      [refOf("label", e1), { kind: "label", id: e1, hlc, sessionId: one, text: "x" }],
      [refOf("blob", "b1"), { kind: "blob", id: "b1", row: { id: "b1", data: { $blob: "", type: "image/png" } } }],
    ];
    for (const [ref, record] of records) {
      expect(await checkRecord(keys, await docIdFor(keys, ref), record)).toEqual({ ok: true, record });
    }
  });

  it("refuses a body naming another record than its document: another chat's settings, leaf or entry", async () => {
    const hijacks: Array<[string, SyncRecord]> = [
      // Chat one's settings document, sealed with the right key, renaming chat two.
      [refOf("session", one), { kind: "session", id: two, hlc, session: meta(two, "HIJACKED-TITLE") }],
      [refOf("leaf", one), { kind: "leaf", id: two, hlc, leafId: e1, updatedAt: 2 }],
      [refOf("entry", e1), { kind: "entry", entry: entry(e2, one) }],
      [refOf("label", e1), { kind: "label", id: e2, hlc, sessionId: one, text: "x" }],
      // The same ids under another kind's document.
      [refOf("leaf", one), { kind: "session", id: one, hlc, session: meta(one, "Trip") }],
    ];
    for (const [ref, record] of hijacks) {
      const result = await checkRecord(keys, await docIdFor(keys, ref), record);
      expect(result, JSON.stringify(record).slice(0, 60)).toEqual({
        ok: false,
        problem: expect.stringMatching(/another/),
      });
    }
  });

  it("refuses a malformed record before its ids are read", async () => {
    const docId = await docIdFor(keys, refOf("entry", e1));
    expect(await checkRecord(keys, docId, { kind: "entry", entry: { id: e1 } })).toMatchObject({ ok: false });
    expect(await checkRecord(keys, docId, "HIJACKED")).toMatchObject({ ok: false });
  });
});
