/**
 * An MCP tool result as Grove reads it (issue 28): the protocol's content items normalized
 * (`McpContent`), and the text the model is given for them — text as it is, an image or audio by its
 * type (its bytes go apart, as an attachment), an embedded text resource by its text, a binary one or
 * a link by its URI. A result that does not parse is a failure, never a crash. Pure.
 */
import type { McpContent, McpOutcome, McpToolResult } from "./mcp-types";

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

function contentOf(item: unknown): McpContent | null {
  if (!isJson(item)) return null;
  switch (item.type) {
    case "text":
      return typeof item.text === "string" ? { type: "text", text: item.text } : null;
    case "image":
    case "audio": {
      const data = str(item.data);
      const mimeType = str(item.mimeType);
      return data !== undefined && mimeType !== undefined ? { type: item.type, data, mimeType } : null;
    }
    case "resource": {
      const r = item.resource;
      if (!isJson(r) || typeof r.uri !== "string") return null;
      const mimeType = str(r.mimeType);
      const text = str(r.text);
      const blob = str(r.blob);
      return {
        type: "resource",
        uri: r.uri,
        ...(mimeType !== undefined ? { mimeType } : {}),
        ...(text !== undefined ? { text } : {}),
        ...(blob !== undefined ? { blob } : {}),
      };
    }
    case "resource_link": {
      if (typeof item.uri !== "string") return null;
      const name = str(item.name);
      const mimeType = str(item.mimeType);
      return {
        type: "resource_link",
        uri: item.uri,
        ...(name !== undefined ? { name } : {}),
        ...(mimeType !== undefined ? { mimeType } : {}),
      };
    }
    default:
      return null;
  }
}

/** A `tools/call` result (already parsed JSON) normalized; malformed when it has no content list. */
export function normalizeToolResult(raw: unknown): McpOutcome<McpToolResult> {
  if (!isJson(raw) || !Array.isArray(raw.content)) {
    return { ok: false, failure: { kind: "malformed", message: "The server sent a tool result without content." } };
  }
  const content: McpContent[] = [];
  for (const item of raw.content) {
    const c = contentOf(item);
    content.push(c ?? { type: "text", text: `[unreadable ${isJson(item) ? String(item.type) : "content"}]` });
  }
  return {
    ok: true,
    value: {
      content,
      isError: raw.isError === true,
      ...(raw.structuredContent !== undefined ? { structuredContent: raw.structuredContent } : {}),
    },
  };
}

/** One content item as the text the model is given. */
export function contentText(c: McpContent): string {
  switch (c.type) {
    case "text":
      return c.text;
    case "image":
      return `[image: ${c.mimeType}]`;
    case "audio":
      return `[audio: ${c.mimeType}]`;
    case "resource":
      return c.text !== undefined ? c.text : `[resource: ${c.uri}${c.mimeType ? ` (${c.mimeType})` : ""}]`;
    case "resource_link":
      return `[link: ${c.name ? `${c.name} ` : ""}${c.uri}]`;
    default: {
      const unknown: never = c;
      return String(unknown);
    }
  }
}

/**
 * The result's text for the model: its items' texts, one after another; the structured output as
 * JSON when there is no text at all.
 */
function toolResultText(result: McpToolResult): string {
  const text = result.content.map(contentText).join("\n");
  if (text === "" && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return text;
}

/** The images of a result (data base64, type): the state layer stores them as attachments. */
export function resultImages(result: McpToolResult): Array<{ data: string; mimeType: string }> {
  return result.content.flatMap((c) => (c.type === "image" ? [{ data: c.data, mimeType: c.mimeType }] : []));
}

/** What the model is told of a call: the result's text, or the failure's reason (an error either way). */
export function callOutcomeText(outcome: McpOutcome<McpToolResult>): { text: string; isError: boolean } {
  if (!outcome.ok) return { text: outcome.failure.message, isError: true };
  return { text: toolResultText(outcome.value), isError: outcome.value.isError };
}
