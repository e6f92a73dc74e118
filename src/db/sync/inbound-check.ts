/**
 * A decrypted document checked as a record before anything of it is applied (issue 24 items 5, 6):
 * well-formed (core/sync/record-schema.ts, the import's schemas), and naming the record its
 * document id was made from. GCM binds a body to its document id (crypto.ts), and the document id
 * is the HMAC of the record's name (`s:<session id>`), so recomputing it from the body's own ids
 * binds every id inside too: a body sealed with the right key but naming another chat, entry or
 * kind than its document is refused. What fits the database here (a leaf on an entry of the same
 * chat) is inbound.ts's check.
 */
import { parseSyncRecord } from "../../core/sync/record-schema";
import { recordRef, type SyncRecord } from "../../core/sync/records";
import { docIdFor, type SyncKeys } from "./crypto";

type CheckedRecord = { ok: true; record: SyncRecord } | { ok: false; problem: string };

export async function checkRecord(keys: SyncKeys, docId: string, value: unknown): Promise<CheckedRecord> {
  const parsed = parseSyncRecord(value);
  if (!parsed.ok) return parsed;
  if ((await docIdFor(keys, recordRef(parsed.record))) !== docId) {
    return { ok: false, problem: "the record names another record than its document" };
  }
  return parsed;
}
