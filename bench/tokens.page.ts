/**
 * The tokens bench page (bench/tokens.mjs builds and drives it): counts through the real
 * compaction worker (src/worker/client.ts, as the app will), and computes exact counts and the
 * unguarded js-tiktoken baseline on this page's own thread for comparison.
 */
import { Tiktoken, type TiktokenBPE } from "js-tiktoken/lite";
import { referenceCount, referenceRanks } from "../src/core/testing/reference-bpe";
import {
  CHINESE_PROSE,
  ENGLISH_PROSE,
  JAPANESE_PROSE,
  randomCjk,
  THAI_PROSE,
  unbrokenRun,
} from "../src/core/testing/token-texts";
import type { TiktokenEncoding } from "../src/core/tokens/tokenizer";
import { getWorker, terminateWorker } from "../src/worker/client";

/** `text` rotated by `k` code points: the same statistics, a different string (no memo hits). */
function rotate(text: string, k: number): string {
  const cps = Array.from(text);
  const at = k % cps.length;
  return [...cps.slice(at), ...cps.slice(0, at)].join("");
}

/** Bench inputs by name; `variant` makes each run's string distinct. */
const SAMPLES: Record<string, (chars: number, variant: number) => string> = {
  "chinese-run": (n, v) => unbrokenRun(rotate(CHINESE_PROSE, v * 7), n),
  "japanese-run": (n, v) => unbrokenRun(rotate(JAPANESE_PROSE, v * 7), n),
  "thai-run": (n, v) => unbrokenRun(rotate(THAI_PROSE, v * 7), n),
  "random-cjk": (n, v) => randomCjk(n, v + 1),
  "chinese-prose": (n, v) =>
    rotate(CHINESE_PROSE, v * 7)
      .repeat(Math.ceil(n / CHINESE_PROSE.length))
      .slice(0, n),
  "english-prose": (n, v) =>
    rotate(ENGLISH_PROSE, v * 7)
      .repeat(Math.ceil(n / ENGLISH_PROSE.length))
      .slice(0, n),
};

function sample(name: string, chars: number, variant: number): string {
  const make = SAMPLES[name];
  if (!make) throw new Error(`unknown sample ${name}`);
  return make(chars, variant);
}

const references = new Map<TiktokenEncoding, ReturnType<typeof referenceRanks>>();

async function reference(encoding: TiktokenEncoding) {
  let ref = references.get(encoding);
  if (!ref) {
    ref = referenceRanks(await ranks(encoding));
    references.set(encoding, ref);
  }
  return ref;
}

async function ranks(encoding: TiktokenEncoding): Promise<TiktokenBPE> {
  return encoding === "o200k_base"
    ? (await import("js-tiktoken/ranks/o200k_base")).default
    : (await import("js-tiktoken/ranks/cl100k_base")).default;
}

const bench = {
  /** A fresh worker's first count: start, rank chunk fetch and parse, one tiny count. */
  async coldStart(encoding: TiktokenEncoding): Promise<{ ms: number }> {
    terminateWorker();
    const t0 = performance.now();
    await getWorker().countTexts(encoding, ["warm-up"]);
    return { ms: performance.now() - t0 };
  },

  /** One count in the worker, timed from this page (the round trip included). */
  async count(encoding: TiktokenEncoding, name: string, chars: number, variant: number) {
    const text = sample(name, chars, variant);
    const t0 = performance.now();
    const [n] = await getWorker().countTexts(encoding, [text]);
    return { n: n ?? Number.NaN, ms: performance.now() - t0, chars: text.length };
  },

  /** The exact count (heap-based reference BPE, on this page). */
  async exact(encoding: TiktokenEncoding, name: string, chars: number, variant: number) {
    const ref = await reference(encoding);
    const text = sample(name, chars, variant);
    const t0 = performance.now();
    const n = referenceCount(ref, text);
    return { n, ms: performance.now() - t0 };
  },

  /** js-tiktoken's own encode() without the guard, on this page: the quadratic baseline. */
  async unguarded(encoding: TiktokenEncoding, name: string, chars: number) {
    const tiktoken = new Tiktoken(await ranks(encoding));
    const text = sample(name, chars, 0);
    const t0 = performance.now();
    const n = tiktoken.encode(text, [], []).length;
    return { n, ms: performance.now() - t0 };
  },
};

declare global {
  interface Window {
    groveTokensBench?: typeof bench;
  }
}
window.groveTokensBench = bench;
