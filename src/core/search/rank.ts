/**
 * The best few hits of a query over one or more MiniSearch indexes (the chat index's segments),
 * scored exactly as MiniSearch scores them (BM25 with its weights for prefix and fuzzy matches,
 * every word required), but with the statistics of all segments together, so a hit ranks the same
 * whichever segment holds it. Ties go to the newer document (its stored `at`).
 *
 * Why not MiniSearch's `search()`: it builds an object per matching document and sorts them all;
 * a word found in 85,000 messages then costs most of a second, for 50 results shown. Here the
 * rarest word's postings are walked once, the other words' scores looked up for those documents
 * only (or summed into an array first, when they are many), and a heap of `limit` keeps the best:
 * no object per hit, one pass, and the per-document figures (length, date) read from arrays
 * (`DocColumns`) instead of MiniSearch's Maps. The words a hit matched (for its snippet) are looked
 * up for the kept hits only. Pure: no I/O.
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

/**
 * What scoring reads for every posting, per document of one index in arrays indexed by short id:
 * MiniSearch keeps them in Maps, and a Map lookup per posting was most of a common word's cost
 * (85,000 lookups per keystroke; an array read is a tenth of that). Built in one pass over the
 * index's documents; the caller keeps them while `columnsCurrent` says they still fit.
 */
export type DocColumns = {
  /** The index's `nextId` and `documentCount` when built: an add changes the first, a discard the second. */
  nextId: number;
  documentCount: number;
  /** The document's length in terms; -1 where the id is no document (discarded, its postings linger). */
  length: Float64Array;
  /** The document's `at` (0 when it has none): ties go to the newer. */
  at: Float64Array;
  /**
   * The postings of terms with many, as arrays (`arraysOf`), most recently used last: the words
   * of a query come back at every keystroke ("copper lantern m", "copper lantern me", …), and
   * walking an array is several times cheaper than walking MiniSearch's Map.
   */
  postings: Map<string, TermArrays>;
};

/** One term's postings in one index, as arrays: short ids and term frequencies, in the same order. */
type TermArrays = { ids: Int32Array; tfs: Uint32Array };

/** Terms with fewer postings than this are walked in their Map (cheap either way) and not kept. */
const KEEP_MIN_POSTINGS = 256;
/** At most this many terms' arrays kept per index (≤ 8 bytes per posting: 512 KB at 4,000 documents). */
const KEEP_TERMS = 16;

/** A term's postings as arrays, from `columns` when kept there (and kept there when it has many). */
function arraysOf(columns: DocColumns, term: string, postings: Postings): TermArrays {
  const cache = columns.postings;
  const kept = cache.get(term);
  // Still the same postings: any add rebuilds the columns (and so this cache); a vacuum only ever
  // takes postings away, which the size shows.
  if (kept && kept.ids.length === postings.size) {
    cache.delete(term);
    cache.set(term, kept);
    return kept;
  }
  const ids = new Int32Array(postings.size);
  const tfs = new Uint32Array(postings.size);
  let i = 0;
  for (const [shortId, tf] of postings) {
    ids[i] = shortId;
    tfs[i++] = tf;
  }
  const arrays = { ids, tfs };
  if (postings.size >= KEEP_MIN_POSTINGS) {
    cache.delete(term);
    cache.set(term, arrays);
    for (const oldest of cache.keys()) {
      if (cache.size <= KEEP_TERMS) break;
      cache.delete(oldest);
    }
  }
  return arrays;
}

export function docColumns(view: IndexView): DocColumns {
  const length = new Float64Array(view.nextId).fill(-1);
  const at = new Float64Array(view.nextId);
  for (const [shortId, lengths] of view.fieldLength) length[shortId] = lengths[FIELD] ?? 0;
  for (const [shortId, stored] of view.storedFields) {
    const value = stored?.at;
    if (typeof value === "number") at[shortId] = value;
  }
  return { nextId: view.nextId, documentCount: view.documentCount, length, at, postings: new Map() };
}

/** Whether `columns` still describe `view` (nothing added or discarded since they were built). */
export function columnsCurrent(columns: DocColumns | undefined, view: IndexView): columns is DocColumns {
  return columns !== undefined && columns.nextId === view.nextId && columns.documentCount === view.documentCount;
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
  /** Scores below this cannot be kept (the worst kept, once `limit` are): one comparison per hit. */
  floor = Number.NEGATIVE_INFINITY;
  constructor(private readonly limit: number) {}

  /** Whether this candidate would be kept (compared without making it an object first). */
  wants(score: number, at: number, segment: number, shortId: number): boolean {
    if (this.heap.length < this.limit) return true;
    const w = this.heap[0]!;
    return score !== w.score
      ? score > w.score
      : at !== w.at
        ? at > w.at
        : segment !== w.segment
          ? segment > w.segment
          : shortId > w.shortId;
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
      if (h.length === this.limit) this.floor = h[0]!.score;
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
    this.floor = h[0]!.score;
  }

  sorted(): Candidate[] {
    return [...this.heap].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  }
}

/** A query word in one index: its terms (sorted) with their weight, idf, postings and arrays. */
type Word = {
  position: number;
  terms: Array<{ term: string; weight: number; idf: number; postings: Postings }>;
  size: number;
};

/**
 * A word's score for every document of the index holding any of its terms, in an array by short
 * id (`has` marks which), summed over its terms in their order (so the sum is the same to the last
 * bit as a term-by-term lookup would give). `touched` lists those documents once each (its first
 * `count`). Reused from index to index (cleared in between).
 */
type Dense = { score: Float64Array; has: Uint8Array; touched: Int32Array; count: number };

const denseOf = (size: number): Dense => ({
  score: new Float64Array(size),
  has: new Uint8Array(size),
  touched: new Int32Array(size),
  count: 0,
});

function fillDense(into: Dense, word: Word, columns: DocColumns, avgLength: number): void {
  const { score, has, touched } = into;
  const { length } = columns;
  score.fill(0, 0, length.length);
  has.fill(0, 0, length.length);
  let count = 0;
  for (const { term, weight, idf: idfOfTerm, postings } of word.terms) {
    const { ids, tfs } = arraysOf(columns, term, postings);
    for (let i = 0; i < ids.length; i++) {
      const shortId = ids[i]!;
      const l = length[shortId]!;
      if (!(l >= 0)) continue; // discarded (its postings linger until a vacuum)
      if (has[shortId] === 0) {
        has[shortId] = 1;
        touched[count++] = shortId;
      }
      score[shortId] = score[shortId]! + weight * bm25(tfs[i]!, idfOfTerm, l, avgLength);
    }
  }
  into.count = count;
}

/**
 * A word other than the driving one is scored by lookups (a Map get per term per candidate) when
 * the candidates are few, else all at once into an array (a pass over its postings, an array
 * read per candidate): lookups are random reads, this many times dearer than a posting walked.
 */
const LOOKUP_COST = 3;

/**
 * The best `limit` documents holding every query word (after expansion), best first, and how many
 * documents hold them all. No words: nothing. `columns[i]`, when current, are `views[i]`'s
 * document columns kept from an earlier query (else they are built here).
 */
export function rank(
  views: readonly IndexView[],
  specs: readonly TermSpec[],
  limit: number,
  columns: ReadonlyArray<DocColumns | undefined> = [],
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
  const cols = views.map((view, v) => {
    const kept = columns[v];
    return columnsCurrent(kept, view) ? kept : docColumns(view);
  });
  // Arrays for words summed all at once, sized for the largest index and reused for each.
  const widest = views.reduce((n, view) => Math.max(n, view.nextId), 0);
  const scratch: Dense[] = [];
  const scratchFor = (i: number) => {
    scratch[i] ??= denseOf(widest);
    return scratch[i]!;
  };

  views.forEach((_view, v) => {
    const words = derived[v]!;
    if (words.some((w) => w.length === 0)) return;
    const columnsHere = cols[v]!;
    const { length, at } = columnsHere;
    const weighed: Word[] = words.map((word, position) => ({
      position,
      terms: word.map((d) => ({ ...d, idf: idf(frequency.get(d.term) ?? d.postings.size, documents) })),
      size: word.reduce((n, d) => n + d.postings.size, 0),
    }));
    // The word with the fewest postings drives: its documents are the candidates; the other words'
    // scores are looked up for them (or computed all at once, when the candidates are many).
    const [driver, ...others] = [...weighed].sort((a, b) => a.size - b.size);
    /** A document holding every word, with its score: counted, and kept if among the best. */
    const consider = (shortId: number, score: number) => {
      const when = at[shortId]!;
      if (best.wants(score, when, v, shortId)) best.push({ segment: v, shortId, score, at: when });
    };
    if (others.length === 0 && driver!.terms.length === 1) {
      // One word of one term (nearly every keystroke): its postings are the hits, each seen once.
      // No call per posting but bm25's: the first query after a start runs this before the engine
      // has optimized it, where every call counts.
      const { term, weight, idf: idfOfTerm, postings } = driver!.terms[0]!;
      const { ids, tfs } = arraysOf(columnsHere, term, postings);
      for (let i = 0; i < ids.length; i++) {
        const shortId = ids[i]!;
        const l = length[shortId]!;
        if (!(l >= 0)) continue; // discarded
        total++;
        const score = weight * bm25(tfs[i]!, idfOfTerm, l, avgLength) * quality;
        if (score >= best.floor) consider(shortId, score);
      }
      return;
    }
    const lookups = others.map((word, o) => {
      if (driver!.size * word.terms.length * LOOKUP_COST < word.size) return null;
      const all = scratchFor(o + 1);
      fillDense(all, word, columnsHere, avgLength);
      return all;
    });
    // The words' scores are added in query order whichever word drives here, so equal documents
    // in different indexes get equal sums to the last bit.
    const parts = new Float64Array(weighed.length);
    const candidate = (shortId: number, l: number, driverScore: number) => {
      parts[driver!.position] = driverScore;
      for (let o = 0; o < others.length; o++) {
        const other = others[o]!;
        const all = lookups[o];
        if (all) {
          if (all.has[shortId] === 0) return;
          parts[other.position] = all.score[shortId]!;
          continue;
        }
        let score: number | undefined;
        for (const d of other.terms) {
          const tf = d.postings.get(shortId);
          if (tf !== undefined) score = (score ?? 0) + d.weight * bm25(tf, d.idf, l, avgLength);
        }
        if (score === undefined) return;
        parts[other.position] = score;
      }
      let score = 0;
      for (let p = 0; p < parts.length; p++) score += parts[p]!;
      total++;
      const s = score * quality;
      if (s >= best.floor) consider(shortId, s);
    };
    if (driver!.terms.length === 1) {
      const { term, weight, idf: idfOfTerm, postings } = driver!.terms[0]!;
      const { ids, tfs } = arraysOf(columnsHere, term, postings);
      for (let i = 0; i < ids.length; i++) {
        const shortId = ids[i]!;
        const l = length[shortId]!;
        if (!(l >= 0)) continue; // discarded
        candidate(shortId, l, weight * bm25(tfs[i]!, idfOfTerm, l, avgLength));
      }
      return;
    }
    const all = scratchFor(0);
    fillDense(all, driver!, columnsHere, avgLength);
    for (let i = 0; i < all.count; i++) {
      const shortId = all.touched[i]!;
      candidate(shortId, length[shortId]!, all.score[shortId]!);
    }
  });

  const hits = best.sorted().map((c): RankedHit => {
    const terms: string[] = [];
    for (const word of derived[c.segment]!)
      for (const d of word) if (d.postings.has(c.shortId) && !terms.includes(d.term)) terms.push(d.term);
    return { ...c, terms };
  });
  return { hits, total };
}
