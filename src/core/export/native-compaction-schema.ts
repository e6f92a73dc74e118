/**
 * The import schema of a compaction entry's provider-native fields (`compactedBy`,
 * `nativeFallback`, `preserveData`), shared by Grove JSON and the pi `grove` field. The provider's
 * material is opaque: it is checked only for its shape and passed through as the same value, so
 * export → import keeps it byte-identical (no key dropped or reordered).
 */
import { z } from "zod";
import type { AnthropicCompaction } from "../session/entries";

const apiKind = z.enum(["anthropic-messages", "openai-responses", "openai-chat"]);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const compactionBlock = z.custom<AnthropicCompaction["block"]>(
  (v) => isRecord(v) && v.type === "compaction" && (v.content === null || typeof v.content === "string"),
  { message: "Expected an Anthropic compaction block." },
);

const preserveDataSchema = z.object({
  openaiRemoteCompaction: z
    .object({ api: apiKind, provider: z.string(), model: z.string(), items: z.array(z.unknown()).readonly() })
    .optional(),
  anthropicCompaction: z
    .object({ api: apiKind, provider: z.string(), model: z.string(), block: compactionBlock })
    .optional(),
});

/** Spread into a compaction entry's zod shape. */
export const nativeCompactionFields = {
  compactedBy: z.enum(["grove", "openai", "anthropic"]).optional(),
  nativeFallback: z.string().optional(),
  preserveData: preserveDataSchema.optional(),
};
