/**
 * pi coding-agent session files (JSONL) in. `parsePiJsonl` imports format versions 1, 2 and 3 as
 * one Grove session with every branch (export.ts writes them back). Pure: text in, data out (no
 * I/O, no blobs).
 *
 * Import is a chain of steps, one per format change, then one converter (pi's own loader does the
 * same, `migrateV1ToV2` then `migrateV2ToV3`):
 *   readLines (one JSON object per line; line numbers kept for every error message)
 *   → migrateV1ToV2 (ids and parent links in file order, `firstKeptEntryIndex` → `firstKeptEntryId`)
 *   → migrateV2ToV3 (message role `hookMessage` → `custom`)
 *   → checkTree (ids present and unique, parents exist, no cycles)         [these four: migrate.ts]
 *   → convertV3 (Grove entries; what each line means: items.ts) → checkSessionGraph.
 *
 * Representation choices (README.md lists them all):
 * - Each pi entry kind becomes a Grove entry of its own kind (model and thinking-level changes,
 *   `custom` data, context notes, commands), so nothing pi keeps out of its model's context is
 *   sent by Grove, and the export can write each line back as pi wrote it.
 * - pi's ids are kept (ids.ts); every field Grove does not interpret is kept as a patch on the
 *   entry (`piExtra`, patch.ts), computed here by running the export on the new entry.
 * - Aborted replies stay as they were seen: status "stopped", stopReason "aborted", pi's
 *   `errorMessage` as `error` (kind "aborted"). Failed replies: status "error", kind "unknown"
 *   (classification lives in providers/, which core may not import).
 * - Images → image blocks; their base64 bytes travel in `ExportedSession.images` (the import job
 *   stores them as blobs). Unknown content blocks → "[<type> omitted]" (the patch restores them).
 * - Skipped, never fatal: message roles and entry types this importer does not know (a newer pi
 *   may add some; refusing the whole file for them would lose everything else). A skipped
 *   entry's children are re-parented to its nearest kept ancestor, so the tree stays whole.
 *   `label` entries become Grove labels; the latest `session_info` name becomes the title.
 * - Compactions: `shortSummary` is the summary's first sentence (its Goal section's when it has
 *   one, as Grove's own fallback does; ≤ 120 chars);
 *   `keptUserTurnIds` is [] (pi keeps no user turns beside its summary); `tokensAfter` is an
 *   ESTIMATE, summary characters / 4, because pi does not record it and 0 would be a lie;
 *   `reason` is "manual" (pi does not record why); `model` is the model in effect at that point.
 * - Branch summaries: pi's `fromId` is where the user went ("root" at the root); Grove's
 *   `fromId` is the leaf of the branch left: `grove.fromId` when Grove wrote the file, else the
 *   entry written just before the summary (pi appends as the leaf moves).
 * - A compaction Grove exported holds its kept user turns in pi's summary text: taken out here.
 * - The leaf is the last entry in file order (pi's rule: the last appended entry is the leaf); the
 *   session model is the last model change or assistant model on that path (pi's rule), else the
 *   v1 header's provider/modelId.
 */
import { clampLine, cleanShortSummary, firstSentence } from "../../compaction/digest";
import {
  assertNever,
  type BranchSummaryEntry,
  type CompactionEntry,
  type Entry,
  type HandoffEntry,
  type ModelRef,
  messageText,
  type Session,
} from "../../session/entries";
import {
  asEntryId,
  asSessionId,
  type BlobId,
  type EntryId,
  newBlobId,
  newEntryId,
  newSessionId,
  type SessionId,
} from "../../session/ids";
import { planContext } from "../../session/plan-context";
import { canTitle, titleFromUserTexts } from "../../session/title";
import { buildTreeIndex, pathToRoot } from "../../session/tree";
import { isRepresentableTime } from "../../time";
import { checkSessionGraph, type ExportedSession, type ImportResult } from "../grove-json";
import { type PiImageData, type PiLineContext, piLineOf, TREE_FIELDS } from "./export";
import { fail, isJson, type Json, ok, type Result, UNTITLED_IMPORT } from "./format";
import { groveIdOfPi, piIdOfGrove } from "./ids";
import { becomesEntry, type ImageSink, type Item, itemOf } from "./items";
import { summaryWithoutKeptTurns } from "./kept-turns";
import { checkTree, foldDown, migrateToV3, type PiFile, type PiNode, readLines } from "./migrate";
import { diffJson } from "./patch";

export type PiImportOptions = {
  /** Id factories; tests pass deterministic ones. */
  newSessionId?: () => SessionId;
  newEntryId?: () => EntryId;
  /** Ids for imported images until the import job stores them under their content address. */
  newBlobId?: () => BlobId;
  /** Used when the file has no usable timestamps at all. */
  now?: () => number;
};

/** Rough characters per token, for the estimated `tokensAfter` of an imported compaction. */
const CHARS_PER_TOKEN_ESTIMATE = 4;

function toMs(iso: unknown): number | undefined {
  if (typeof iso !== "string") return undefined;
  const t = Date.parse(iso);
  return isRepresentableTime(t) && t >= 0 ? t : undefined;
}

/** Grove's own fallback one-liner (its Goal's first sentence, else the first prose), else the first line. */
function shortSummaryOf(summary: string): string {
  return firstSentence(summary) ?? cleanShortSummary(summary) ?? (clampLine(summary) || "Imported pi compaction");
}

function convertV3(file: PiFile, nodes: readonly PiNode[], opts: Required<PiImportOptions>): Result<ExportedSession> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const items = new Map<string, Item>();
  // Images by their base64 data: the same picture twice is one blob.
  const images = new Map<BlobId, PiImageData>();
  const imageIdOf = new Map<string, BlobId>();
  const sink: ImageSink = (data, mimeType) => {
    let id = imageIdOf.get(data);
    if (!id) {
      id = opts.newBlobId();
      imageIdOf.set(data, id);
      images.set(id, { data, mimeType });
    }
    return id;
  };
  for (const n of nodes) {
    const item = itemOf(n.record, n.type, sink);
    if (!item.ok) return item;
    items.set(n.id, item.value);
  }
  const itemAt = (n: PiNode): Item => items.get(n.id) ?? { kind: "skip" };

  const sessionId = opts.newSessionId();
  const piSession = file.header.id;
  const groveIdOf = new Map<string, EntryId>();
  for (const n of nodes) if (becomesEntry(itemAt(n))) groveIdOf.set(n.id, groveIdOfPi(piSession, n.id));
  /** pi id → the Grove entry it became, or that of its nearest kept ancestor (null: none). */
  const keptAs = foldDown<EntryId | null>(nodes, byId, null, (n, p) => groveIdOf.get(n.id) ?? p);
  const headerMs = toMs(file.header.timestamp);
  const createdOf = foldDown<number>(nodes, byId, headerMs ?? opts.now(), (n, p) => {
    const message = n.record.value.message;
    const t = isJson(message) ? message.timestamp : undefined;
    const messageMs = isRepresentableTime(t) && t >= 0 ? t : undefined;
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
  // Every user message's text until the first that can title the chat (title.ts skips slash commands).
  const userTexts: string[] = [];
  let titled = false;
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
      case "entry":
        if (!id) break;
        entries.push({ ...item.entry, ...base, id });
        if (item.userTurn && item.entry.type === "message" && !titled) {
          userTexts.push(messageText(item.entry.content));
          titled = canTitle(userTexts[userTexts.length - 1]!);
        }
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
          ...(grove?.compactedBy !== undefined ? { compactedBy: grove.compactedBy } : {}),
          ...(grove?.nativeFallback !== undefined ? { nativeFallback: grove.nativeFallback } : {}),
          ...(grove?.preserveData !== undefined ? { preserveData: grove.preserveData } : {}),
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
        // Grove's own pointer (the leaf of the branch left) when Grove wrote it; pi records only
        // where the user went, so for pi's own summaries the entry written just before it stands
        // in: pi appends as the leaf moves, so that is the leaf the user left.
        const groveFrom = grove?.fromId !== undefined ? keptAs.get(grove.fromId) : undefined;
        const from = groveFrom ?? previousEntry ?? base.parentId ?? id;
        const entry: BranchSummaryEntry = {
          type: "branch_summary",
          id,
          ...base,
          fromId: from,
          summary,
          ...(grove?.instructions !== undefined ? { instructions: grove.instructions } : {}),
          model: grove?.model ?? modelIdAt(n),
          ...(details !== undefined ? { details } : {}),
          ...(grove?.compactedBy !== undefined ? { compactedBy: grove.compactedBy } : {}),
          ...(grove?.nativeFallback !== undefined ? { nativeFallback: grove.nativeFallback } : {}),
          ...(grove?.preserveData !== undefined ? { preserveData: grove.preserveData } : {}),
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

  const finished = withPiExtras(stripKeptTurns(entries), nodes, piSession, images);

  const lastNode = nodes[nodes.length - 1];
  const model = lastNode ? (modelOf.get(lastNode.id) ?? null) : headerModel;
  const createdAt = headerMs ?? entries[0]?.createdAt ?? opts.now();
  // The header's fields Grove does not interpret (cwd, parentSession, its exact timestamp): written back.
  const { type: _type, version: _version, id: _id, timestamp, ...piHeader } = file.header;
  // The export writes the creation time; only a timestamp written otherwise needs keeping.
  if (timestamp !== undefined && timestamp !== new Date(createdAt).toISOString()) piHeader.timestamp = timestamp;
  const session: Session = {
    id: sessionId,
    title: title?.text ?? titleFromUserTexts(userTexts) ?? UNTITLED_IMPORT,
    titleSource: title?.source ?? "auto",
    createdAt,
    updatedAt: finished.reduce((m, e) => Math.max(m, e.createdAt), createdAt),
    leafId: lastNode ? (keptAs.get(lastNode.id) ?? null) : null,
    ...(model ? { model } : {}),
    importedFrom: `pi:${file.header.id}`,
    ...(Object.keys(piHeader).length > 0 ? { piHeader } : {}),
  };
  return ok({ session, entries: finished, labels, ...(images.size > 0 ? { images } : {}) });
}

/**
 * A compaction Grove exported wrote its kept user turns into pi's summary text (kept-turns.ts):
 * they come out again here, so Grove's context does not hold them twice.
 */
function stripKeptTurns(entries: readonly Entry[]): Entry[] {
  if (!entries.some((e) => e.type === "compaction" && e.keptUserTurnIds.length > 0)) return [...entries];
  const index = buildTreeIndex(entries);
  return entries.map((e) => {
    if (e.type !== "compaction" || e.keptUserTurnIds.length === 0) return e;
    const kept = planContext(pathToRoot(index, e.id)).keptUserTurns;
    const summary = summaryWithoutKeptTurns(e.summary, kept);
    return summary === e.summary ? e : { ...e, summary };
  });
}

/** Each entry with the patch that turns Grove's export of it back into pi's line (patch.ts). */
function withPiExtras(
  entries: readonly Entry[],
  nodes: readonly PiNode[],
  piSession: string,
  images: ReadonlyMap<string, PiImageData>,
): Entry[] {
  const lineOf = new Map<string, Json>(nodes.map((n) => [groveIdOfPi(piSession, n.id), n.record.value]));
  const ctx: PiLineContext = { idOut: (id) => piIdOfGrove(piSession, id), images, index: buildTreeIndex(entries) };
  const withoutTree = (line: Json): Json => {
    const out = { ...line };
    for (const k of TREE_FIELDS) delete out[k];
    return out;
  };
  return entries.map((e) => {
    const original = lineOf.get(e.id);
    if (!original) return e;
    const patch = diffJson(withoutTree(piLineOf(e, e.parentId, ctx)), withoutTree(original));
    return patch === undefined ? e : { ...e, piExtra: patch };
  });
}

export function parsePiJsonl(text: string, options: PiImportOptions = {}): ImportResult {
  const opts: Required<PiImportOptions> = {
    newSessionId: options.newSessionId ?? newSessionId,
    newEntryId: options.newEntryId ?? newEntryId,
    newBlobId: options.newBlobId ?? newBlobId,
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
