import MiniSearch from "minisearch";
import { describe, expect, it } from "vitest";
import { viewOf } from "./minisearch-view";
import { columnsCurrent, docColumns, rank, type TermSpec } from "./rank";

type Doc = { id: string; at: number; text: string };

const WORDS = "glacier glass global river copper lantern meadow orbit harbor glacial glow gravel".split(" ");
/** A deterministic corpus: words repeat unevenly so scores spread (and some tie). */
function corpus(n: number): Doc[] {
  let seed = 11;
  const next = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed;
  };
  return Array.from({ length: n }, (_, i) => ({
    id: `d${i}`,
    at: 1_000 + (next() % 50),
    text: Array.from({ length: 3 + (next() % 12) }, () => WORDS[next() % WORDS.length]).join(" "),
  }));
}

/** `corpus(n)` and two documents with a rare word. */
const withRare = (n: number): Doc[] => [
  ...corpus(n),
  { id: "rare1", at: 999, text: "zeppelin glacier river glacier" },
  { id: "rare2", at: 998, text: "zeppelin over the glacial river" },
];

const OPTIONS = { fields: ["text"], storeFields: ["at"] };
function indexOf(docs: Doc[]): MiniSearch<Doc> {
  const ms = new MiniSearch<Doc>(OPTIONS);
  ms.addAll(docs);
  return ms;
}

const spec = (term: string, prefix = false, maxDistance = 0): TermSpec => ({ term, prefix, maxDistance });

/** MiniSearch's own answer for the same words, every word required. */
function reference(ms: MiniSearch<Doc>, specs: TermSpec[]) {
  const byTerm = new Map(specs.map((s) => [s.term, s]));
  return ms.search(specs.map((s) => s.term).join(" "), {
    combineWith: "AND",
    prefix: (t) => byTerm.get(t)?.prefix ?? false,
    fuzzy: (t) => byTerm.get(t)?.maxDistance || false,
    maxFuzzy: 6,
  });
}

const QUERIES: TermSpec[][] = [
  [spec("glacier")],
  [spec("gl", true)],
  [spec("glacer", false, 1)],
  [spec("gla", true), spec("river")],
  [spec("copper"), spec("lantern"), spec("meadow")],
  [spec("glaci", true, 1), spec("harb", true)],
  [spec("nowhere")],
  // "g" expands to six terms: summed into a Map, as the driving word and as another word.
  [spec("g", true)],
  [spec("g", true), spec("gla", true)],
  [spec("g", true), spec("harbor"), spec("orbit")],
  // A rare word drives and the common ones are looked up per candidate (not summed into arrays).
  [spec("zeppelin"), spec("glacier")],
  [spec("gl", true), spec("zeppelin"), spec("river")],
];

describe("rank", () => {
  it("scores every hit exactly as MiniSearch's own search does, and finds the same hits", () => {
    const ms = indexOf(withRare(400));
    for (const specs of QUERIES) {
      const ref = reference(ms, specs);
      const { hits, total } = rank([viewOf(ms)], specs, Number.POSITIVE_INFINITY);
      expect(total, JSON.stringify(specs)).toBe(ref.length);
      const view = viewOf(ms);
      const mine = new Map(hits.map((h) => [view.documentIds.get(h.shortId), h]));
      for (const r of ref) {
        const hit = mine.get(String(r.id));
        expect(hit?.score, `${JSON.stringify(specs)} ${r.id}`).toBeCloseTo(r.score, 9);
        expect(new Set(hit?.terms)).toEqual(new Set(r.terms));
      }
    }
  });

  it("keeps the best `limit`: highest score first, ties to the newer document", () => {
    const ms = indexOf(corpus(400));
    const view = viewOf(ms);
    const all = rank([view], [spec("gl", true)], Number.POSITIVE_INFINITY);
    const top = rank([view], [spec("gl", true)], 25);
    expect(top.total).toBe(all.total);
    expect(top.hits).toEqual(all.hits.slice(0, 25));
    for (let i = 1; i < all.hits.length; i++) {
      const [p, h] = [all.hits[i - 1]!, all.hits[i]!];
      expect(p.score > h.score || (p.score === h.score && p.at >= h.at), `${i}`).toBe(true);
    }
    // The corpus has ties (same length, same counts), so the date did decide some places.
    expect(all.hits.some((h, i) => i > 0 && h.score === all.hits[i - 1]!.score)).toBe(true);
  });

  it("over several indexes, ranks as one index holding every document would", () => {
    const docs = withRare(400);
    const whole = indexOf(docs);
    const parts = [indexOf(docs.slice(0, 90)), indexOf(docs.slice(90, 300)), indexOf(docs.slice(300))];
    const ids = (views: ReturnType<typeof viewOf>[], specs: TermSpec[]) =>
      rank(views, specs, 40).hits.map((h) => [views[h.segment]!.documentIds.get(h.shortId), h.score.toFixed(9)]);
    for (const specs of QUERIES) {
      expect(ids(parts.map(viewOf), specs), JSON.stringify(specs)).toEqual(ids([viewOf(whole)], specs));
    }
  });

  it("answers the same from columns kept between queries, until the index changes", () => {
    // Large enough that the common words' postings are kept as arrays between queries.
    const ms = indexOf(withRare(1_500));
    const view = viewOf(ms);
    const kept = docColumns(view);
    const fresh = (specs: TermSpec[]) => rank([viewOf(ms)], specs, 30);
    for (let round = 0; round < 2; round++)
      for (const specs of QUERIES) expect(rank([view], specs, 30, [kept]), JSON.stringify(specs)).toEqual(fresh(specs));
    expect(kept.postings.size).toBeGreaterThan(0);
    // A change: the kept columns no longer describe the index (the caller builds new ones).
    const before = rank([view], [spec("glacier")], Number.POSITIVE_INFINITY, [kept]);
    const gone = before.hits[0]!;
    ms.discard(view.documentIds.get(gone.shortId)!);
    expect(columnsCurrent(kept, viewOf(ms))).toBe(false);
    ms.add({ id: "late", at: 2_000, text: "glacier glacier" });
    const after = rank([viewOf(ms)], [spec("glacier")], Number.POSITIVE_INFINITY, [docColumns(viewOf(ms))]);
    expect(after.total).toBe(before.total); // one gone, one added
    expect(after.hits.map((h) => h.shortId)).not.toContain(gone.shortId);
    expect(after.hits.map((h) => h.at)).toContain(2_000);
  });

  it("skips discarded documents", () => {
    const docs = corpus(50);
    const ms = indexOf(docs);
    const before = rank([viewOf(ms)], [spec("glacier")], Number.POSITIVE_INFINITY);
    const gone = before.hits[0]!;
    ms.discard(viewOf(ms).documentIds.get(gone.shortId)!);
    const after = rank([viewOf(ms)], [spec("glacier")], Number.POSITIVE_INFINITY);
    expect(after.total).toBe(before.total - 1);
    expect(after.hits.map((h) => h.shortId)).not.toContain(gone.shortId);
  });

  it("answers nothing to no words or a word one index lacks", () => {
    const ms = indexOf(corpus(20));
    expect(rank([viewOf(ms)], [], 10)).toEqual({ hits: [], total: 0 });
    expect(rank([viewOf(ms)], [spec("glacier"), spec("zeppelin")], 10)).toEqual({ hits: [], total: 0 });
  });
});
