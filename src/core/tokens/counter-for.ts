/**
 * Which counter a model's tokens are counted with: the exact js-tiktoken counter for `o200k_base`
 * and `cl100k_base` models, the calibrated-by-the-caller estimate (claude-estimate.ts) for Claude.
 * Loading is lazy (tokenizer.ts): call this in the worker, never on the main thread.
 * No other I/O here.
 */
import { claudeCounter } from "./claude-estimate";
import type { ModelInfo, TokenEncoding } from "./models";
import { loadTiktokenCounter, type TokenCounter } from "./tokenizer";

let claude: Promise<TokenCounter> | null = null;

/** The counter for `model.encoding` (a `ModelInfo`, or just `{ encoding }`), loaded on first use. */
export function counterFor(model: Pick<ModelInfo, "encoding">): Promise<TokenCounter> {
  const encoding: TokenEncoding = model.encoding;
  switch (encoding) {
    case "o200k_base":
    case "cl100k_base":
      return loadTiktokenCounter(encoding);
    case "claude": {
      if (!claude) {
        const p = loadTiktokenCounter("o200k_base").then(claudeCounter);
        p.catch(() => {
          claude = null; // a failed chunk load may succeed next time
        });
        claude = p;
      }
      return claude;
    }
    default: {
      const never: never = encoding;
      throw new Error(`Unknown token encoding: ${String(never)}`);
    }
  }
}
