/**
 * Test support: an independent, exact tiktoken count that is fast on any input, to measure the
 * long-run guard against. Same rules as tiktoken (the encoding's regex splits the text; each
 * pre-token that is itself a token counts 1; otherwise byte pairs are merged lowest rank first,
 * leftmost on ties, until no adjacent pair is a token), but the merge uses a heap and a linked
 * list, O(n log n) per pre-token instead of js-tiktoken's O(n²). Agreement with js-tiktoken is
 * checked in bounded-count.test.ts. Used by tests and the tokens bench; nothing in the app imports it.
 */
import type { TiktokenBPE } from "js-tiktoken/lite";

/** Byte sequences (as latin1 strings, one char per byte) → rank. */
export type ReferenceRanks = { pattern: RegExp; ranks: Map<string, number> };

/** Parses a js-tiktoken rank file (`! offset token token …` lines of base64 tokens). */
export function referenceRanks(bpe: TiktokenBPE): ReferenceRanks {
  const ranks = new Map<string, number>();
  for (const line of bpe.bpe_ranks.split("\n")) {
    if (line === "") continue;
    const [, offset, ...tokens] = line.split(" ");
    const base = Number.parseInt(offset ?? "", 10);
    for (const [i, token] of tokens.entries()) ranks.set(atob(token), base + i);
  }
  return { pattern: new RegExp(bpe.pat_str, "gu"), ranks };
}

const encoder = new TextEncoder();

function latin1(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

type Candidate = { rank: number; start: number; mid: number; end: number };

const before = (x: Candidate, y: Candidate) => x.rank < y.rank || (x.rank === y.rank && x.start < y.start);

class MinHeap {
  private readonly items: Candidate[] = [];
  get size(): number {
    return this.items.length;
  }
  push(c: Candidate): void {
    const a = this.items;
    a.push(c);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(a[i]!, a[parent]!)) break;
      [a[i], a[parent]] = [a[parent]!, a[i]!];
      i = parent;
    }
  }
  pop(): Candidate {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && before(a[l]!, a[m]!)) m = l;
        if (r < a.length && before(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}

/** Tokens of one pre-token given as latin1 bytes. */
function mergeCount(bytes: string, ranks: Map<string, number>): number {
  const n = bytes.length;
  if (n === 0) return 0;
  if (ranks.has(bytes)) return 1;
  // end[s]: end of the live part starting at s (-1 once merged away); prev[s]: start of the part before it.
  const end = new Int32Array(n);
  const prev = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    end[i] = i + 1;
    prev[i] = i - 1;
  }
  const heap = new MinHeap();
  const consider = (start: number) => {
    const mid = end[start]!;
    if (mid >= n) return;
    const stop = end[mid]!;
    const rank = ranks.get(bytes.slice(start, stop));
    if (rank !== undefined) heap.push({ rank, start, mid, end: stop });
  };
  for (let i = 0; i + 1 < n; i++) consider(i);
  let parts = n;
  while (heap.size > 0) {
    const c = heap.pop();
    if (end[c.start] !== c.mid || end[c.mid] !== c.end) continue; // stale: a neighbour merged first
    end[c.start] = c.end;
    end[c.mid] = -1;
    if (c.end < n) prev[c.end] = c.start;
    parts--;
    const p = prev[c.start]!;
    if (p >= 0) consider(p);
    consider(c.start);
  }
  return parts;
}

/** The exact token count of `text` (special-token strings as plain text). */
export function referenceCount(ref: ReferenceRanks, text: string): number {
  let total = 0;
  for (const match of text.matchAll(ref.pattern)) total += mergeCount(latin1(encoder.encode(match[0])), ref.ranks);
  return total;
}
