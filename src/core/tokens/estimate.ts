/**
 * A tokenizer-free token ESTIMATE, used until the real tokenizers (js-tiktoken for OpenAI, a Claude
 * approximation) are wired in through the worker. It is deliberately simple and fast: about four
 * characters per token for Latin-script text, one token per character for CJK, emoji and other
 * wide scripts (where a character is commonly one token or more). Expect ±20% on prose; it is not
 * a billing number. No I/O here, no caching (the `tokenCounts` table is the cache for real counts).
 */

/** Latin-script characters per token, the usual rule of thumb for BPE tokenizers on English. */
export const CHARS_PER_TOKEN_ESTIMATE = 4;

/** Code points from here up (CJK, most symbols, emoji) are counted as one token each. */
const WIDE_CODE_POINT_START = 0x2e80;

/** A UTF-16 unit from WIDE_CODE_POINT_START up (surrogates, which only wide code points use, included). */
const HAS_WIDE_UNIT = new RegExp(`[\\u${WIDE_CODE_POINT_START.toString(16)}-\\uffff]`);

/** Estimated token count of `text` (0 for ""). A `countText` for `contextTokens`. */
export function estimateTokens(text: string): number {
  // Most text has no wide character: one native scan instead of a loop over every character (the
  // estimate of a 2,000-message context was ~10 ms of a chat's opening).
  if (!HAS_WIDE_UNIT.test(text)) return Math.ceil(text.length / CHARS_PER_TOKEN_ESTIMATE);
  let narrow = 0;
  let wide = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xdc00 && code <= 0xdfff) continue; // low surrogate: its pair was counted once already
    if (code >= WIDE_CODE_POINT_START) wide++;
    else narrow++;
  }
  return Math.ceil(narrow / CHARS_PER_TOKEN_ESTIMATE) + wide;
}
