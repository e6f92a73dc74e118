/**
 * What a decrypted sync record must look like before anything of it is applied (issue 24: a record
 * sealed with the right key can still be malformed, written by a broken or hostile client). The
 * same zod schemas as Grove's import (core/export/grove-json.ts) for entries and chat parameters;
 * the record's own shape on top. Whether its ids match the document it came in is the caller's
 * check (the document id is an HMAC only the sync worker can compute). Pure.
 */
import { z } from "zod";
import { chatParamsSchema, entrySchema } from "../export/grove-json";
import { asEntryId, asSessionId } from "../session/ids";
import { HLC_PATTERN } from "./hlc";
import type { SyncRecord } from "./records";

const sessionId = z.string().min(1).transform(asSessionId);
const entryId = z.string().min(1).transform(asEntryId);
const hlc = z.string().regex(HLC_PATTERN, "not a clock stamp");
const time = z.number().finite().nonnegative();

const sessionMeta = z.object({
  id: sessionId,
  title: z.string(),
  titleSource: z.enum(["auto", "user"]),
  createdAt: time,
  systemPrompt: z.string().optional(),
  model: z.object({ providerId: z.string(), modelId: z.string() }).optional(),
  parentSessionId: sessionId.optional(),
  parentEntryId: entryId.optional(),
  importedFrom: z.string().optional(),
  params: chatParamsSchema.optional(),
  pinned: z.boolean().optional(),
  archived: z.boolean().optional(),
  piHeader: z.record(z.string(), z.unknown()).optional(),
});

const encodedBlob = z.object({ $blob: z.string(), type: z.string() });

const recordSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("entry"), entry: entrySchema }),
  z
    .object({
      kind: z.literal("blob"),
      id: z.string().min(1),
      row: z.object({ id: z.string(), data: encodedBlob }).catchall(z.unknown()),
    })
    .refine((r) => r.row.id === r.id, { message: "the blob's row names another blob", path: ["row", "id"] }),
  z
    .object({
      kind: z.literal("session"),
      id: sessionId,
      hlc,
      final: z.literal(true).optional(),
      session: sessionMeta.nullable(),
    })
    .refine((r) => (r.final === true) === (r.session === null), {
      message: "settings and deletion disagree",
      path: ["session"],
    })
    .refine((r) => r.session === null || r.session.id === r.id, {
      message: "the settings name another session",
      path: ["session", "id"],
    }),
  z.object({ kind: z.literal("leaf"), id: sessionId, hlc, leafId: entryId.nullable(), updatedAt: time }),
  z.object({ kind: z.literal("label"), id: entryId, hlc, sessionId, text: z.string().nullable() }),
]);

type ParsedRecord = { ok: true; record: SyncRecord } | { ok: false; problem: string };

/**
 * The record in `value` if it is a well-formed sync record, else what is wrong with it (in words).
 * A record that passes is returned as it came: a field a later Grove added is kept, not stripped
 * (what is stored here must be what the other device wrote).
 */
export function parseSyncRecord(value: unknown): ParsedRecord {
  const parsed = recordSchema.safeParse(value);
  if (parsed.success) return { ok: true, record: value as SyncRecord };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  return { ok: false, problem: `not a valid sync record${where}: ${issue?.message ?? "invalid"}` };
}
