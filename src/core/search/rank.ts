/**
 * The best few hits of a query over one or more MiniSearch indexes (the chat index's segments),
 * scored exactly as MiniSearch scores them (BM25 with its weights for prefix and fuzzy matches,
 * every word required), but with the statistics of all segments together, so a hit ranks the same
 * whichever segment holds it. Ties go to the newer document (its stored `at`).
 *
 * Why not MiniSearch's `search()`: it builds an object per matching document and sorts them all;
 * a word found in 85,000 messages then costs most of a second, for 50 results shown. Here the
 * rarest word's postings are walked once, the other words' term frequencies looked up for those
 * documents only, and a heap of `limit` keeps the best: no object per hit, one pass. The words
 * a hit matched (for its snippet) are looked up for the kept hits only. Pure: no I/O.
 */
import type { IndexView, Postings } from "./minisearch-view";

/** One query word as MiniSearch expands it: exactly, as a prefix, and within an edit distance. */
export type TermSpec = { term: string; prefix: boolean; maxDistance: number };

/** MiniSearch 7's defaults, which Grove's index uses. */
const WEIGHTS = { prefix: 0.375, fuzzy: 0.45 };
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };

/** The indexes hold one field ("text"): its MiniSearch field id. */
const FIELD = 0;

export type RankedHit = {
  /** Which index (position in the array given) and the document's short id in it. */
  segment: number;
  shortId: number;
  score: number;
  at: number;
  /** The index terms the document matched (the query's words as found, after prefix and fuzzy). */
  terms: string[];
};

/** A query word's derived terms (term → weight) with their postings in one index. */
type Derived = Array<{ term: string; weight: number; postings: Postings }>;

function derive(view: IndexView, spec: TermSpec): Derived {
  const out: Derived = [];
  const exact = view.terms.get(spec.term)?.get(FIELD);
  if (exact) out.push({ term: spec.term, weight: 1, postings: exact });
  const prefixed = new Set<string>();
  if (spec.prefix) {
    for (const [term, data] of view.terms.atPrefix(spec.term)) {
      const distance = term.length - spec.term.length;
      const postings = data.get(FIELD);
      if (!distance || !postings) continue;
      prefixed.add(term);
      out.push({ term, weight: (WEIGHTS.prefix * term.length) / (term.length + 0.3 * distance), postings });
    }
  }
  if (spec.maxDistance > 0) {
    for (const [term, [data, distance]] of view.terms.fuzzyGet(spec.term, spec.maxDistance)) {
      const postings = data.get(FIELD);
      if (!distance || prefixed.has(term) || !postings) continue;
      out.push({ term, weight: (WEIGHTS.fuzzy * term.length) / (term.length + distance), postings });
    }
  }
  // One order for every index: a score summed over several terms is then the same to the last
  // bit wherever the document is, and equal documents really tie (and go by date).
  return out.sort((x, y) => (x.term < y.term ? -1 : x.term > y.term ? 1 : 0));
}

/** BM25's inverse document frequency of a term in `matching` of `total` documents. */
const idf = (matching: number, total: number) => Math.log(1 + (total - matching + 0.5) / (matching + 0.5));

/** BM25 of a term in a document, as MiniSearch computes it. */
function bm25(tf: number, idfOfTerm: number, length: number, avgLength: number): number {
  return idfOfTerm * (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * (1 - BM25.b + (BM25.b * length) / avgLength)));
}

/** Up to this many terms, a word's score is looked up term by term; beyond, summed into a Map first. */
const FEW_TERMS = 4;

/** A word's score for every document holding any of its terms. */
function summed(
  view: IndexView,
  terms: ReadonlyArray<{ weight: number; idf: number; postings: Postings }>,
  avgLength: number,
): Map<number, number> {
  const out = new Map<number, number>();
  for (const { weight, idf: idfOfTerm, postings } of terms) {
    for (const [shortId, tf] of postings) {
      const length = view.fieldLength.get(shortId)?.[FIELD];
      if (length === undefined) continue; // discarded
      out.set(shortId, (out.get(shortId) ?? 0) + weight * bm25(tf, idfOfTerm, length, avgLength));
    }
  }
  return out;
}

type Candidate = { segment: number; shortId: number; score: number; at: number };

/** Whether `a` ranks before `b`: higher score, then newer, then added later (one order, always). */
const before = (a: Candidate, b: Candidate) =>
  a.score !== b.score
    ? a.score > b.score
    : a.at !== b.at
      ? a.at > b.at
      : a.segment !== b.segment
        ? a.segment > b.segment
        : a.shortId > b.shortId;

/** The best `limit` candidates seen, as a heap whose root is the worst kept. */
class Best {
  readonly heap: Candidate[] = [];
  constructor(private readonly limit: number) {}

  /** Whether a candidate of this score could be kept (a tie is settled by `before`). */
  wants(score: number): boolean {
    return this.heap.length < this.limit || score >= this.heap[0]!.score;
  }

  push(c: Candidate): void {
    const h = this.heap;
    if (h.length < this.limit) {
      h.push(c);
      let i = h.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!before(h[p]!, h[i]!)) break;
        [h[p], h[i]] = [h[i]!, h[p]!];
        i = p;
      }
      return;
    }
    h[0] = c;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && before(h[worst]!, h[l]!)) worst = l;
      if (r < h.length && before(h[worst]!, h[r]!)) worst = r;
      if (worst === i) break;
      [h[worst], h[i]] = [h[i]!, h[worst]!];
      i = worst;
    }
  }

  sorted(): Candidate[] {
    return [...this.heap].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  }
}

/**
 * The best `limit` documents holding every query word (after expansion), best first, and how many
 * documents hold them all. No words: nothing.
 */
export function rank(
  views: readonly IndexView[],
  specs: readonly TermSpec[],
  limit: number,
): { hits: RankedHit[]; total: number } {
  if (specs.length === 0 || limit <= 0) return { hits: [], total: 0 };
  // Per index, per query word: its derived terms there. The document frequency of a derived term
  // is summed over the indexes, as are the document count and the field lengths.
  const derived = views.map((view) => specs.map((spec) => derive(view, spec)));
  const frequency = new Map<string, number>();
  let documents = 0;
  let lengthSum = 0;
  views.forEach((view, v) => {
    documents += view.documentCount;
    lengthSum += (view.avgFieldLength[FIELD] ?? 0) * view.documentCount;
    // Once per term and index, though two query words may both expand to it ("g gla": "glacier").
    const counted = new Set<string>();
    for (const word of derived[v]!)
      for (const d of word) {
        if (counted.has(d.term)) continue;
        counted.add(d.term);
        frequency.set(d.term, (frequency.get(d.term) ?? 0) + d.postings.size);
      }
  });
  const avgLength = documents > 0 ? lengthSum / documents : 1;
  // MiniSearch multiplies by the number of query words matched: all of them here.
  const quality = specs.length;
  const best = new Best(limit);
  let total = 0;

  views.forEach((view, v) => {
    const atOf = (shortId: number) => {
      const at = view.storedFields.get(shortId)?.at;
      return typeof at === "number" ? at : 0;
    };
    const consider = (shortId: number, score: number) => {
      total++;
      const s = score * quality;
      if (!best.wants(s)) return;
      const c = { segment: v, shortId, score: s, at: atOf(shortId) };
      if (best.heap.length < limit || before(c, best.heap[0]!)) best.push(c);
    };
    const words = derived[v]!;
    if (words.some((w) => w.length === 0)) return;
    // The word with the fewest postings drives: its documents are the candidates, and the other
    // words' scores are looked up for them only (no Map per word: a word in 85,000 documents
    // would build one of 85,000 entries on every keystroke). A word that expanded to many terms
    // (a short prefix) is summed into a Map once instead, so no document is looked up per term.
    const weighed = words.map((word, position) => {
      const terms = word.map((d) => ({ ...d, idf: idf(frequency.get(d.term) ?? d.postings.size, documents) }));
      const size = terms.reduce((n, d) => n + d.postings.size, 0);
      return { position, terms, size, summed: terms.length > FEW_TERMS ? summed(view, terms, avgLength) : null };
    });
    const [driver, ...others] = [...weighed].sort((a, b) => a.size - b.size);
    // The words' scores are added in query order whichever word drives here, so equal documents
    // in different indexes get equal sums to the last bit.
    const parts = new Float64Array(weighed.length);
    /** A word's score for a document: summed over its terms the document holds; undefined if none. */
    const wordScore = (word: (typeof weighed)[number], shortId: number, length: number): number | undefined => {
      if (word.summed) return word.summed.get(shortId);
      let score: number | undefined;
      for (const d of word.terms) {
        const tf = d.postings.get(shortId);
        if (tf !== undefined) score = (score ?? 0) + d.weight * bm25(tf, d.idf, length, avgLength);
      }
      return score;
    };
    const candidate = (shortId: number, length: number, driverScore: number) => {
      parts[driver!.position] = driverScore;
      for (const other of others) {
        const s = wordScore(other, shortId, length);
        if (s === undefined) return;
        parts[other.position] = s;
      }
      let score = 0;
      for (const part of parts) score += part;
      consider(shortId, score);
    };
    if (driver!.summed) {
      for (const [shortId, score] of driver!.summed) candidate(shortId, view.fieldLength.get(shortId)![FIELD]!, score);
      return;
    }
    driver!.terms.forEach((d, i) => {
      next: for (const shortId of d.postings.keys()) {
        // A document holding several of the driver's terms is scored once, at its first.
        for (let j = 0; j < i; j++) if (driver!.terms[j]!.postings.has(shortId)) continue next;
        const length = view.fieldLength.get(shortId)?.[FIELD];
        if (length === undefined) continue; // discarded (its postings linger until a vacuum)
        candidate(shortId, length, wordScore(driver!, shortId, length)!);
      }
    });
  });

  const hits = best.sorted().map((c): RankedHit => {
    const terms: string[] = [];
    for (const word of derived[c.segment]!)
      for (const d of word) if (d.postings.has(c.shortId) && !terms.includes(d.term)) terms.push(d.term);
    return { ...c, terms };
  });
  return { hits, total };
}
