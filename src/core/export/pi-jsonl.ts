/**
 * pi coding-agent session files (JSONL) in and out. `parsePiJsonl` imports format versions 1, 2 and
 * 3 as one Grove session with every branch; `exportPiJsonl` writes a Grove session as a version 3
 * file pi can open. Pure: text in, data out (no I/O, no blobs).
 *
 * Import is a chain of steps, one per format change, then one converter (pi's own loader does the
 * same, `migrateV1ToV2` then `migrateV2ToV3`):
 *   readLines (one JSON object per line; line numbers kept for every error message)
 *   → migrateV1ToV2 (ids and parent links in file order, `firstKeptEntryIndex` → `firstKeptEntryId`)
 *   → migrateV2ToV3 (message role `hookMessage` → `custom`)
 *   → checkTree (ids present and unique, parents exist, no cycles)
 *   → convertV3 (Grove entries) → checkSessionGraph.
 *
 * Representation choices (Grove's Entry union is closed, so no new entry types):
 * - `model_change` → a user-role message with one bracketed note, `[Model changed to <model>
 *   (<provider>)]`. pi keeps model changes out of the model's context, but Grove has no message
 *   that is shown and never sent, except an `error` reply without content, which would show as a
 *   failure with a Retry button. So Grove's model does see this one line (merged into the next user
 *   turn by build-context). A user-role note is the least bad choice: clearly marked, a dozen
 *   tokens, and no words put in the assistant's mouth. Export turns exactly that note back into a
 *   `model_change`, so pi never sees it as text.
 * - Aborted replies stay as they were seen: status "stopped", stopReason "aborted", pi's
 *   `errorMessage` as `error` (kind "aborted"). Failed replies: status "error", kind "unknown"
 *   (classification lives in providers/, which core may not import).
 * - `bashExecution` → a user message with the text pi itself sends for it (`Ran \`cmd\`` + output);
 *   `custom` (v2 `hookMessage`) messages and `custom_message` entries → user messages with their
 *   content, which is also what pi sends. Their `details` and `display` are not kept (a hidden one
 *   becomes visible), and a `!!` bash run pi kept out of context is sent like the others.
 * - Images → a visible "[image omitted]" text (no blobs are imported here); unknown content
 *   blocks → "[<type> omitted]". A tool result's `details` (diffs etc.) are not kept.
 * - Skipped, never fatal: `thinking_level_change` (a setting, not conversation; pi never sends it),
 *   `custom` entries (extension state), message roles and entry types this importer does not know
 *   (a newer pi may add some; refusing the whole file for them would lose everything else). A
 *   skipped entry's children are re-parented to its nearest kept ancestor, so the tree stays whole.
 *   `label` entries become Grove labels; the latest `session_info` name becomes the title.
 * - Compactions: `shortSummary` is the summary's first sentence (its Goal section's when it has
 *   one, as Grove's own fallback does; ≤ 120 chars);
 *   `keptUserTurnIds` is [] (pi keeps no user turns beside its summary); `tokensAfter` is an
 *   ESTIMATE, summary characters / 4, because pi does not record it and 0 would be a lie;
 *   `reason` is "manual" (pi does not record why); `model` is the model in effect at that point.
 * - Branch summaries: pi's `fromId` is the entry the user went back to ("root" at the root). It
 *   maps to that entry's Grove id; "root" maps to the entry written just before the summary.
 * - The leaf is the last entry in file order (pi's rule: the last appended entry is the leaf); the
 *   session model is the last model change or assistant model on that path (pi's rule), else the
 *   v1 header's provider/modelId.
 *
 * Export:
 * - Entries come parents first, the leaf's branch last, so the leaf is the last entry and pi
 *   resumes where Grove was. (A leaf that has children cannot be last; pi then opens at its last
 *   descendant.) Labels and the title follow as `label` / `session_info` lines chained after it,
 *   as pi itself writes them; pi's leaf logic and context skip both.
 * - A handoff entry → a `custom_message` (customType "grove-handoff") whose content is the handoff
 *   context Grove's model sees, so pi's model sees it too; its `details` carry the document and
 *   links, and the import turns it back into a handoff entry.
 * - Grove-only fields pi has no place for ride along in a `grove` field pi ignores: a compaction's
 *   shortSummary, keptUserTurnIds, tokensAfter, reason, instructions and model; a branch summary's
 *   model and instructions; the title's source. `details` stay exactly as they were.
 * - Not kept: the system prompt, the session model (pi derives it from the messages), `continues`,
 *   "interrupted" (written as aborted), error kinds, image data, usage cost (written as 0).
 */
import { z } from "zod";
import { clampLine, cleanShortSummary, firstSentence } from "../compaction/digest";
import { fillTemplate, HANDOFF_CONTEXT } from "../prompts";
import { toolCallText, toolResultText } from "../session/build-context";
import {
  type ApiKind,
  assertNever,
  type Block,
  type BranchSummaryEntry,
  type CompactionEntry,
  type Entry,
  type HandoffEntry,
  type MessageEntry,
  type MessageError,
  type MessageStatus,
  type ModelRef,
  messageText,
  type Session,
  type StopReason,
  type Usage,
} from "../session/entries";
import { asEntryId, asSessionId, type EntryId, newEntryId, newSessionId, type SessionId } from "../session/ids";
import { titleFromText } from "../session/title";
import { buildTreeIndex, childrenOf, pathToRoot } from "../session/tree";
import { checkSessionGraph, type ExportedSession, type ImportResult } from "./grove-json";

export type PiImportOptions = {
  /** Id factories; tests pass deterministic ones. */
  newSessionId?: () => SessionId;
  newEntryId?: () => EntryId;
  /** Used when the file has no usable timestamps at all. */
  now?: () => number;
};

/** pi's current format version: what imports are migrated to and what export writes. */
export const PI_SESSION_VERSION = 3;
/** Stands in for a pi image: blobs are not imported here. */
export const PI_IMAGE_OMITTED = "[image omitted]";
/** customType of the `custom_message` a Grove handoff entry is exported as. */
export const GROVE_HANDOFF_CUSTOM_TYPE = "grove-handoff";
/** Rough characters per token, for the estimated `tokensAfter` of an imported compaction. */
const CHARS_PER_TOKEN_ESTIMATE = 4;
const UNTITLED_IMPORT = "Imported pi session";

/** The visible note a pi model change becomes. Export recognizes exactly this text (MODEL_CHANGE_NOTE). */
export function modelChangeNote(provider: string, modelId: string): string {
  return `[Model changed to ${modelId} (${provider})]`;
}
const MODEL_CHANGE_NOTE = /^\[Model changed to (.+) \(([^()]+)\)\]$/;

type Json = Record<string, unknown>;
type Result<T> = { ok: true; value: T } | { ok: false; message: string };
const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const fail = <T>(message: string): Result<T> => ({ ok: false, message });
const isJson = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

// ---- schemas (v3 shapes; loose: pi adds fields over time) -----------------------------------

const count = z.number().finite().nonnegative();
const ms = z.number().finite();
const KNOWN_BLOCKS = new Set(["text", "image", "thinking", "toolCall"]);

/** A content block; a type this importer does not know becomes `{type: "other"}` instead of an error. */
const blockSchema = z.preprocess(
  (b) => (isJson(b) && !KNOWN_BLOCKS.has(String(b.type)) ? { type: "other", was: String(b.type) } : b),
  z.discriminatedUnion("type", [
    z.looseObject({ type: z.literal("text"), text: z.string() }),
    z.looseObject({ type: z.literal("image"), mimeType: z.string().optional() }),
    z.looseObject({
      type: z.literal("thinking"),
      thinking: z.string(),
      thinkingSignature: z.string().optional(),
      redacted: z.boolean().optional(),
    }),
    z.looseObject({ type: z.literal("toolCall"), id: z.string(), name: z.string(), arguments: z.unknown() }),
    z.object({ type: z.literal("other"), was: z.string() }),
  ]),
);
type PiBlock = z.output<typeof blockSchema>;
/** pi allows a plain string where a block list is expected (user and custom messages). */
const contentSchema = z.preprocess(
  (c) => (typeof c === "string" ? [{ type: "text", text: c }] : c),
  z.array(blockSchema),
);

const userSchema = z.looseObject({ role: z.literal("user"), content: contentSchema, timestamp: ms.optional() });
const assistantSchema = z.looseObject({
  role: z.literal("assistant"),
  content: contentSchema,
  api: z.string().optional(),
  provider: z.string().optional(),
  model: z.string().optional(),
  usage: z
    .looseObject({ input: count, output: count, cacheRead: count.optional(), cacheWrite: count.optional() })
    .optional(),
  stopReason: z.string().optional(),
  errorMessage: z.string().optional(),
});
const toolResultSchema = z.looseObject({
  role: z.literal("toolResult"),
  toolCallId: z.string(),
  toolName: z.string().optional(),
  content: contentSchema,
  isError: z.boolean().optional(),
});
const bashSchema = z.looseObject({
  role: z.literal("bashExecution"),
  command: z.string(),
  output: z.string().optional(),
  exitCode: z.number().nullish(),
  cancelled: z.boolean().optional(),
  truncated: z.boolean().optional(),
  fullOutputPath: z.string().optional(),
});
const customSchema = z.looseObject({ role: z.literal("custom"), customType: z.string(), content: contentSchema });

const compactionReason = z.enum(["manual", "threshold", "overflow", "length", "preflight"]);
const messageLine = z.looseObject({ message: z.looseObject({ role: z.string() }) });
const modelChangeLine = z.looseObject({ provider: z.string(), modelId: z.string() });
const compactionLine = z.looseObject({
  summary: z.string(),
  firstKeptEntryId: z.string().optional(),
  tokensBefore: count,
  details: z.unknown().optional(),
  grove: z
    .looseObject({
      shortSummary: z.string().optional(),
      keptUserTurnIds: z.array(z.string()).optional(),
      tokensAfter: count.optional(),
      reason: compactionReason.optional(),
      instructions: z.string().optional(),
      model: z.string().optional(),
    })
    .optional(),
});
const branchSummaryLine = z.looseObject({
  fromId: z.string(),
  summary: z.string(),
  details: z.unknown().optional(),
  grove: z.looseObject({ model: z.string().optional(), instructions: z.string().optional() }).optional(),
});
const customMessageLine = z.looseObject({ customType: z.string(), content: contentSchema, details: z.unknown() });
const handoffDetails = z.looseObject({
  document: z.string(),
  fromSessionId: z.string().min(1),
  fromEntryId: z.string().min(1),
});
const labelLine = z.looseObject({ targetId: z.string(), label: z.string().nullish() });
const sessionInfoLine = z.looseObject({
  name: z.string().nullish(),
  grove: z.looseObject({ titleSource: z.enum(["auto", "user"]).optional() }).optional(),
});
const headerSchema = z.looseObject({
  type: z.literal("session"),
  id: z.string().min(1),
  timestamp: z.string().optional(),
  provider: z.string().optional(),
  modelId: z.string().optional(),
});
type PiHeader = z.output<typeof headerSchema>;

function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/** Validates one line's value; the error names the line, the entry type and the field. */
function parseLine<S extends z.ZodType>(schema: S, value: unknown, r: PiRecord, what: string): Result<z.output<S>> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  const at = issue ? formatPath(issue.path) : "";
  return fail(`Line ${r.line} (${what}): invalid ${at ? `at ${at}` : "entry"}: ${issue?.message ?? "invalid"}.`);
}

// ---- step 1: lines ----------------------------------------------------------------------------

/**
 * One non-blank line. `index` counts non-blank lines from 0 (the header): pi's coordinate for
 * v1 `firstKeptEntryIndex`, since pi's loader drops blank lines too. `line` is the 1-based line
 * number a user sees in an editor.
 */
type PiRecord = { readonly line: number; readonly index: number; readonly value: Json };
type PiFile = { readonly header: PiHeader; readonly version: number; readonly records: readonly PiRecord[] };

function notJsonl(text: string, detail: string): string {
  try {
    JSON.parse(text);
    return "Not a pi session file: this is one JSON document, not JSONL (one JSON object per line, a session header first).";
  } catch {
    return `Not a pi session file: line 1 is not JSON (${detail}).`;
  }
}

function readLines(text: string): Result<PiFile> {
  const body = text.replace(/^\uFEFF/, "");
  if (body.trim() === "") return fail("The pi session file is empty.");
  const lines = body.split(/\r?\n/);
  let last = lines.length - 1;
  while (last > 0 && lines[last]?.trim() === "") last--;
  const records: PiRecord[] = [];
  for (const [i, raw] of lines.entries()) {
    if (raw.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      if (records.length === 0) return fail(notJsonl(body, detail));
      // pi appends one line per entry; a crash or a cut-off copy leaves a partial last line.
      if (i === last)
        return fail(`Line ${i + 1}, the last line, is not complete JSON: the file looks truncated (${detail}).`);
      return fail(`Line ${i + 1} is not valid JSON: ${detail}.`);
    }
    if (records.length === 0 && !(isJson(value) && value.type === "session")) {
      return fail(
        `Not a pi session file: line ${i + 1} should be the session header ({"type":"session", ...}), a pi session file's first line.`,
      );
    }
    if (!isJson(value) || typeof value.type !== "string") {
      return fail(`Line ${i + 1} is not a pi session entry: expected a JSON object with a "type".`);
    }
    if (value.type === "session" && records.length > 0) {
      return fail(`Line ${i + 1}: a second session header (the first is on line ${records[0]?.line ?? 1}).`);
    }
    records.push({ line: i + 1, index: records.length, value });
  }
  const [first, ...rest] = records;
  if (!first) return fail("The pi session file is empty.");
  const version = first.value.version ?? 1;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1 || version > PI_SESSION_VERSION) {
    return fail(
      `Unsupported pi session version ${JSON.stringify(version)} (line ${first.line}): Grove reads versions 1 to ${PI_SESSION_VERSION}.`,
    );
  }
  const header = parseLine(headerSchema, first.value, first, "session header");
  if (!header.ok) return header;
  return ok({ header: header.value, version, records: rest });
}

// ---- step 2: migrations, one per format change ----------------------------------------------

/** A v1 entry's id: v1 has none, and only uniqueness within the file matters. */
const v1Id = (index: number): string => `v1-${index}`;

/**
 * v1 → v2: v1 is linear and has no ids, so each entry gets one and its predecessor as parent.
 * A compaction's `firstKeptEntryIndex` (index among the file's non-blank lines, the header being
 * 0) becomes the `firstKeptEntryId` of that entry; it must name an entry before the compaction.
 */
function migrateV1ToV2(file: PiFile): Result<PiFile> {
  const records: PiRecord[] = [];
  let prev: string | null = null;
  for (const r of file.records) {
    const id = v1Id(r.index);
    const parentId = prev;
    prev = id;
    if (r.value.type !== "compaction" || r.value.firstKeptEntryIndex === undefined) {
      records.push({ ...r, value: { ...r.value, id, parentId } });
      continue;
    }
    const { firstKeptEntryIndex: at, ...rest } = r.value;
    if (typeof at !== "number" || !Number.isInteger(at) || at < 1 || at >= r.index) {
      return fail(
        `Line ${r.line} (compaction): firstKeptEntryIndex ${JSON.stringify(at)} is out of range: it must be the index of an entry before the compaction (1 to ${r.index - 1}, counting the session header as 0).`,
      );
    }
    records.push({ ...r, value: { ...rest, id, parentId, firstKeptEntryId: v1Id(at) } });
  }
  return ok({ header: file.header, version: 2, records });
}

/** v2 → v3: the message role `hookMessage` was renamed `custom`. */
function migrateV2ToV3(file: PiFile): PiFile {
  const records = file.records.map((r): PiRecord => {
    const message = r.value.message;
    if (r.value.type !== "message" || !isJson(message) || message.role !== "hookMessage") return r;
    return { ...r, value: { ...r.value, message: { ...message, role: "custom" } } };
  });
  return { header: file.header, version: 3, records };
}

function migrateToV3(file: PiFile): Result<PiFile> {
  let current = file;
  if (current.version < 2) {
    const migrated = migrateV1ToV2(current);
    if (!migrated.ok) return migrated;
    current = migrated.value;
  }
  if (current.version < 3) current = migrateV2ToV3(current);
  return ok(current);
}

// ---- step 3: the tree -------------------------------------------------------------------------

type PiNode = {
  readonly record: PiRecord;
  readonly type: string;
  readonly id: string;
  readonly parentId: string | null;
};

/** Every entry has a unique id and a parent that exists; no entry is its own ancestor. */
function checkTree(file: PiFile): Result<PiNode[]> {
  const nodes: PiNode[] = [];
  const lineOf = new Map<string, number>();
  for (const record of file.records) {
    const { id, parentId, type } = record.value;
    const what = `Line ${record.line} (${String(type)})`;
    if (typeof id !== "string" || id === "") return fail(`${what}: the entry has no "id" (pi gives every entry one).`);
    if (parentId !== null && typeof parentId !== "string") {
      return fail(`${what}: "parentId" must be an entry id or null, not ${JSON.stringify(parentId) ?? "missing"}.`);
    }
    const seen = lineOf.get(id);
    if (seen !== undefined) return fail(`${what}: duplicate id "${id}" (already used on line ${seen}).`);
    lineOf.set(id, record.line);
    nodes.push({ record, type: String(type), id, parentId });
  }
  for (const n of nodes) {
    if (n.parentId !== null && !lineOf.has(n.parentId)) {
      return fail(
        `Line ${n.record.line} (${n.type}): parentId "${n.parentId}" is not the id of any entry in the file.`,
      );
    }
  }
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const reachesRoot = new Set<string>();
  for (const n of nodes) {
    const path = new Set<string>();
    let cur: PiNode | undefined = n;
    while (cur && !reachesRoot.has(cur.id)) {
      if (path.has(cur.id)) {
        return fail(
          `Line ${cur.record.line} (${cur.type}): entries form a cycle through parentId (at id "${cur.id}").`,
        );
      }
      path.add(cur.id);
      cur = cur.parentId === null ? undefined : byId.get(cur.parentId);
    }
    for (const id of path) reachesRoot.add(id);
  }
  return ok(nodes);
}

/**
 * A value per node computed root-first: `step(node, parentValue)`. Iterative with memoization,
 * because a linear pi session can be thousands of entries deep. Requires a cycle-free tree.
 */
function foldDown<T>(
  nodes: readonly PiNode[],
  byId: ReadonlyMap<string, PiNode>,
  atRoot: T,
  step: (n: PiNode, parent: T) => T,
): Map<string, T> {
  const out = new Map<string, T>();
  for (const n of nodes) {
    const chain: PiNode[] = [];
    let cur: PiNode | undefined = n;
    while (cur && !out.has(cur.id)) {
      chain.push(cur);
      cur = cur.parentId === null ? undefined : byId.get(cur.parentId);
    }
    let value = cur ? (out.get(cur.id) as T) : atRoot;
    for (let i = chain.length - 1; i >= 0; i--) {
      const c = chain[i];
      if (!c) continue;
      value = step(c, value);
      out.set(c.id, value);
    }
  }
  return out;
}

// ---- step 4: v3 → Grove -----------------------------------------------------------------------

/** What one pi entry means to Grove. */
type Item =
  | { kind: "message"; entry: MessageEntryDraft; userTurn: boolean }
  | { kind: "compaction"; line: z.output<typeof compactionLine> }
  | { kind: "branch_summary"; line: z.output<typeof branchSummaryLine> }
  | { kind: "handoff"; details: z.output<typeof handoffDetails> }
  | { kind: "label"; targetId: string; label: string | null }
  | { kind: "session_info"; name: string; titleSource: Session["titleSource"] }
  | { kind: "skip" };

type MessageEntryDraft = Omit<MessageEntry, "id" | "sessionId" | "parentId" | "createdAt">;

/** pi's api names → Grove's. Others (openai-responses, google-…) have no Grove adapter: undefined. */
function apiOf(api: string | undefined): ApiKind | undefined {
  if (api === "anthropic-messages") return "anthropic-messages";
  if (api === "openai-completions") return "openai-chat";
  return undefined;
}

function stopReasonOf(reason: string | undefined): StopReason | undefined {
  switch (reason) {
    case "stop":
      return "end";
    case "length":
      return "length";
    case "toolUse":
      return "tool_use";
    case "aborted":
      return "aborted";
    case "error":
      return "error";
    default:
      return undefined;
  }
}

function blocksOf(blocks: readonly PiBlock[], api: ApiKind | undefined): Block[] {
  return blocks.map((b): Block => {
    switch (b.type) {
      case "text":
        return { type: "text", text: b.text };
      case "image":
        return { type: "text", text: PI_IMAGE_OMITTED };
      case "thinking": {
        const sig = b.thinkingSignature ? b.thinkingSignature : undefined;
        // Like Grove's own adapters: signedBy only with something the provider can verify.
        const signedBy = api && sig ? { signedBy: api } : {};
        if (b.redacted === true && sig) return { type: "thinking", text: b.thinking, redactedData: sig, ...signedBy };
        return { type: "thinking", text: b.thinking, ...(sig ? { signature: sig } : {}), ...signedBy };
      }
      case "toolCall":
        return { type: "tool_call", id: b.id, name: b.name, args: b.arguments ?? {} };
      case "other":
        return { type: "text", text: `[${b.was} omitted]` };
      default:
        return assertNever(b, "pi block");
    }
  });
}

/** A tool result's content as one text; images and other blocks as visible notes. */
function plainText(blocks: readonly PiBlock[]): string {
  return blocks
    .map((b) =>
      b.type === "text"
        ? b.text
        : b.type === "image"
          ? PI_IMAGE_OMITTED
          : `[${b.type === "other" ? b.was : b.type} omitted]`,
    )
    .join("\n");
}

/** pi's own text for a `!command` (what its model sees), so Grove's model sees the same. */
function bashText(m: z.output<typeof bashSchema>): string {
  let text = `Ran \`${m.command}\`\n`;
  text += m.output ? `\`\`\`\n${m.output}\n\`\`\`` : "(no output)";
  if (m.cancelled) text += "\n\n(command cancelled)";
  else if (m.exitCode !== null && m.exitCode !== undefined && m.exitCode !== 0) {
    text += `\n\nCommand exited with code ${m.exitCode}`;
  }
  if (m.truncated && m.fullOutputPath) text += `\n\n[Output truncated. Full output: ${m.fullOutputPath}]`;
  return text;
}

function assistantDraft(m: z.output<typeof assistantSchema>): MessageEntryDraft {
  const api = apiOf(m.api);
  const stopReason = stopReasonOf(m.stopReason);
  const status: MessageStatus = stopReason === "aborted" ? "stopped" : stopReason === "error" ? "error" : "complete";
  let error: MessageError | undefined;
  if (status === "stopped" && m.errorMessage) error = { kind: "aborted", message: m.errorMessage };
  if (status === "error")
    error = { kind: "unknown", message: m.errorMessage || "The request failed (pi recorded no message)." };
  const u = m.usage;
  // Grove's `input` includes cache reads and writes (entries.ts); pi's does not.
  const usage: Usage | undefined = u && {
    input: u.input + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0),
    output: u.output,
    ...(u.cacheRead ? { cacheRead: u.cacheRead } : {}),
    ...(u.cacheWrite ? { cacheWrite: u.cacheWrite } : {}),
  };
  return {
    type: "message",
    role: "assistant",
    content: blocksOf(m.content, api),
    status,
    ...(error ? { error } : {}),
    ...(m.provider ? { provider: m.provider } : {}),
    ...(api ? { api } : {}),
    ...(m.model ? { model: m.model } : {}),
    ...(usage ? { usage } : {}),
    ...(stopReason ? { stopReason } : {}),
  };
}

const userDraft = (content: Block[]): MessageEntryDraft => ({
  type: "message",
  role: "user",
  content,
  status: "complete",
});

/** A `message` entry by role; unknown roles are skipped (see the header). */
function messageItem(r: PiRecord): Result<Item> {
  const line = parseLine(messageLine, r.value, r, "message");
  if (!line.ok) return line;
  const message = line.value.message;
  const what = `message, role ${message.role}`;
  switch (message.role) {
    case "user": {
      const m = parseLine(userSchema, message, r, what);
      return m.ok ? ok({ kind: "message", entry: userDraft(blocksOf(m.value.content, undefined)), userTurn: true }) : m;
    }
    case "assistant": {
      const m = parseLine(assistantSchema, message, r, what);
      return m.ok ? ok({ kind: "message", entry: assistantDraft(m.value), userTurn: false }) : m;
    }
    case "toolResult": {
      const m = parseLine(toolResultSchema, message, r, what);
      if (!m.ok) return m;
      const { toolCallId, toolName, content, isError } = m.value;
      const block: Block = {
        type: "tool_result",
        callId: toolCallId,
        ...(toolName ? { toolName } : {}),
        text: plainText(content),
        isError: isError === true,
      };
      return ok({
        kind: "message",
        entry: { type: "message", role: "tool", content: [block], status: "complete" },
        userTurn: false,
      });
    }
    case "bashExecution": {
      const m = parseLine(bashSchema, message, r, what);
      return m.ok
        ? ok({ kind: "message", entry: userDraft([{ type: "text", text: bashText(m.value) }]), userTurn: false })
        : m;
    }
    case "custom": {
      const m = parseLine(customSchema, message, r, what);
      return m.ok
        ? ok({ kind: "message", entry: userDraft(blocksOf(m.value.content, undefined)), userTurn: false })
        : m;
    }
    default:
      return ok({ kind: "skip" });
  }
}

function itemOf(r: PiRecord, type: string): Result<Item> {
  switch (type) {
    case "message":
      return messageItem(r);
    case "model_change": {
      const m = parseLine(modelChangeLine, r.value, r, type);
      if (!m.ok) return m;
      const text = modelChangeNote(m.value.provider, m.value.modelId);
      return ok({ kind: "message", entry: userDraft([{ type: "text", text }]), userTurn: false });
    }
    case "compaction": {
      const m = parseLine(compactionLine, r.value, r, type);
      return m.ok ? ok({ kind: "compaction", line: m.value }) : m;
    }
    case "branch_summary": {
      const m = parseLine(branchSummaryLine, r.value, r, type);
      return m.ok ? ok({ kind: "branch_summary", line: m.value }) : m;
    }
    case "custom_message": {
      const m = parseLine(customMessageLine, r.value, r, type);
      if (!m.ok) return m;
      if (m.value.customType === GROVE_HANDOFF_CUSTOM_TYPE) {
        const details = handoffDetails.safeParse(m.value.details);
        if (details.success) return ok({ kind: "handoff", details: details.data });
      }
      return ok({ kind: "message", entry: userDraft(blocksOf(m.value.content, undefined)), userTurn: false });
    }
    case "label": {
      const m = parseLine(labelLine, r.value, r, type);
      return m.ok ? ok({ kind: "label", targetId: m.value.targetId, label: m.value.label || null }) : m;
    }
    case "session_info": {
      const m = parseLine(sessionInfoLine, r.value, r, type);
      if (!m.ok) return m;
      const name = m.value.name?.trim() ?? "";
      return ok(
        name ? { kind: "session_info", name, titleSource: m.value.grove?.titleSource ?? "user" } : { kind: "skip" },
      );
    }
    default:
      // thinking_level_change, custom (extension state) and types from a newer pi: see the header.
      return ok({ kind: "skip" });
  }
}

const becomesEntry = (item: Item): boolean =>
  item.kind === "message" || item.kind === "compaction" || item.kind === "branch_summary" || item.kind === "handoff";

function toMs(iso: unknown): number | undefined {
  if (typeof iso !== "string") return undefined;
  const t = Date.parse(iso);
  return Number.isFinite(t) && t >= 0 ? t : undefined;
}

/** Grove's own fallback one-liner (its Goal's first sentence, else the first prose), else the first line. */
function shortSummaryOf(summary: string): string {
  return firstSentence(summary) ?? cleanShortSummary(summary) ?? (clampLine(summary) || "Imported pi compaction");
}

function convertV3(file: PiFile, nodes: readonly PiNode[], opts: Required<PiImportOptions>): Result<ExportedSession> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const items = new Map<string, Item>();
  for (const n of nodes) {
    const item = itemOf(n.record, n.type);
    if (!item.ok) return item;
    items.set(n.id, item.value);
  }
  const itemAt = (n: PiNode): Item => items.get(n.id) ?? { kind: "skip" };

  const sessionId = opts.newSessionId();
  const groveIdOf = new Map<string, EntryId>();
  for (const n of nodes) if (becomesEntry(itemAt(n))) groveIdOf.set(n.id, opts.newEntryId());
  /** pi id → the Grove entry it became, or that of its nearest kept ancestor (null: none). */
  const keptAs = foldDown<EntryId | null>(nodes, byId, null, (n, p) => groveIdOf.get(n.id) ?? p);
  const headerMs = toMs(file.header.timestamp);
  const createdOf = foldDown<number>(nodes, byId, headerMs ?? opts.now(), (n, p) => {
    const message = n.record.value.message;
    const t = isJson(message) ? message.timestamp : undefined;
    const messageMs = typeof t === "number" && Number.isFinite(t) && t >= 0 ? t : undefined;
    return toMs(n.record.value.timestamp) ?? messageMs ?? p;
  });
  const headerModel: ModelRef | null =
    file.header.provider && file.header.modelId
      ? { providerId: file.header.provider, modelId: file.header.modelId }
      : null;
  /** The model in effect after each entry: pi's rule, the last model change or assistant model on the path. */
  const modelOf = foldDown<ModelRef | null>(nodes, byId, headerModel, (n, p) => {
    const { type, provider, modelId, message } = n.record.value;
    if (type === "model_change" && typeof provider === "string" && typeof modelId === "string") {
      return { providerId: provider, modelId };
    }
    if (type === "message" && isJson(message) && message.role === "assistant") {
      if (typeof message.provider === "string" && typeof message.model === "string") {
        return { providerId: message.provider, modelId: message.model };
      }
    }
    return p;
  });
  const modelIdAt = (n: PiNode): string => modelOf.get(n.id)?.modelId ?? "unknown";

  /**
   * A compaction's first kept entry: that entry's Grove id, or, if it was skipped, the first kept
   * entry after it on the compaction's path (what the model saw from there on); null = none.
   */
  const firstKept = (compaction: PiNode, targetId: string): EntryId | null => {
    const own = groveIdOf.get(targetId);
    if (own) return own;
    const path: PiNode[] = [];
    for (let cur = byId.get(compaction.parentId ?? ""); cur; cur = byId.get(cur.parentId ?? "")) path.unshift(cur);
    const at = path.findIndex((n) => n.id === targetId);
    if (at < 0) return null;
    for (const n of path.slice(at)) {
      const id = groveIdOf.get(n.id);
      if (id) return id;
    }
    return null;
  };

  const entries: Entry[] = [];
  const labels: Record<EntryId, string> = {};
  let title: { text: string; source: Session["titleSource"] } | null = null;
  let firstUserText: string | null = null;
  let previousEntry: EntryId | null = null;
  for (const n of nodes) {
    const item = itemAt(n);
    const where = `Line ${n.record.line} (${n.type})`;
    const id = groveIdOf.get(n.id);
    const base = {
      sessionId,
      parentId: n.parentId === null ? null : (keptAs.get(n.parentId) ?? null),
      createdAt: createdOf.get(n.id) ?? opts.now(),
    };
    switch (item.kind) {
      case "message":
        if (!id) break;
        entries.push({ ...item.entry, ...base, id });
        if (item.userTurn && firstUserText === null) firstUserText = messageText(item.entry.content);
        break;
      case "compaction": {
        if (!id) break;
        const { summary, firstKeptEntryId, tokensBefore, details, grove } = item.line;
        if (firstKeptEntryId !== undefined && !byId.has(firstKeptEntryId)) {
          return fail(`${where}: firstKeptEntryId "${firstKeptEntryId}" is not the id of any entry in the file.`);
        }
        const keptUserTurnIds = (grove?.keptUserTurnIds ?? [])
          .map((k) => groveIdOf.get(k))
          .filter((k): k is EntryId => k !== undefined);
        const entry: CompactionEntry = {
          type: "compaction",
          id,
          ...base,
          summary,
          shortSummary: grove?.shortSummary ?? shortSummaryOf(summary),
          firstKeptEntryId: firstKeptEntryId === undefined ? null : firstKept(n, firstKeptEntryId),
          keptUserTurnIds,
          tokensBefore,
          tokensAfter: grove?.tokensAfter ?? Math.ceil(summary.length / CHARS_PER_TOKEN_ESTIMATE),
          reason: grove?.reason ?? "manual",
          ...(grove?.instructions !== undefined ? { instructions: grove.instructions } : {}),
          model: grove?.model ?? modelIdAt(n),
          ...(details !== undefined ? { details } : {}),
        };
        entries.push(entry);
        break;
      }
      case "branch_summary": {
        if (!id) break;
        const { fromId, summary, details, grove } = item.line;
        if (fromId !== "root" && !byId.has(fromId)) {
          return fail(`${where}: fromId "${fromId}" is not the id of any entry in the file.`);
        }
        const from = (fromId === "root" ? null : keptAs.get(fromId)) ?? previousEntry ?? id;
        const entry: BranchSummaryEntry = {
          type: "branch_summary",
          id,
          ...base,
          fromId: from,
          summary,
          ...(grove?.instructions !== undefined ? { instructions: grove.instructions } : {}),
          model: grove?.model ?? modelIdAt(n),
          ...(details !== undefined ? { details } : {}),
        };
        entries.push(entry);
        break;
      }
      case "handoff": {
        if (!id) break;
        const { document, fromSessionId, fromEntryId } = item.details;
        const entry: HandoffEntry = {
          type: "handoff",
          id,
          ...base,
          document,
          fromSessionId: asSessionId(fromSessionId),
          fromEntryId: asEntryId(fromEntryId),
        };
        entries.push(entry);
        break;
      }
      case "label": {
        // A label on a skipped entry (or an unknown one) has nothing to stick to in Grove.
        const target = groveIdOf.get(item.targetId);
        if (target && item.label) labels[target] = item.label;
        else if (target) delete labels[target];
        break;
      }
      case "session_info":
        title = { text: item.name, source: item.titleSource };
        break;
      case "skip":
        break;
      default:
        return assertNever(item, "pi item");
    }
    if (id) previousEntry = id;
  }

  const lastNode = nodes[nodes.length - 1];
  const model = lastNode ? (modelOf.get(lastNode.id) ?? null) : headerModel;
  const createdAt = headerMs ?? entries[0]?.createdAt ?? opts.now();
  const session: Session = {
    id: sessionId,
    title: title?.text ?? (firstUserText !== null ? titleFromText(firstUserText) : UNTITLED_IMPORT),
    titleSource: title?.source ?? "auto",
    createdAt,
    updatedAt: entries.reduce((m, e) => Math.max(m, e.createdAt), createdAt),
    leafId: lastNode ? (keptAs.get(lastNode.id) ?? null) : null,
    ...(model ? { model } : {}),
  };
  return ok({ session, entries, labels });
}

export function parsePiJsonl(text: string, options: PiImportOptions = {}): ImportResult {
  const opts: Required<PiImportOptions> = {
    newSessionId: options.newSessionId ?? newSessionId,
    newEntryId: options.newEntryId ?? newEntryId,
    now: options.now ?? Date.now,
  };
  const read = readLines(text);
  if (!read.ok) return { kind: "error", message: read.message };
  const migrated = migrateToV3(read.value);
  if (!migrated.ok) return { kind: "error", message: migrated.message };
  const tree = checkTree(migrated.value);
  if (!tree.ok) return { kind: "error", message: tree.message };
  const converted = convertV3(migrated.value, tree.value, opts);
  if (!converted.ok) return { kind: "error", message: converted.message };
  const problem = checkSessionGraph([converted.value]);
  if (problem) return { kind: "error", message: `pi import produced an invalid session: ${problem}` };
  return { kind: "ok", sessions: [converted.value] };
}

// ---- export -----------------------------------------------------------------------------------

function isoOf(ms: number): string {
  // Date's range is ±8.64e15 ms; anything outside (never from Grove) would throw.
  return new Date(Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? ms : 0).toISOString();
}

/** Parents before children; at every fork the branch holding the leaf goes last, so the leaf is last. */
function parentsFirst(entries: readonly Entry[], leafId: EntryId | null): Entry[] {
  const index = buildTreeIndex(entries);
  const onLeafPath = new Set<EntryId>(leafId ? pathToRoot(index, leafId).map((e) => e.id) : []);
  const leafBranchLast = (list: readonly Entry[]): Entry[] => [
    ...list.filter((e) => !onLeafPath.has(e.id)),
    ...list.filter((e) => onLeafPath.has(e.id)),
  ];
  const out: Entry[] = [];
  // Entries in a parent cycle are reachable from no root and are not written (a valid session has none).
  const stack = leafBranchLast(index.roots).reverse();
  for (let e = stack.pop(); e; e = stack.pop()) {
    out.push(e);
    stack.push(...leafBranchLast(childrenOf(index, e.id)).reverse());
  }
  return out;
}

/** Grove's api names → pi's; pi's `api` is an open string, so an unknown one says so. */
function piApiOf(api: ApiKind | undefined): string {
  if (api === "anthropic-messages") return "anthropic-messages";
  if (api === "openai-chat") return "openai-completions";
  return "unknown";
}

function piStopReasonOf(e: MessageEntry): string {
  if (e.status === "stopped" || e.status === "interrupted") return "aborted";
  if (e.status === "error") return "error";
  switch (e.stopReason) {
    case "end":
    case "refusal": // pi has no refusal reason: the reply simply ended
      return "stop";
    case "length":
      return "length";
    case "tool_use":
      return "toolUse";
    case "aborted":
      return "aborted";
    case "error":
      return "error";
    case undefined:
      return e.content.some((b) => b.type === "tool_call") ? "toolUse" : "stop";
    default:
      return assertNever(e.stopReason, "stop reason");
  }
}

/** A block pi's message of this role cannot hold, as text (tool blocks as build-context writes them). */
function asPiText(b: Block): Json | null {
  switch (b.type) {
    case "text":
      return { type: "text", text: b.text };
    case "image":
      return { type: "text", text: PI_IMAGE_OMITTED };
    case "tool_call":
      return { type: "text", text: toolCallText(b.name, b.args) };
    case "tool_result":
      return { type: "text", text: toolResultText(b.text, b.toolName, b.isError) };
    case "thinking": // reasoning outside an assistant reply has no place in pi
      return null;
    default:
      return assertNever(b, "block");
  }
}

function assistantContent(content: readonly Block[]): Json[] {
  const out: Json[] = [];
  for (const b of content) {
    if (b.type === "thinking") {
      const sig = b.redactedData ?? b.signature;
      out.push({
        type: "thinking",
        thinking: b.text,
        ...(sig ? { thinkingSignature: sig } : {}),
        ...(b.redactedData ? { redacted: true } : {}),
      });
    } else if (b.type === "tool_call") {
      // pi's arguments are an object; anything else (a hand-made import) is wrapped, not lost.
      out.push({ type: "toolCall", id: b.id, name: b.name, arguments: isJson(b.args) ? b.args : { input: b.args } });
    } else {
      const t = asPiText(b);
      if (t) out.push(t);
    }
  }
  return out;
}

function piMessageOf(e: MessageEntry): Json {
  const timestamp = e.createdAt;
  switch (e.role) {
    case "user": {
      const content = e.content.map(asPiText).filter((b): b is Json => b !== null);
      return { role: "user", content, timestamp };
    }
    case "assistant": {
      const cacheRead = e.usage?.cacheRead ?? 0;
      const cacheWrite = e.usage?.cacheWrite ?? 0;
      const output = e.usage?.output ?? 0;
      const input = Math.max(0, (e.usage?.input ?? 0) - cacheRead - cacheWrite);
      const stopReason = piStopReasonOf(e);
      return {
        role: "assistant",
        content: assistantContent(e.content),
        api: piApiOf(e.api),
        provider: e.provider ?? "unknown",
        model: e.model ?? "unknown",
        usage: {
          input,
          output,
          cacheRead,
          cacheWrite,
          totalTokens: input + output + cacheRead + cacheWrite,
          // Grove keeps no prices: 0, not a guess.
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason,
        ...(e.status !== "complete" && e.error ? { errorMessage: e.error.message } : {}),
        timestamp,
      };
    }
    case "tool": {
      // pi has one result per message: the first tool_result names the call, every block is content.
      const result = e.content.find((b) => b.type === "tool_result");
      const content = e.content
        .map((b) => (b.type === "tool_result" ? { type: "text", text: b.text } : asPiText(b)))
        .filter((b): b is Json => b !== null);
      if (!result) return { role: "user", content, timestamp };
      return {
        role: "toolResult",
        toolCallId: result.callId,
        toolName: result.toolName ?? "",
        content,
        isError: result.isError,
        timestamp,
      };
    }
    default:
      return assertNever(e.role, "role");
  }
}

function piLineOf(e: Entry, parentId: EntryId | null): Json {
  const base = { id: e.id, parentId, timestamp: isoOf(e.createdAt) };
  switch (e.type) {
    case "message": {
      const only = e.content.length === 1 ? e.content[0] : undefined;
      const note = e.role === "user" && only?.type === "text" ? MODEL_CHANGE_NOTE.exec(only.text) : null;
      if (note?.[1] && note[2]) return { type: "model_change", ...base, provider: note[2], modelId: note[1] };
      return { type: "message", ...base, message: piMessageOf(e) };
    }
    case "compaction":
      return {
        type: "compaction",
        ...base,
        summary: e.summary,
        // Omitted when null: pi then keeps only what follows the compaction, as Grove does.
        ...(e.firstKeptEntryId !== null ? { firstKeptEntryId: e.firstKeptEntryId } : {}),
        tokensBefore: e.tokensBefore,
        ...(e.details !== undefined ? { details: e.details } : {}),
        grove: {
          shortSummary: e.shortSummary,
          keptUserTurnIds: e.keptUserTurnIds,
          tokensAfter: e.tokensAfter,
          reason: e.reason,
          ...(e.instructions !== undefined ? { instructions: e.instructions } : {}),
          model: e.model,
        },
      };
    case "branch_summary":
      return {
        type: "branch_summary",
        ...base,
        fromId: e.fromId,
        summary: e.summary,
        ...(e.details !== undefined ? { details: e.details } : {}),
        grove: { model: e.model, ...(e.instructions !== undefined ? { instructions: e.instructions } : {}) },
      };
    case "handoff":
      return {
        type: "custom_message",
        ...base,
        customType: GROVE_HANDOFF_CUSTOM_TYPE,
        content: fillTemplate(HANDOFF_CONTEXT, { document: e.document }),
        display: true,
        details: { document: e.document, fromSessionId: e.fromSessionId, fromEntryId: e.fromEntryId },
      };
    default:
      return assertNever(e, "entry");
  }
}

/** The session as a pi v3 JSONL file: every branch, the leaf last, labels and title after it. */
export function exportPiJsonl(s: ExportedSession): string {
  const { session, entries, labels } = s;
  const entryIds = new Set<string>(entries.map((e) => e.id));
  const known = new Set<string>(entryIds);
  const lines: Json[] = [
    { type: "session", version: PI_SESSION_VERSION, id: session.id, timestamp: isoOf(session.createdAt), cwd: "" },
  ];
  let last: string | null = null;
  for (const e of parentsFirst(entries, session.leafId)) {
    lines.push(piLineOf(e, e.parentId !== null && entryIds.has(e.parentId) ? e.parentId : null));
    last = e.id;
  }
  // Labels and the title as pi writes them: each a child of the line before, after the leaf.
  let n = 0;
  const freshId = (): string => {
    let id = `grove-meta-${++n}`;
    while (known.has(id)) id = `grove-meta-${++n}`;
    known.add(id);
    return id;
  };
  const timestamp = isoOf(session.updatedAt);
  for (const [targetId, label] of Object.entries(labels)) {
    if (!entryIds.has(targetId)) continue;
    const id = freshId();
    lines.push({ type: "label", id, parentId: last, timestamp, targetId, label });
    last = id;
  }
  if (session.title.trim() !== "") {
    const id = freshId();
    lines.push({
      type: "session_info",
      id,
      parentId: last,
      timestamp,
      name: session.title,
      grove: { titleSource: session.titleSource },
    });
  }
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}
