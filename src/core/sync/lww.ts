/**
 * Last-writer-wins for the few mutable records (a session's settings, its leaf, a label): every
 * version carries the hybrid-clock stamp of the edit that made it, and the latest stamp wins,
 * whatever order the versions arrived in and whichever revision CouchDB picked as its winner.
 * A session's deletion is final: session ids are never reused, so a later edit made offline on
 * another device must not bring a deleted chat back.
 */
import { compareHlc } from "./hlc";

export type Versioned = { readonly hlc: string; readonly final?: boolean };

/** The winning version, or undefined for none. Deterministic: same versions, any order, same winner. */
export function pickWinner<T extends Versioned>(versions: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const v of versions) {
    if (!best) best = v;
    else if (Boolean(v.final) !== Boolean(best.final)) best = v.final ? v : best;
    else if (compareHlc(v.hlc, best.hlc) > 0) best = v;
  }
  return best;
}

/** Whether an incoming version replaces the current one (current undefined: nothing known yet). */
export function replaces(incoming: Versioned, current: Versioned | undefined): boolean {
  return pickWinner(current ? [current, incoming] : [incoming]) === incoming && !sameVersion(incoming, current);
}

function sameVersion(a: Versioned, b: Versioned | undefined): boolean {
  return b !== undefined && a.hlc === b.hlc && Boolean(a.final) === Boolean(b.final);
}
