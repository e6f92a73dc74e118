/**
 * The import schemas of the tool fields Grove JSON and the pi `grove` fields share: citations on
 * text, a server tool block (its wire block or item opaque: checked for its shape only, passed through
 * unchanged), a tool result's truncation fields. No I/O here.
 */
import { z } from "zod";
import type { ServerToolBlock } from "../session/entries";

const apiKind = z.enum(["anthropic-messages", "openai-responses", "openai-chat"]);
const count = z.number().int().nonnegative();

export const citationSchema = z.object({
  url: z.string(),
  title: z.string().optional(),
  citedText: z.string().optional(),
});

export const serverToolBlockSchema = z.object({
  type: z.literal("server_tool"),
  api: apiKind,
  provider: z.string(),
  tool: z.enum(["web_search", "web_fetch", "code_execution", "mcp", "other"]),
  name: z.string(),
  part: z.enum(["use", "result", "item"]),
  callId: z.string(),
  server: z.string().optional(),
  input: z.unknown().optional(),
  output: z.string().optional(),
  sources: z.array(citationSchema).optional(),
  files: z.array(z.string()).optional(),
  produced: z
    .array(
      z.object({
        fileId: z.string(),
        containerId: z.string().optional(),
        name: z.string().optional(),
        url: z.string().optional(),
      }),
    )
    .optional(),
  isError: z.boolean().optional(),
  raw: z.record(z.string(), z.unknown()),
}) satisfies z.ZodType<ServerToolBlock>;

/** Spread into a tool_result block's zod shape. */
export const toolResultTruncationFields = {
  shownChars: count.optional(),
  originalChars: count.optional(),
};
