/**
 * Grove's own export format ("grove-session-export", version 1): whole sessions with every
 * branch, plus entry labels. Pure: text in, text out. Keys and settings are never part of it.
 */
import { z } from "zod";
import type { Entry, Session } from "../session/entries";
import { asEntryId, asSessionId, type BlobId, type EntryId, type SessionId } from "../session/ids";
import { MAX_TIME_MS } from "../time";
import { nativeCompactionFields } from "./native-compaction-schema";
import type { SkippedRecord } from "./skipped";
import { citationSchema, serverToolBlockSchema, toolResultTruncationFields } from "./tool-block-schema";

export const GROVE_EXPORT_FORMAT = "grove-session-export";
const GROVE_EXPORT_VERSION = 1;

/** One session with all its entries (every branch) and its entry labels. */
export type ExportedSession = {
  session: Session;
  entries: Entry[];
  labels: Record<EntryId, string>;
  /**
   * The attachment data its entries reference (images, PDFs), base64 inside the file so the export is
   * lossless. Absent when there is none (and in files written before attachments existed).
   */
  blobs?: ExportedBlob[];
  /**
   * Bytes (base64) of images its entries refer to, by blob id, where a format carries them:
   * filled by the pi import (the import job stores them as blobs) and read by the pi export.
   */
  images?: ReadonlyMap<BlobId, { readonly data: string; readonly mimeType: string }>;
};

/** One stored attachment: `id` is the SHA-256 of the bytes (hex), `data` the bytes in base64. */
export type ExportedBlob = { id: BlobId; mimeType: string; data: string };

/** `skipped`: records of the file left out, each with its title and why (formats that skip rather than refuse). */
export type ImportResult =
  | { kind: "ok"; sessions: ExportedSession[]; skipped?: SkippedRecord[] }
  | { kind: "error"; message: string };

// ---- schema ---------------------------------------------------------------------------------

const entryId = z.string().min(1).transform(asEntryId);
const sessionId = z.string().min(1).transform(asSessionId);
const apiKind = z.enum(["anthropic-messages", "openai-responses", "openai-chat"]);
const nonNegative = z.number().finite().nonnegative();
/** A time a Date can hold (1e300 once made a chat unopenable). */
const time = nonNegative.max(MAX_TIME_MS, { message: "not a date a browser can show" });

const blobId = z
  .string()
  .min(1)
  .transform((s) => s as BlobId);
const positive = z.number().finite().positive();

const block = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string(), citations: z.array(citationSchema).optional() }),
  z.object({
    type: z.literal("image"),
    blobId,
    mimeType: z.string(),
    name: z.string().optional(),
    size: nonNegative.optional(),
    width: positive.optional(),
    height: positive.optional(),
  }),
  z.object({
    type: z.literal("document"),
    blobId,
    mimeType: z.string(),
    name: z.string(),
    size: nonNegative,
    pages: positive.optional(),
  }),
  z.object({ type: z.literal("text_file"), name: z.string(), mimeType: z.string(), text: z.string() }),
  z.object({
    type: z.literal("thinking"),
    text: z.string(),
    signature: z.string().optional(),
    redactedData: z.string().optional(),
    signedBy: apiKind.optional(),
    label: z.string().optional(),
  }),
  z.object({
    type: z.literal("reasoning"),
    api: apiKind,
    provider: z.string(),
    id: z.string(),
    encryptedContent: z.string().optional(),
    summary: z.array(z.string()),
  }),
  z.object({ type: z.literal("tool_call"), id: z.string(), name: z.string(), args: z.unknown() }),
  z.object({
    type: z.literal("tool_result"),
    callId: z.string(),
    toolName: z.string().optional(),
    text: z.string(),
    isError: z.boolean(),
    ...toolResultTruncationFields,
  }),
  serverToolBlockSchema,
]);

const base = {
  id: entryId,
  sessionId,
  parentId: entryId.nullable(),
  createdAt: time,
  piExtra: z.unknown().optional(),
};

const usageSchema = z.object({
  input: nonNegative,
  output: nonNegative,
  cacheRead: nonNegative.optional(),
  cacheWrite: nonNegative.optional(),
});
/** What maintenance requests reported, per model (entries.ts `ModelUsage`). */
const sideUsage = z.array(z.object({ model: z.string(), usage: usageSchema })).optional();

const messageEntry = z.object({
  ...base,
  type: z.literal("message"),
  role: z.enum(["user", "assistant", "tool"]),
  content: z.array(block),
  status: z.enum(["complete", "stopped", "interrupted", "error"]),
  error: z
    .object({
      kind: z.enum([
        "context_overflow",
        "output_length",
        "rate_limit",
        "quota",
        "auth",
        "overloaded",
        "server",
        "network",
        "invalid_request",
        "aborted",
        "unknown",
      ]),
      message: z.string(),
      status: z.number().optional(),
      retryAfterMs: z.number().optional(),
    })
    .optional(),
  provider: z.string().optional(),
  api: apiKind.optional(),
  model: z.string().optional(),
  usage: usageSchema.optional(),
  stopReason: z.enum(["end", "length", "tool_use", "refusal", "aborted", "error"]).optional(),
  continues: entryId.optional(),
});

const compactionEntry = z.object({
  ...base,
  type: z.literal("compaction"),
  summary: z.string(),
  shortSummary: z.string(),
  firstKeptEntryId: entryId.nullable(),
  keptUserTurnIds: z.array(entryId),
  tokensBefore: nonNegative,
  tokensAfter: nonNegative,
  reason: z.enum(["manual", "threshold", "overflow", "length", "preflight", "idle"]),
  instructions: z.string().optional(),
  model: z.string(),
  framing: z.string().optional(),
  details: z.unknown().optional(),
  ...nativeCompactionFields,
  sideUsage,
});

const branchSummaryEntry = z.object({
  ...base,
  type: z.literal("branch_summary"),
  fromId: entryId,
  summary: z.string(),
  instructions: z.string().optional(),
  model: z.string(),
  details: z.unknown().optional(),
  sideUsage,
});

const handoffEntry = z.object({
  ...base,
  type: z.literal("handoff"),
  document: z.string(),
  fromSessionId: sessionId,
  fromEntryId: entryId,
  sideUsage,
});

const modelChangeEntry = z.object({
  ...base,
  type: z.literal("model_change"),
  provider: z.string(),
  modelId: z.string(),
});
const thinkingLevelChangeEntry = z.object({
  ...base,
  type: z.literal("thinking_level_change"),
  thinkingLevel: z.string(),
});
const customDataEntry = z.object({
  ...base,
  type: z.literal("custom"),
  customType: z.string(),
  data: z.unknown().optional(),
});
const contextNoteEntry = z.object({
  ...base,
  type: z.literal("context_note"),
  customType: z.string(),
  content: z.array(block),
  display: z.boolean(),
  details: z.unknown().optional(),
  asMessage: z.boolean().optional(),
});
const commandEntry = z.object({
  ...base,
  type: z.literal("command"),
  command: z.string(),
  output: z.string(),
  exitCode: z.number().nullable().optional(),
  cancelled: z.boolean().optional(),
  truncated: z.boolean().optional(),
  fullOutputPath: z.string().optional(),
  excludeFromContext: z.boolean().optional(),
});

/** One entry as Grove stores it; sync checks every record it receives with it too (core/sync/record-schema.ts). */
export const entrySchema: z.ZodType<Entry> = z.discriminatedUnion("type", [
  messageEntry,
  compactionEntry,
  branchSummaryEntry,
  handoffEntry,
  modelChangeEntry,
  thinkingLevelChangeEntry,
  customDataEntry,
  contextNoteEntry,
  commandEntry,
]);

const thinkingSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("off") }),
  z.object({ kind: z.literal("anthropic-budget"), budgetTokens: z.number() }),
  z.object({ kind: z.literal("anthropic-adaptive"), effort: z.enum(["low", "medium", "high", "xhigh", "max"]) }),
  z.object({ kind: z.literal("openai-effort"), effort: z.enum(["minimal", "low", "medium", "high"]) }),
]);

/** A chat's own model parameters (chat-params.ts), kept across export and import (and sync). */
export const chatParamsSchema = z.object({
  temperature: z.number().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  thinking: thinkingSchema.optional(),
});

/**
 * A chat's tool choice (core/session/chat-tools.ts): servers by this browser's ids (no URL, no header:
 * credentials never leave Settings › Tools; elsewhere an unknown id is ignored), provider and Grove
 * tools, the tools allowed in the chat.
 */
const chatToolsSchema = z.object({
  servers: z.array(z.string()),
  provider: z.array(z.enum(["web_search", "code_execution"])),
  grove: z.array(z.enum(["search_my_chats", "read_chat"])).optional(),
  allowed: z.array(z.string()).optional(),
});

const sessionSchema: z.ZodType<Session> = z.object({
  id: sessionId,
  title: z.string(),
  titleSource: z.enum(["auto", "user"]),
  createdAt: time,
  updatedAt: time,
  leafId: entryId.nullable(),
  systemPrompt: z.string().optional(),
  model: z.object({ providerId: z.string(), modelId: z.string() }).optional(),
  params: chatParamsSchema.optional(),
  tools: chatToolsSchema.optional(),
  parentSessionId: sessionId.optional(),
  parentEntryId: entryId.optional(),
  importedFrom: z.string().optional(),
  piHeader: z.record(z.string(), z.unknown()).optional(),
});

const fileSchema = z.object({
  format: z.literal(GROVE_EXPORT_FORMAT),
  version: z.literal(GROVE_EXPORT_VERSION),
  sessions: z.array(
    z.object({
      session: sessionSchema,
      entries: z.array(entrySchema),
      labels: z.record(z.string(), z.string()),
      blobs: z
        .array(
          z.object({
            id: blobId,
            mimeType: z.string(),
            data: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, "not base64"),
          }),
        )
        .optional(),
    }),
  ),
});

// ---- export ---------------------------------------------------------------------------------

/**
 * JSON.stringify replacer: every plain object written with its keys sorted, so the same data always
 * gives the same text. Each sorted copy is made just before it is written and dropped right after —
 * rebuilding the whole tree first held a second copy of a 100 MB history in memory.
 */
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = (value as Record<string, unknown>)[key];
  return out;
}

export function exportGroveJson(sessions: readonly ExportedSession[]): string {
  const file = {
    format: GROVE_EXPORT_FORMAT,
    version: GROVE_EXPORT_VERSION,
    sessions: sessions.map((s) => ({
      session: s.session,
      entries: s.entries,
      labels: s.labels,
      ...(s.blobs && s.blobs.length > 0 ? { blobs: s.blobs } : {}),
    })),
  };
  return `${JSON.stringify(file, sortedKeys, 2)}\n`;
}

// ---- parse ----------------------------------------------------------------------------------

function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || "(top level)";
}

/** JSON.parse with a message that says what went wrong in words a user can act on. `what`: "ChatGPT export" → "The ChatGPT export file…"; null → "The file…". */
export function parseJsonText(
  text: string,
  what: string | null,
): { ok: true; value: unknown } | { ok: false; message: string } {
  const subject = what ? `The ${what} file` : "The file";
  if (text.trim() === "") return { ok: false, message: `${subject} is empty.` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    // Cut-off files fail at (or just before) their last character, whatever the engine's wording.
    const at = /position (\d+)/.exec(detail)?.[1];
    const truncated =
      /end of (JSON )?input|Unterminated/i.test(detail) ||
      (at !== undefined && Number(at) >= text.trimEnd().length - 1);
    return {
      ok: false,
      message: truncated
        ? `${subject} is not complete JSON (it looks truncated): ${detail}`
        : `${subject} is not valid JSON: ${detail}`,
    };
  }
}

/** Structural checks zod can't express: ids, parent links, cycles, leaf. Returns an error message or null. */
export function checkSessionGraph(sessions: readonly ExportedSession[]): string | null {
  const seenSessions = new Set<SessionId>();
  const seenEntries = new Map<EntryId, number>();
  for (const [si, { session, entries, labels }] of sessions.entries()) {
    const where = `sessions[${si}] ("${session.title}")`;
    if (seenSessions.has(session.id)) return `${where}: duplicate session id ${session.id}.`;
    seenSessions.add(session.id);
    const byId = new Map<EntryId, Entry>();
    for (const [ei, e] of entries.entries()) {
      const prev = seenEntries.get(e.id);
      if (prev !== undefined) {
        return `${where}.entries[${ei}]: duplicate entry id ${e.id} (also in sessions[${prev}]).`;
      }
      seenEntries.set(e.id, si);
      byId.set(e.id, e);
      if (e.sessionId !== session.id) {
        return `${where}.entries[${ei}]: entry ${e.id} belongs to session ${e.sessionId}, not ${session.id}.`;
      }
    }
    for (const [ei, e] of entries.entries()) {
      if (e.parentId !== null && !byId.has(e.parentId)) {
        return `${where}.entries[${ei}]: entry ${e.id} has parentId ${e.parentId}, which is not an entry of this session.`;
      }
    }
    // Cycle check: every entry must reach a root. `done` = known to reach a root.
    const done = new Set<EntryId>();
    for (const e of entries) {
      const path = new Set<EntryId>();
      let cur: Entry | undefined = e;
      while (cur && !done.has(cur.id)) {
        if (path.has(cur.id)) {
          return `${where}: entries form a cycle through parentId (at entry ${cur.id}).`;
        }
        path.add(cur.id);
        cur = cur.parentId === null ? undefined : byId.get(cur.parentId);
      }
      for (const id of path) done.add(id);
    }
    const dangling = danglingReference(entries, byId);
    if (dangling) return `${where}: ${dangling}`;
    if (session.leafId !== null && !byId.has(session.leafId)) {
      return `${where}: leafId ${session.leafId} is not an entry of this session.`;
    }
    for (const id of Object.keys(labels)) {
      if (!byId.has(asEntryId(id))) {
        return `${where}.labels: label for ${id}, which is not an entry of this session.`;
      }
    }
  }
  return null;
}

/** A reference from one entry to another of the same session that names no entry of it, in words; or null. */
function danglingReference(entries: readonly Entry[], byId: ReadonlyMap<EntryId, Entry>): string | null {
  for (const [ei, e] of entries.entries()) {
    const refs: Array<[string, EntryId]> = [];
    if (e.type === "compaction") {
      if (e.firstKeptEntryId !== null) refs.push(["firstKeptEntryId", e.firstKeptEntryId]);
      for (const id of e.keptUserTurnIds) refs.push(["keptUserTurnIds", id]);
    } else if (e.type === "branch_summary") refs.push(["fromId", e.fromId]);
    else if (e.type === "message" && e.continues !== undefined) refs.push(["continues", e.continues]);
    for (const [field, id] of refs) {
      if (!byId.has(id)) return `entries[${ei}]: ${field} ${id} of entry ${e.id} is not an entry of this session.`;
    }
  }
  return null;
}

export function parseGroveJson(text: string): ImportResult {
  const json = parseJsonText(text, "Grove export");
  return json.ok ? parseGroveValue(json.value) : { kind: "error", message: json.message };
}

/** The same checks as parseGroveJson, on JSON already parsed (a caller that sniffed the format parsed it once). */
export function parseGroveValue(raw: unknown): ImportResult {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return { kind: "error", message: "Not a Grove export: the file is not a JSON object." };
  }
  const head = raw as { format?: unknown; version?: unknown };
  if (head.format !== GROVE_EXPORT_FORMAT) {
    return {
      kind: "error",
      message: `Not a Grove export: format is ${JSON.stringify(head.format) ?? "missing"}, expected "${GROVE_EXPORT_FORMAT}".`,
    };
  }
  if (head.version !== GROVE_EXPORT_VERSION) {
    return {
      kind: "error",
      message: `Unsupported Grove export version ${JSON.stringify(head.version) ?? "(missing)"}: this version of Grove reads version ${GROVE_EXPORT_VERSION}.`,
    };
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more problems)` : "";
    return {
      kind: "error",
      message: `Invalid Grove export at ${issue ? formatPath(issue.path) : "(unknown)"}: ${issue?.message ?? "invalid"}${more}.`,
    };
  }
  const sessions: ExportedSession[] = parsed.data.sessions.map((s) => ({
    session: s.session,
    entries: s.entries,
    labels: s.labels as Record<EntryId, string>,
    ...(s.blobs && s.blobs.length > 0 ? { blobs: s.blobs } : {}),
  }));
  const problem = checkSessionGraph(sessions);
  if (problem) return { kind: "error", message: `Invalid Grove export: ${problem}` };
  return { kind: "ok", sessions };
}
