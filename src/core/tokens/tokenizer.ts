/**
 * Real token counters: js-tiktoken's `o200k_base` / `cl100k_base` encodings, with a guard that
 * keeps counting linear on long unbroken runs (bounded-count.ts), behind one small interface that
 * the Claude estimate (claude-estimate.ts) implements too.
 *
 * The rank files are large (o200k ≈ 2.3 MB, cl100k ≈ 1.1 MB of JS) and take ~1–2 s to parse, so
 * each is loaded with a dynamic import on first use and parsed once per thread. Only the worker
 * calls `loadTiktokenCounter`; the main bundle never contains a rank file (at most a lazy chunk).
 * No other I/O here, no caching of counts (the worker memoizes texts; `tokenCounts` caches entries).
 */
import type { TiktokenBPE } from "js-tiktoken/lite";
import { countInBoundedPieces, type TiktokenLike } from "./bounded-count";
import type { TokenEncoding } from "./models";

/** Counts tokens of text under one encoding. */
export interface TokenCounter {
  readonly encoding: TokenEncoding;
  /** Tokens in `text` (0 for ""). Pure and deterministic; never throws for any string. */
  count(text: string): number;
  /**
   * True when `count` is the encoding's real count (js-tiktoken, up to the long-run guard, which
   * is exact in practice); false for estimates (Claude), which the UI marks with "≈".
   */
  readonly exact: boolean;
}

/** The encodings js-tiktoken ships that Grove uses. */
export type TiktokenEncoding = Exclude<TokenEncoding, "claude">;

/**
 * A counter over already-loaded rank data (tests and the worker pass what `loadRanks` returns).
 * `tiktoken` is js-tiktoken's `Tiktoken` built from `ranks`; split out so this module never imports
 * js-tiktoken eagerly.
 */
export function createTiktokenCounter(
  encoding: TiktokenEncoding,
  ranks: TiktokenBPE,
  tiktoken: TiktokenLike,
): TokenCounter {
  const pattern = new RegExp(ranks.pat_str, "gu");
  return {
    encoding,
    exact: true,
    count: (text) => countInBoundedPieces(tiktoken, pattern, text),
  };
}

/** The rank file for `encoding`: a separate chunk each, so a session never loads both. */
function loadRanks(encoding: TiktokenEncoding): Promise<TiktokenBPE> {
  switch (encoding) {
    case "o200k_base":
      return import("js-tiktoken/ranks/o200k_base").then((m) => m.default);
    case "cl100k_base":
      return import("js-tiktoken/ranks/cl100k_base").then((m) => m.default);
    default: {
      const never: never = encoding;
      throw new Error(`Unknown tiktoken encoding: ${String(never)}`);
    }
  }
}

const loading = new Map<TiktokenEncoding, Promise<TokenCounter>>();

/**
 * The exact counter for `encoding`, loading and parsing its ranks on first use (once per thread;
 * concurrent callers share the load). A failed load (offline chunk fetch) is forgotten, so the
 * next call tries again.
 */
export function loadTiktokenCounter(encoding: TiktokenEncoding): Promise<TokenCounter> {
  let p = loading.get(encoding);
  if (!p) {
    p = Promise.all([import("js-tiktoken/lite"), loadRanks(encoding)]).then(([{ Tiktoken }, ranks]) =>
      createTiktokenCounter(encoding, ranks, new Tiktoken(ranks)),
    );
    p.catch(() => loading.delete(encoding));
    loading.set(encoding, p);
  }
  return p;
}
