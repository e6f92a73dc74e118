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

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

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
    // The exact reference is quadratic in the run's length: seconds on a loaded machine. The bound
    // only catches a hang.
  }, 240_000);

  it("counts 20,000-character unbroken runs within 1% of the exact count, never merging a long piece whole", () => {
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
    // js-tiktoken's merge is quadratic in one pre-token's length (minutes for 20,000 CJK
    // characters): what keeps the count linear is that no pre-token it is handed is long. Counted
    // by what the guard hands over, not by a clock, so a busy machine cannot fail it.
    const pattern = new RegExp(RANKS[encoding].pat_str, "gu");
    let longestPiece = 0;
    const watched = {
      encode: (text: string, allowed?: string[] | "all", disallowed?: string[] | "all") => {
        for (const m of text.matchAll(pattern)) longestPiece = Math.max(longestPiece, utf8Bytes(m[0]));
        return f.tiktoken.encode(text, allowed, disallowed);
      },
      decode: (tokens: number[]) => f.tiktoken.decode(tokens),
    };
    const counter = createTiktokenCounter(encoding, RANKS[encoding], watched);
    for (const [name, text] of Object.entries(runs)) {
      const exact = referenceCount(f.reference, text);
      longestPiece = 0;
      const counted = counter.count(text);
      const error = Math.abs(counted - exact) / exact;
      expect({ name, withinOnePercent: error <= 0.01 }).toEqual({ name, withinOnePercent: true });
      // A grown piece (256 bytes) plus the look-ahead past its cut (6 code points, 4 bytes each).
      expect({ name, longestPiece }).toEqual({ name, longestPiece: Math.min(longestPiece, 256 + 24) });
    }
    // Measured, not asserted: on these samples the guarded count equals the exact count.
  }, 240_000);

  it("never splits a surrogate pair: emoji runs count like the reference, piece by piece", () => {
    const f = fixture(encoding);
    // An odd offset makes the byte cuts fall inside pairs if code points were ignored.
    const text = `x${"🙂".repeat(MAX_PIECE_BYTES * 3)}`;
    expect(f.counter.count(text)).toBe(referenceCount(f.reference, text));
  });
});
