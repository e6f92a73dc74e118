/**
 * The compaction worker's API (DESIGN §4), shared by the worker (compaction.worker.ts exposes it
 * with comlink), its implementation (worker-api.ts) and the main-thread client (client.ts).
 * Types only: importing this file loads nothing.
 *
 * Comlink copies arguments and results with structured clone, so everything here is plain data,
 * except callbacks, which the caller wraps with `Comlink.proxy` (each call then becomes a message
 * back to the main thread). An AbortSignal can't cross: long operations take an `OpId` instead,
 * and `cancel(opId)` aborts them (see `summarize`).
 */
import type { ProxyMarked } from "comlink";
import type { BuildContextOptions } from "../core/session/build-context";
import type { LlmContext } from "../core/session/context";
import type { Entry } from "../core/session/entries";
import type { EntryId } from "../core/session/ids";
import type { TokenEncoding } from "../core/tokens/models";
import type { ProviderConfig } from "../providers/types";

/** Names one cancellable operation; unique among the operations in flight (client.ts makes them). */
export type OpId = string;

/** One summarizer call: a single user message (`prompt`) under `system`, no thinking. */
export type SummarizeRequest = {
  provider: ProviderConfig;
  model: string;
  system: string;
  prompt: string;
  maxOutputTokens: number;
};

/**
 * Receives the summary so far (the whole text, not a delta), at most every
 * `SUMMARY_PROGRESS_INTERVAL_MS` and once more with the final text. Must not throw; it runs on the
 * main thread and its result is ignored.
 */
export type SummaryProgress = ((text: string) => void) & ProxyMarked;

/**
 * Counts for `encoding` `"claude"` are the raw estimate (claude-estimate.ts); the caller applies
 * its calibration (`calibratedCount`). The first call for an encoding loads its ranks (~0.5–1 s).
 */
export interface WorkerApi {
  /** Tokens of each text, in order. */
  countTexts(encoding: TokenEncoding, texts: readonly string[]): Promise<number[]>;
  /** Each entry's count (entry-tokens.ts `countEntryTokens`), by id: rows for the `tokenCounts` cache. */
  countEntries(encoding: TokenEncoding, entries: readonly Entry[]): Promise<Record<EntryId, number>>;
  /** `contextTokens(path, opts)` (core/session/context-tokens.ts) with the real counter. */
  contextTokens(path: readonly Entry[], opts: BuildContextOptions, encoding: TokenEncoding): Promise<number>;
  /** Tokens of an already built context: the raw local count of exactly the request that was sent. */
  countContext(context: LlmContext, encoding: TokenEncoding): Promise<number>;
  /**
   * Streams one summarizer call through providers/registry.ts `stream` (retries included) and
   * resolves with its text; rejects with the `MessageError` of an `error` event (kind `aborted`
   * after `cancel(opId)`). Thinking deltas are ignored. `onText` sees the text as it grows.
   */
  summarize(req: SummarizeRequest, onText: SummaryProgress, opId?: OpId): Promise<string>;
  /**
   * Aborts the operation started with `opId`: its provider request is aborted and it rejects with
   * an `aborted` MessageError. True if it was running; false if it had finished or never started
   * (messages arrive in order, so a cancel sent after its summarize always finds it).
   */
  cancel(opId: OpId): Promise<boolean>;
}
