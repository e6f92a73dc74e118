/**
 * What the compaction worker's implementation takes from the world (worker-api.ts assembles it):
 * provider streams, token counters, a clock, the remote summarizer and the provider-native calls.
 * Injected so tests call the API directly with a scripted stream and a fake clock.
 */
import type { CountText } from "../core/session/context-tokens";
import { counterFor } from "../core/tokens/counter-for";
import type { TokenEncoding } from "../core/tokens/models";
import type { TokenCounter } from "../core/tokens/tokenizer";
import { type CompactNativeFn, compactNative } from "../providers/native-compaction";
import { stream as registryStream } from "../providers/registry";
import { callRemoteSummarizer } from "../providers/remote-summarizer";
import type { StreamFn } from "../providers/types";

/** How often a summary's growing text is forwarded, at most (ms): each call copies the whole text. */
const SUMMARY_PROGRESS_INTERVAL_MS = 100;

export type WorkerDeps = {
  /** Provider streams; default: providers/registry.ts `stream` (retries included). */
  stream: StreamFn;
  /** The counter for an encoding; default: core/tokens `counterFor` (loads ranks on first use). */
  counterFor: (encoding: TokenEncoding) => Promise<TokenCounter>;
  /** Milliseconds clock for throttling progress; default `performance.now`. */
  now: () => number;
  progressIntervalMs: number;
  /** The remote summarizer call; default: providers/remote-summarizer.ts `callRemoteSummarizer`. */
  remoteSummarize: typeof callRemoteSummarizer;
  /** Provider-native compaction calls; default: providers/native-compaction.ts. */
  compactNative: CompactNativeFn;
};

export const DEFAULT_DEPS: WorkerDeps = {
  stream: registryStream,
  counterFor: (encoding) => counterFor({ encoding }),
  now: () => performance.now(),
  progressIntervalMs: SUMMARY_PROGRESS_INTERVAL_MS,
  remoteSummarize: callRemoteSummarizer,
  compactNative,
};

/** What every job runs with: the deps, and the loaded, memoized count function per encoding (counting.ts). */
export type JobContext = {
  deps: WorkerDeps;
  countFor: (encoding: TokenEncoding) => Promise<CountText>;
};
