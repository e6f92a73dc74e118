/**
 * The pi session file format as both sides see it: the version written and read, the constants
 * and note texts import and export must agree on, and zod schemas for the v3 line shapes. pi's
 * loader is the reference (`coding-agent/src/core/session-manager.ts`). Representation choices
 * are documented in import.ts, export.ts and README.md.
 */
import { z } from "zod";
import { nativeCompactionFields } from "../native-compaction-schema";
import { citationSchema, serverToolBlockSchema, toolResultTruncationFields } from "../tool-block-schema";

/** pi's current format version: what imports are migrated to and what export writes. */
/** The title of an imported pi session with no name and no user words (export.ts writes no name for it). */
export const UNTITLED_IMPORT = "Imported pi session";

export const PI_SESSION_VERSION = 3;
/** Stands in for a pi image: blobs are not imported here. */
export const PI_IMAGE_OMITTED = "[image omitted]";
/** customType of the `custom_message` a Grove handoff entry is exported as. */
export const GROVE_HANDOFF_CUSTOM_TYPE = "grove-handoff";
/** Exactly the text `modelChangeNote` writes: export turns such a user message back into a `model_change`. */
export const MODEL_CHANGE_NOTE = /^\[Model changed to (.+) \(([^()]+)\)\]$/;

export type Json = Record<string, unknown>;
export type Result<T> = { ok: true; value: T } | { ok: false; message: string };
export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T>(message: string): Result<T> => ({ ok: false, message });
export const isJson = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

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
export type PiBlock = z.output<typeof blockSchema>;
/** pi allows a plain string where a block list is expected (user and custom messages). */
const contentSchema = z.preprocess(
  (c) => (typeof c === "string" ? [{ type: "text", text: c }] : c),
  z.array(blockSchema),
);

export const userSchema = z.looseObject({ role: z.literal("user"), content: contentSchema, timestamp: ms.optional() });
export const assistantSchema = z.looseObject({
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
export const toolResultSchema = z.looseObject({
  role: z.literal("toolResult"),
  toolCallId: z.string(),
  toolName: z.string().optional(),
  content: contentSchema,
  isError: z.boolean().optional(),
});
export const bashSchema = z.looseObject({
  role: z.literal("bashExecution"),
  command: z.string(),
  output: z.string().optional(),
  exitCode: z.number().nullish(),
  cancelled: z.boolean().optional(),
  truncated: z.boolean().optional(),
  fullOutputPath: z.string().optional(),
  excludeFromContext: z.boolean().optional(),
});
export const customSchema = z.looseObject({
  role: z.literal("custom"),
  customType: z.string(),
  content: contentSchema,
  display: z.unknown().optional(),
  details: z.unknown().optional(),
});

const compactionReason = z.enum(["manual", "threshold", "overflow", "length", "preflight", "idle"]);
// The `grove` field: Grove-only data pi has no place for, on the lines that need it. pi ignores
// fields it does not know; export writes these, import reads them back (README.md).
const compactionGrove = z.looseObject({
  shortSummary: z.string().optional(),
  keptUserTurnIds: z.array(z.string()).optional(),
  tokensAfter: count.optional(),
  reason: compactionReason.optional(),
  instructions: z.string().optional(),
  model: z.string().optional(),
  ...nativeCompactionFields,
});
/** `fromId`: Grove's own pointer, the leaf of the branch that was left (pi's `fromId` is where the user went). */
const branchSummaryGrove = z.looseObject({
  model: z.string().optional(),
  instructions: z.string().optional(),
  fromId: z.string().optional(),
});
const sessionInfoGrove = z.looseObject({ titleSource: z.enum(["auto", "user"]).optional() });
/**
 * On a text block: the citations of Grove's text, or the server tool block the text stands for (pi has
 * no such block: its text is what pi's model reads, Grove's own block comes back from here).
 */
export const textBlockGrove = z.object({
  citations: z.array(citationSchema).optional(),
  serverTool: serverToolBlockSchema.optional(),
});
/** On a toolResult message cut for the model: the whole text (the content is what the model is sent). */
export const toolResultGrove = z.object({ text: z.string(), ...toolResultTruncationFields });
export type TextBlockGrove = z.input<typeof textBlockGrove>;
export type ToolResultGrove = z.input<typeof toolResultGrove>;
/** What export writes in a compaction's `grove` field. */
export type CompactionGrove = z.input<typeof compactionGrove>;
/** What export writes in a branch summary's `grove` field. */
export type BranchSummaryGrove = z.input<typeof branchSummaryGrove>;

export const messageLine = z.looseObject({ message: z.looseObject({ role: z.string() }) });
export const modelChangeLine = z.looseObject({ provider: z.string(), modelId: z.string() });
export const thinkingLevelLine = z.looseObject({ thinkingLevel: z.string() });
export const compactionLine = z.looseObject({
  summary: z.string(),
  firstKeptEntryId: z.string().optional(),
  tokensBefore: count,
  details: z.unknown().optional(),
  grove: compactionGrove.optional(),
});
export const branchSummaryLine = z.looseObject({
  fromId: z.string(),
  summary: z.string(),
  details: z.unknown().optional(),
  grove: branchSummaryGrove.optional(),
});
export const customMessageLine = z.looseObject({
  customType: z.string(),
  content: contentSchema,
  details: z.unknown().optional(),
  display: z.unknown().optional(),
});
/** The `details` of a grove-handoff `custom_message`: the handoff document and its links. */
export const handoffDetails = z.looseObject({
  document: z.string(),
  fromSessionId: z.string().min(1),
  fromEntryId: z.string().min(1),
});
export type HandoffDetails = z.input<typeof handoffDetails>;
export const labelLine = z.looseObject({ targetId: z.string(), label: z.string().nullish() });
export const sessionInfoLine = z.looseObject({
  name: z.string().nullish(),
  grove: sessionInfoGrove.optional(),
});
export const headerSchema = z.looseObject({
  type: z.literal("session"),
  id: z.string().min(1),
  timestamp: z.string().optional(),
  provider: z.string().optional(),
  modelId: z.string().optional(),
});
export type PiHeader = z.output<typeof headerSchema>;
