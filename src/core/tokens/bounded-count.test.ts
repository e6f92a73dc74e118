/**
 * The long-run guard (bounded-count.ts) against two references:
 * - js-tiktoken's own `encode(text).length`, where it is feasible: ordinary text, and unbroken
 *   runs of at most ~1,000 characters (its merge is quadratic; 1,000 CJK characters take ~0.4 s);
 * - an independent heap-based BPE (core/testing/reference-bpe.ts) for 20,000-character runs, which
 *   js-tiktoken would need minutes for. The reference is itself checked against js-tiktoken first.
 */
import { Tiktoken, type TiktokenBPE } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";
import o200k from "js-tiktoken/ranks/o200k_base";
import { beforeAll, describe, expect, it } from "vitest";
import { type ReferenceRanks, referenceCount, referenceRanks } from "../testing/reference-bpe";
import {
  CHINESE_PROSE,
  CODE_SNIPPET,
  ENGLISH_PROSE,
  JAPANESE_PROSE,
  KOREAN_RUN,
  randomCjk,
  THAI_PROSE,
  unbrokenRun,
} from "../testing/token-texts";
import { MAX_PIECE_BYTES } from "./bounded-count";
import { createTiktokenCounter, type TiktokenEncoding, type TokenCounter } from "./tokenizer";

type Fixture = { tiktoken: Tiktoken; counter: TokenCounter; reference: ReferenceRanks };

const RANKS: Record<TiktokenEncoding, TiktokenBPE> = { o200k_base: o200k, cl100k_base: cl100k };
const fixtures = new Map<TiktokenEncoding, Fixture>();

beforeAll(() => {
  for (const encoding of ["o200k_base", "cl100k_base"] as const) {
    const ranks = RANKS[encoding];
    const tiktoken = new Tiktoken(ranks);
    fixtures.set(encoding, {
      tiktoken,
      counter: createTiktokenCounter(encoding, ranks, tiktoken),
      reference: referenceRanks(ranks),
    });
  }
});

const fixture = (encoding: TiktokenEncoding): Fixture => {
  const f = fixtures.get(encoding);
  if (!f) throw new Error(`no fixture for ${encoding}`);
  return f;
};

const jsTiktokenCount = (f: Fixture, text: string) => f.tiktoken.encode(text, [], []).length;

const ORDINARY: Record<string, string> = {
  empty: "",
  english: ENGLISH_PROSE,
  code: CODE_SNIPPET,
  chinese: CHINESE_PROSE,
  japanese: JAPANESE_PROSE,
  thai: THAI_PROSE,
  emoji: "Ship it 🚀🚀 — 👍🏽 and 🇯🇵 flags, é, ñ, ß.",
  special: "Text may contain <|endoftext|> or <|im_start|> literally.",
  indentation: `${" ".repeat(40)}deeply indented\n${"\t".repeat(12)}tabs`,
};

describe.each(["o200k_base", "cl100k_base"] as const)("%s", (encoding) => {
  it("counts ordinary text exactly as js-tiktoken encodes it", () => {
    const f = fixture(encoding);
    for (const [name, text] of Object.entries(ORDINARY)) {
      expect({ name, count: f.counter.count(text) }).toEqual({ name, count: jsTiktokenCount(f, text) });
    }
  });

  it("the reference BPE agrees with js-tiktoken, so it can stand in for the exact count", () => {
    const f = fixture(encoding);
    const samples = {
      ...ORDINARY,
      chineseRun: unbrokenRun(CHINESE_PROSE, 500),
      japaneseRun: unbrokenRun(JAPANESE_PROSE, 500),
      randomCjk: randomCjk(300),
      dashes: "-".repeat(300),
    };
    for (const [name, text] of Object.entries(samples)) {
      expect({ name, count: referenceCount(f.reference, text) }).toEqual({ name, count: jsTiktokenCount(f, text) });
    }
  });

  it("counts a 1,000-character unbroken CJK run like js-tiktoken does (exact where exact is feasible)", () => {
    const f = fixture(encoding);
    const run = unbrokenRun(JAPANESE_PROSE, 1_000);
    expect(f.counter.count(run)).toBe(jsTiktokenCount(f, run));
  });

  it("counts 20,000-character unbroken runs within 1% of the exact count, in linear time", () => {
    const f = fixture(encoding);
    const runs = {
      chinese: unbrokenRun(CHINESE_PROSE, 20_000),
      japanese: unbrokenRun(JAPANESE_PROSE, 20_000),
      korean: unbrokenRun(KOREAN_RUN, 20_000),
      thai: unbrokenRun(THAI_PROSE, 20_000),
      randomCjk: randomCjk(20_000),
      dashes: "-".repeat(20_000),
      equals: "=".repeat(20_000),
      emoji: "😀🎉👍🏽🇯🇵".repeat(2_000),
    };
    for (const [name, text] of Object.entries(runs)) {
      const exact = referenceCount(f.reference, text);
      const started = performance.now();
      const counted = f.counter.count(text);
      const ms = performance.now() - started;
      const error = Math.abs(counted - exact) / exact;
      expect({ name, withinOnePercent: error <= 0.01 }).toEqual({ name, withinOnePercent: true });
      // Unguarded, o200k needs ~38 s for 10,000 CJK characters and minutes for 20,000; the guard
      // needs ~0.3 s. The bound is loose so a busy CI machine does not fail it.
      expect({ name, fast: ms < 5_000 }).toEqual({ name, fast: true });
    }
    // Measured, not asserted: on these samples the guarded count equals the exact count.
  }, 60_000);

  it("never splits a surrogate pair: emoji runs count like the reference, piece by piece", () => {
    const f = fixture(encoding);
    // An odd offset makes the byte cuts fall inside pairs if code points were ignored.
    const text = `x${"🙂".repeat(MAX_PIECE_BYTES * 3)}`;
    expect(f.counter.count(text)).toBe(referenceCount(f.reference, text));
  });
});
