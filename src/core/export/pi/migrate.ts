/**
 * Reading a pi session file and bringing it to format version 3, in pi's own order: one step per
 * format change (pi's loader chains `migrateV1ToV2` then `migrateV2ToV3` the same way).
 *   readLines (one JSON object per line; line numbers kept for every error message)
 *   → migrateV1ToV2 (ids and parent links in file order, `firstKeptEntryIndex` → `firstKeptEntryId`)
 *   → migrateV2ToV3 (message role `hookMessage` → `custom`)
 *   → checkTree (ids present and unique, parents exist, no cycles).
 * Every failure is a message naming the line; nothing here throws.
 */
import type { z } from "zod";
import { fail, headerSchema, isJson, type Json, ok, PI_SESSION_VERSION, type PiHeader, type Result } from "./format";

function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/** Validates one line's value; the error names the line, the entry type and the field. */
export function parseLine<S extends z.ZodType>(
  schema: S,
  value: unknown,
  r: PiRecord,
  what: string,
): Result<z.output<S>> {
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
export type PiRecord = { readonly line: number; readonly index: number; readonly value: Json };
export type PiFile = { readonly header: PiHeader; readonly version: number; readonly records: readonly PiRecord[] };

function notJsonl(text: string, detail: string): string {
  try {
    JSON.parse(text);
    return "Not a pi session file: this is one JSON document, not JSONL (one JSON object per line, a session header first).";
  } catch {
    return `Not a pi session file: line 1 is not JSON (${detail}).`;
  }
}

export function readLines(text: string): Result<PiFile> {
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

export function migrateToV3(file: PiFile): Result<PiFile> {
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

export type PiNode = {
  readonly record: PiRecord;
  readonly type: string;
  readonly id: string;
  readonly parentId: string | null;
};

/** Every entry has a unique id and a parent that exists; no entry is its own ancestor. */
export function checkTree(file: PiFile): Result<PiNode[]> {
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
export function foldDown<T>(
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
