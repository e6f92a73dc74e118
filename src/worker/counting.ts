/**
 * Token counting in the worker: one count function per encoding, loaded once (the rank files are
 * fetched on first use), with a least-recently-used memo of long texts: the meter recounts the same
 * context after every reply, and all but its newest messages are unchanged.
 */
import type { CountText } from "../core/session/context-tokens";
import type { TokenEncoding } from "../core/tokens/models";
import type { TokenCounter } from "../core/tokens/tokenizer";

/** Texts at least this long are memoized (shorter ones cost less to count than to look up). */
const COUNT_MEMO_MIN_CHARS = 256;
/** Total characters of memoized texts per encoding; the least recently used go first. */
const COUNT_MEMO_MAX_CHARS = 8_000_000;

function memoized(count: CountText): CountText {
  const memo = new Map<string, number>();
  let chars = 0;
  return (text) => {
    if (text.length < COUNT_MEMO_MIN_CHARS) return count(text);
    const hit = memo.get(text);
    if (hit !== undefined) {
      memo.delete(text); // re-insert: Map order is the recency order
      memo.set(text, hit);
      return hit;
    }
    const n = count(text);
    memo.set(text, n);
    chars += text.length;
    for (const [old] of memo) {
      if (chars <= COUNT_MEMO_MAX_CHARS) break;
      memo.delete(old);
      chars -= old.length;
    }
    return n;
  };
}

/** `countFor(encoding)`: the memoized count function for `encoding`; a failed load is tried again next time. */
export function createCounting(
  counterFor: (encoding: TokenEncoding) => Promise<TokenCounter>,
): (encoding: TokenEncoding) => Promise<CountText> {
  const counts = new Map<TokenEncoding, Promise<CountText>>();
  return (encoding) => {
    let p = counts.get(encoding);
    if (!p) {
      p = counterFor(encoding).then((counter) => memoized((text) => counter.count(text)));
      p.catch(() => counts.delete(encoding));
      counts.set(encoding, p);
    }
    return p;
  };
}

/** `count` scaled by the Claude calibration ratio (1 = unchanged), as the meter counts. */
export function scaledCount(count: CountText, scale: number): CountText {
  return scale === 1 ? count : (text) => Math.round(count(text) * scale);
}
