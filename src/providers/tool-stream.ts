/**
 * What the three adapters share about streamed tool calls: arguments parsed while their JSON is still
 * arriving (so a consumer can render them), the final parse, and the plain `StreamFn` view of a stream
 * that may call tools (a request without tools never yields tool events; the filter makes that a type).
 */
import { parse as parsePartial } from "partial-json";
import type { StreamEvent, StreamFn, ToolStreamEvent, ToolStreamFn } from "./types";

/** What parses of a call's arguments so far (`{}` before anything does). */
export function partialArgs(json: string): unknown {
  if (json.trim() === "") return {};
  try {
    return parsePartial(json) as unknown;
  } catch {
    return {};
  }
}

/**
 * A call's final arguments: the JSON the model wrote, or (malformed, a cut stream) what parses of it;
 * an unparsable rest is kept as `{_raw: text}` so the tool sees an error, not silently nothing.
 */
export function finalArgs(json: string): unknown {
  if (json.trim() === "") return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    const partial = partialArgs(json);
    return typeof partial === "object" && partial !== null && Object.keys(partial).length > 0
      ? partial
      : { _raw: json };
  }
}

const isPlainEvent = (e: ToolStreamEvent): e is StreamEvent =>
  e.type !== "toolcall_start" && e.type !== "toolcall_delta" && e.type !== "toolcall_end" && e.type !== "server_tool";

/** The plain chat's view of a tool-capable stream: the same events without the tool ones. */
export function withoutToolEvents(stream: ToolStreamFn): StreamFn {
  return async function* plain(req) {
    for await (const event of stream(req)) if (isPlainEvent(event)) yield event;
  };
}
