/**
 * What a pi line held beyond what Grove's export writes for the entry it became: a patch, stored
 * opaque on the entry (`piExtra`) at import and applied to the exported line, so every field pi
 * (or an extension) wrote and Grove does not interpret comes back unchanged — usage.cost,
 * responseId, a tool result's details, textSignature, fromHook, fields of a newer pi. Pure.
 *
 * Shape (unambiguous: never mixed with the data's own keys):
 *   {v: value}                    the value, replaced whole
 *   {o: {key: patch}, d?: [keys]} an object: keys patched or added, keys `d` removed
 *   {a: {index: patch}}           an array of the same length: items patched
 */
import { isJson, type Json } from "./format";

export type Patch = { v: unknown } | { o: Record<string, Patch>; d?: string[] } | { a: Record<string, Patch> };

/** The patch that turns `written` (Grove's export of the entry) into `original` (pi's line); undefined when equal. */
export function diffJson(written: unknown, original: unknown): Patch | undefined {
  if (isJson(written) && isJson(original)) {
    const o: Record<string, Patch> = {};
    const d: string[] = [];
    for (const [k, v] of Object.entries(original)) {
      const p = diffJson(written[k], v);
      if (p !== undefined) o[k] = p;
    }
    for (const [k, v] of Object.entries(written)) if (v !== undefined && !(k in original)) d.push(k);
    if (Object.keys(o).length === 0 && d.length === 0) return undefined;
    return d.length > 0 ? { o, d } : { o };
  }
  if (Array.isArray(written) && Array.isArray(original) && written.length === original.length) {
    const a: Record<string, Patch> = {};
    original.forEach((v, i) => {
      const p = diffJson(written[i], v);
      if (p !== undefined) a[String(i)] = p;
    });
    return Object.keys(a).length === 0 ? undefined : { a };
  }
  return sameJson(written, original) ? undefined : { v: original };
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * `written` with `patch` applied. A malformed patch (from a hand-edited Grove file) is ignored
 * where it does not fit, never thrown on: the line Grove wrote is still a valid pi line.
 */
export function applyPatch(written: unknown, patch: unknown): unknown {
  if (!isJson(patch)) return written;
  if ("v" in patch) return patch.v;
  if (isJson(patch.o) && isJson(written)) {
    const out: Json = { ...written };
    if (Array.isArray(patch.d)) for (const k of patch.d) if (typeof k === "string") delete out[k];
    for (const [k, p] of Object.entries(patch.o)) out[k] = applyPatch(out[k], p);
    return out;
  }
  if (isJson(patch.a) && Array.isArray(written)) {
    const out = [...written];
    for (const [k, p] of Object.entries(patch.a)) {
      const i = Number(k);
      if (Number.isInteger(i) && i >= 0 && i < out.length) out[i] = applyPatch(out[i], p);
    }
    return out;
  }
  return written;
}
