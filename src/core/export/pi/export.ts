/**
 * A Grove session out as a pi coding-agent session file (JSONL, format version 3) pi can open:
 * `exportPiJsonl`. Pure: data in, text out. import.ts reads such a file back.
 *
 * The rule: pi's model sees what Grove's model sees, and a session that came from pi goes back as
 * pi wrote it (pi's `buildSessionContext` gives the same messages at every leaf).
 * - Entries come parents first, the leaf's branch last, so the leaf is the last entry and pi
 *   resumes where Grove was. (A leaf that has children cannot be last; pi then opens at its last
 *   descendant.) Labels and a name the user gave follow as `label` / `session_info` lines chained
 *   after it, as pi itself writes them; pi's context skips both. An automatic title is not written.
 * - Ids: pi's own ids come back (ids.ts); a Grove entry keeps its UUID.
 * - Each entry kind has its pi line: model / thinking-level changes, `custom` data, context notes
 *   (`custom_message`, or a `custom`-role message when pi wrote it so), commands (`bashExecution`
 *   messages), images with their bytes (`options.images`; without them a visible note).
 * - What an imported line held beyond that (usage.cost, responseId, details, textSignature, …) is
 *   the entry's `piExtra` patch, applied last (patch.ts).
 * - A compaction's kept user turns are written into its summary text as Grove's context builder
 *   places them (kept-turns.ts), since pi sends nothing but that text.
 * - A branch summary's `fromId` is pi's: where the user went (the summary's parent), or "root".
 *   Grove's own pointer, the leaf of the branch left, rides in the `grove` field.
 * - A handoff entry → a `custom_message` (customType "grove-handoff") whose content is the handoff
 *   context Grove's model sees; its `details` carry the document and links.
 * - Grove-only fields pi has no place for ride along in a `grove` field pi ignores.
 * - Not kept: the system prompt, the session model (pi derives it from the messages), `continues`,
 *   "interrupted" (written as aborted), error kinds, prices of Grove's own replies (0).
 */
import { textFileText } from "../../attachments/attachment-text";
import { fillTemplate, HANDOFF_CONTEXT } from "../../prompts";
import {
  type ApiKind,
  assertNever,
  type Block,
  type CompactionEntry,
  type Entry,
  type ImageBlock,
  type MessageEntry,
  messageText,
} from "../../session/entries";
import { serverToolText, toolCallText, toolResultModelText, toolResultText } from "../../session/entry-text";
import type { EntryId } from "../../session/ids";
import { planContext } from "../../session/plan-context";
import { titleFromUserTexts } from "../../session/title";
import { buildTreeIndex, childrenOf, pathToRoot, type TreeIndex } from "../../session/tree";
import type { ExportedSession } from "../grove-json";
import {
  type BranchSummaryGrove,
  type CompactionGrove,
  GROVE_HANDOFF_CUSTOM_TYPE,
  type HandoffDetails,
  isJson,
  type Json,
  MODEL_CHANGE_NOTE,
  PI_IMAGE_OMITTED,
  PI_SESSION_VERSION,
  type TextBlockGrove,
  type ToolResultGrove,
  UNTITLED_IMPORT,
} from "./format";
import { piIdOfGrove } from "./ids";
import { summaryWithKeptTurns } from "./kept-turns";
import { applyPatch } from "./patch";

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
  if (api === "openai-responses") return "openai-responses";
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

/** pi's image block, with its bytes; without them a visible note. */
function piImage(b: ImageBlock, ctx: PiLineContext): Json {
  const image = ctx.images.get(b.blobId);
  return image
    ? { type: "image", data: image.data, mimeType: image.mimeType }
    : { type: "text", text: PI_IMAGE_OMITTED };
}

/** A block of a user-side message (tool blocks as build-context writes them; no reasoning). */
function asPiText(b: Block, ctx: PiLineContext): Json | null {
  switch (b.type) {
    case "text": {
      const grove: TextBlockGrove | null = b.citations ? { citations: b.citations } : null;
      return { type: "text", text: b.text, ...(grove ? { grove } : {}) };
    }
    case "server_tool":
      // pi has no such block: its text is what pi's model reads; Grove's block rides along.
      return { type: "text", text: serverToolText(b), grove: { serverTool: b } satisfies TextBlockGrove };
    case "image":
      return piImage(b, ctx);
    case "document":
      return { type: "text", text: PI_IMAGE_OMITTED };
    case "text_file":
      return { type: "text", text: textFileText(b) };
    case "tool_call":
      return { type: "text", text: toolCallText(b.name, b.args) };
    case "tool_result":
      return { type: "text", text: toolResultText(toolResultModelText(b), b.toolName, b.isError) };
    case "thinking": // reasoning outside an assistant reply has no place in pi
    case "reasoning":
      return null;
    default:
      return assertNever(b, "block");
  }
}

function userContent(content: readonly Block[], ctx: PiLineContext): Json[] {
  return content.map((b) => asPiText(b, ctx)).filter((b): b is Json => b !== null);
}

function assistantContent(content: readonly Block[], ctx: PiLineContext): Json[] {
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
    } else if (b.type === "reasoning") {
      // pi's form of a Responses reasoning item: a thinking block signed with the item as JSON.
      const item = {
        type: "reasoning",
        id: b.id,
        summary: b.summary.map((text) => ({ type: "summary_text", text })),
        ...(b.encryptedContent !== undefined ? { encrypted_content: b.encryptedContent } : {}),
      };
      out.push({ type: "thinking", thinking: b.summary.join("\n\n"), thinkingSignature: JSON.stringify(item) });
    } else if (b.type === "tool_call") {
      // pi's arguments are an object; anything else (a hand-made import) is wrapped, not lost.
      out.push({ type: "toolCall", id: b.id, name: b.name, arguments: isJson(b.args) ? b.args : { input: b.args } });
    } else {
      const t = asPiText(b, ctx);
      if (t) out.push(t);
    }
  }
  return out;
}

function piMessageOf(e: MessageEntry, ctx: PiLineContext): Json {
  const timestamp = e.createdAt;
  switch (e.role) {
    case "user":
      return { role: "user", content: userContent(e.content, ctx), timestamp };
    case "assistant": {
      const cacheRead = e.usage?.cacheRead ?? 0;
      const cacheWrite = e.usage?.cacheWrite ?? 0;
      const output = e.usage?.output ?? 0;
      const input = Math.max(0, (e.usage?.input ?? 0) - cacheRead - cacheWrite);
      const stopReason = piStopReasonOf(e);
      return {
        role: "assistant",
        content: assistantContent(e.content, ctx),
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
      // An empty result text beside images (a read image file) is not written: pi had only the images.
      const onlyImages = result?.text === "" && e.content.some((b) => b.type === "image");
      // A result cut for the model is written as the model is sent it; the whole text rides in `grove`.
      const cut = result !== undefined && (result.shownChars !== undefined || result.originalChars !== undefined);
      const content = e.content
        .map((b) =>
          b.type === "tool_result"
            ? onlyImages
              ? null
              : { type: "text", text: cut ? toolResultModelText(b) : b.text }
            : asPiText(b, ctx),
        )
        .filter((b): b is Json => b !== null);
      if (!result) return { role: "user", content, timestamp };
      const grove: ToolResultGrove | null = cut
        ? {
            text: result.text,
            ...(result.shownChars !== undefined ? { shownChars: result.shownChars } : {}),
            ...(result.originalChars !== undefined ? { originalChars: result.originalChars } : {}),
          }
        : null;
      return {
        role: "toolResult",
        toolCallId: result.callId,
        toolName: result.toolName ?? "",
        content,
        isError: result.isError,
        ...(grove ? { grove } : {}),
        timestamp,
      };
    }
    default:
      return assertNever(e.role, "role");
  }
}

/** What a line needs beyond its entry: ids as pi knows them, image bytes, the tree (for kept turns). */
export type PiLineContext = {
  readonly idOut: (id: string) => string;
  readonly images: ReadonlyMap<string, PiImageData>;
  readonly index: TreeIndex;
};

function compactionSummary(e: CompactionEntry, ctx: PiLineContext): string {
  if (e.keptUserTurnIds.length === 0 || !ctx.index.byId.has(e.id)) return e.summary;
  return summaryWithKeptTurns(e.summary, planContext(pathToRoot(ctx.index, e.id)).keptUserTurns);
}

/** The pi line Grove writes for an entry, before its `piExtra` patch. */
export function piLineOf(e: Entry, parentId: EntryId | null, ctx: PiLineContext): Json {
  const base = {
    id: ctx.idOut(e.id),
    parentId: parentId === null ? null : ctx.idOut(parentId),
    timestamp: isoOf(e.createdAt),
  };
  switch (e.type) {
    case "message": {
      // A model change an earlier Grove import kept as a user note goes back as one.
      const only = e.content.length === 1 ? e.content[0] : undefined;
      const note = e.role === "user" && only?.type === "text" ? MODEL_CHANGE_NOTE.exec(only.text) : null;
      if (note?.[1] && note[2]) return { type: "model_change", ...base, provider: note[2], modelId: note[1] };
      return { type: "message", ...base, message: piMessageOf(e, ctx) };
    }
    case "model_change":
      return { type: "model_change", ...base, provider: e.provider, modelId: e.modelId };
    case "thinking_level_change":
      return { type: "thinking_level_change", ...base, thinkingLevel: e.thinkingLevel };
    case "custom":
      return { type: "custom", ...base, customType: e.customType, ...(e.data !== undefined ? { data: e.data } : {}) };
    case "context_note": {
      const fields = {
        customType: e.customType,
        content: userContent(e.content, ctx),
        display: e.display,
        ...(e.details !== undefined ? { details: e.details } : {}),
      };
      return e.asMessage
        ? { type: "message", ...base, message: { role: "custom", ...fields, timestamp: e.createdAt } }
        : { type: "custom_message", ...base, ...fields };
    }
    case "command":
      return {
        type: "message",
        ...base,
        message: {
          role: "bashExecution",
          command: e.command,
          output: e.output,
          ...(e.exitCode !== undefined ? { exitCode: e.exitCode } : {}),
          ...(e.cancelled !== undefined ? { cancelled: e.cancelled } : {}),
          ...(e.truncated !== undefined ? { truncated: e.truncated } : {}),
          ...(e.fullOutputPath !== undefined ? { fullOutputPath: e.fullOutputPath } : {}),
          ...(e.excludeFromContext !== undefined ? { excludeFromContext: e.excludeFromContext } : {}),
          timestamp: e.createdAt,
        },
      };
    case "compaction":
      return {
        type: "compaction",
        ...base,
        summary: compactionSummary(e, ctx),
        // Omitted when null: pi then keeps only what follows the compaction, as Grove does.
        ...(e.firstKeptEntryId !== null ? { firstKeptEntryId: ctx.idOut(e.firstKeptEntryId) } : {}),
        tokensBefore: e.tokensBefore,
        ...(e.details !== undefined ? { details: e.details } : {}),
        ...piPreserveData(e),
        grove: {
          shortSummary: e.shortSummary,
          keptUserTurnIds: e.keptUserTurnIds.map(ctx.idOut),
          tokensAfter: e.tokensAfter,
          reason: e.reason,
          ...(e.instructions !== undefined ? { instructions: e.instructions } : {}),
          model: e.model,
          ...(e.compactedBy !== undefined ? { compactedBy: e.compactedBy } : {}),
          ...(e.nativeFallback !== undefined ? { nativeFallback: e.nativeFallback } : {}),
          ...(e.preserveData !== undefined ? { preserveData: e.preserveData } : {}),
        } satisfies CompactionGrove,
      };
    case "branch_summary":
      return {
        type: "branch_summary",
        ...base,
        // pi's meaning (navigateTree → branchWithSummary): where the user went, or "root".
        fromId: base.parentId ?? "root",
        summary: e.summary,
        ...(e.details !== undefined ? { details: e.details } : {}),
        grove: {
          model: e.model,
          ...(e.instructions !== undefined ? { instructions: e.instructions } : {}),
          fromId: ctx.idOut(e.fromId),
        } satisfies BranchSummaryGrove,
      };
    case "handoff":
      return {
        type: "custom_message",
        ...base,
        customType: GROVE_HANDOFF_CUSTOM_TYPE,
        content: fillTemplate(HANDOFF_CONTEXT, { document: e.document }),
        display: true,
        details: {
          document: e.document,
          fromSessionId: e.fromSessionId,
          fromEntryId: e.fromEntryId,
        } satisfies HandoffDetails,
      };
    default:
      return assertNever(e, "entry");
  }
}

/**
 * Fields Grove owns on every line: the tree, and the `grove` field (Grove's own data, written
 * whether or not the line had it, so it survives a round trip). Never taken from a patch.
 */
export const TREE_FIELDS = ["id", "parentId", "firstKeptEntryId", "grove"] as const;

/** The line with what the import kept beyond Grove's fields put back. */
function withExtra(line: Json, e: Entry): Json {
  if (e.piExtra === undefined) return line;
  const patched = applyPatch(line, e.piExtra);
  if (!isJson(patched)) return line;
  const out: Json = { ...patched };
  for (const k of TREE_FIELDS) {
    if (line[k] === undefined) delete out[k];
    else out[k] = line[k];
  }
  return out;
}

export type PiImageData = { readonly data: string; readonly mimeType: string };
export type PiExportOptions = {
  /** Image bytes (base64) by blob id; an image without them is written as a visible note. */
  images?: ReadonlyMap<string, PiImageData>;
};

/** The session as a pi v3 JSONL file: every branch, the leaf last, labels and a user-given name after it. */
export function exportPiJsonl(s: ExportedSession, options: PiExportOptions = {}): string {
  const { session, entries, labels } = s;
  const piSession = piSessionId(session);
  const entryIds = new Set<string>(entries.map((e) => e.id));
  const ctx: PiLineContext = {
    idOut: (id) => piIdOfGrove(piSession, id),
    images: options.images ?? s.images ?? new Map(),
    index: buildTreeIndex(entries),
  };
  const known = new Set<string>([...entryIds].map(ctx.idOut));
  const { cwd, ...headerExtra } = session.piHeader ?? {};
  const lines: Json[] = [
    {
      type: "session",
      version: PI_SESSION_VERSION,
      id: piSession,
      timestamp: isoOf(session.createdAt),
      // pi prints the cwd to its model: written only when known.
      ...(typeof cwd === "string" && cwd !== "" ? { cwd } : {}),
      ...headerExtra,
    },
  ];
  let last: string | null = null;
  for (const e of parentsFirst(entries, session.leafId)) {
    const parent = e.parentId !== null && entryIds.has(e.parentId) ? e.parentId : null;
    const line = withExtra(piLineOf(e, parent, ctx), e);
    lines.push(line);
    last = String(line.id);
  }
  // Labels and the name as pi writes them: each a child of the line before, after the leaf.
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
    lines.push({ type: "label", id, parentId: last, timestamp, targetId: ctx.idOut(targetId), label });
    last = id;
  }
  // A name the user gave (or pi's own) is pi's name. An automatic title goes only when it is not
  // the first words pi and a later import would take anyway (a generated title): marked "auto" in
  // Grove's field, so a rename after the import still counts as the user's first.
  if (session.title.trim() !== "") {
    if (session.titleSource === "user") {
      lines.push({ type: "session_info", id: freshId(), parentId: last, timestamp, name: session.title });
    } else if (session.title !== firstWordsTitle(entries, session.leafId)) {
      const grove = { titleSource: "auto" };
      lines.push({ type: "session_info", id: freshId(), parentId: last, timestamp, name: session.title, grove });
    }
  }
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

/** The title an import gives a chat without a name: its first user words (pi/import.ts, the same order). */
function firstWordsTitle(entries: readonly Entry[], leafId: EntryId | null): string | null {
  const texts = parentsFirst(entries, leafId).flatMap((e) =>
    e.type === "message" && e.role === "user" ? [messageText(e.content)] : [],
  );
  return titleFromUserTexts(texts) ?? UNTITLED_IMPORT;
}

/** A session that came from pi goes back under its pi id (pi and a later import know it by that). */
function piSessionId(session: ExportedSession["session"]): string {
  const from = session.importedFrom;
  return from?.startsWith("pi:") ? from.slice("pi:".length) : session.id;
}

/**
 * What pi writes for an OpenAI remote compaction: `preserveData.openaiRemoteCompaction` with the
 * provider and the replacement history (the `responses.compact` output) and its compaction item.
 * Anthropic's block has no pi counterpart: it rides in the `grove` field only.
 */
function piPreserveData(e: CompactionEntry): { preserveData?: Json } {
  const remote = e.compactedBy === "openai" ? e.preserveData?.openaiRemoteCompaction : undefined;
  if (!remote) return {};
  const compactionItem = remote.items.find(
    (i) => typeof i === "object" && i !== null && (i as { type?: unknown }).type === "compaction",
  );
  return {
    preserveData: {
      openaiRemoteCompaction: {
        provider: remote.provider,
        replacementHistory: remote.items as Json[],
        ...(compactionItem !== undefined ? { compactionItem: compactionItem as Json } : {}),
      },
    },
  };
}
