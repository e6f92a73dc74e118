/**
 * A hybrid logical clock (Kulkarni et al.): wall-clock milliseconds, a counter for events within the
 * same millisecond (or while the wall clock lags a time seen from another device), and the device
 * id as the final tie-breaker. Encoded as a fixed-width string so that string order is clock order:
 * the sync code compares stamps with `<` and stores them as plain text inside encrypted documents.
 * Pure: the caller passes the wall time in.
 */

export type Hlc = { readonly wall: number; readonly counter: number; readonly node: string };

const WALL_WIDTH = 15;
const COUNTER_WIDTH = 6;

export function encodeHlc(h: Hlc): string {
  return `${String(h.wall).padStart(WALL_WIDTH, "0")}.${String(h.counter).padStart(COUNTER_WIDTH, "0")}.${h.node}`;
}

/** An encoded stamp: wall, counter, node. */
export const HLC_PATTERN = /^(\d{15})\.(\d{6})\.(.+)$/;

/** @throws Error on a string that is not an encoded stamp (a foreign or corrupted document). */
export function decodeHlc(s: string): Hlc {
  const match = HLC_PATTERN.exec(s);
  if (!match) throw new Error(`Not a clock stamp: ${s.slice(0, 40)}`);
  return { wall: Number(match[1]), counter: Number(match[2]), node: match[3]! };
}

/** Negative, zero or positive as `a` is before, equal to or after `b`. */
export function compareHlc(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The stamp for a local event at wall time `now`: after every stamp this clock has issued or seen. */
export function tickHlc(last: Hlc, now: number): Hlc {
  if (now > last.wall) return { wall: now, counter: 0, node: last.node };
  return { wall: last.wall, counter: last.counter + 1, node: last.node };
}

/** Folds a stamp received from another device into this clock, so later local stamps come after it. */
export function receiveHlc(last: Hlc, remote: Hlc, now: number): Hlc {
  const wall = Math.max(last.wall, remote.wall, now);
  let counter = 0;
  if (wall === last.wall && wall === remote.wall) counter = Math.max(last.counter, remote.counter) + 1;
  else if (wall === last.wall) counter = last.counter + 1;
  else if (wall === remote.wall) counter = remote.counter + 1;
  return { wall, counter, node: last.node };
}

/** A mutable clock for one device: issues stamps and learns from received ones. */
export class HybridClock {
  private last: Hlc;
  constructor(
    node: string,
    private readonly now: () => number = Date.now,
  ) {
    this.last = { wall: 0, counter: 0, node };
  }
  next(): string {
    this.last = tickHlc(this.last, this.now());
    return encodeHlc(this.last);
  }
  receive(stamp: string): void {
    this.last = receiveHlc(this.last, decodeHlc(stamp), this.now());
  }
  /** Learns from a received value's `hlc` field, if it has a valid one (immutable records have none). */
  receiveIfStamped(value: unknown): void {
    const stamp = (value as { hlc?: unknown } | null)?.hlc;
    if (typeof stamp !== "string") return;
    try {
      this.receive(stamp);
    } catch {
      // A malformed stamp teaches nothing; the record still resolves by string order.
    }
  }
}
