/**
 * What the three adapters share about streamed tool calls: arguments parsed while their JSON is still
 * arriving (so a consumer can render them), and the final parse.
 */
import { parse as parsePartial } from "partial-json";

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
