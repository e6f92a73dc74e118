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
import type { BranchSummaryOutcome } from "../core/branch/finish";
import type { CompactionOutcome, CompactionProgress } from "../core/compaction/compact";
import type { CompactionSettings } from "../core/compaction/settings";
import type { PromptTexts } from "../core/prompt-overrides";
import type { BuildContextOptions } from "../core/session/build-context";
import type { ThinkingSetting } from "../core/session/chat-params";
import type { LlmContext } from "../core/session/context";
import type { ApiKind, CompactionReason, Entry, ModelUsage } from "../core/session/entries";
import type { EntryId } from "../core/session/ids";
import type { TokenEncoding } from "../core/tokens/models";
import type { RemoteSummarizerConfig } from "../providers/remote-summarizer";
import type { ProviderConfig } from "../providers/types";

/**
 * Who writes a job's summaries: the model, or first the remote summarizer (`remote`, when set),
 * falling back to the model when it fails.
 */
export type SummarizerSpec = {
  provider: ProviderConfig;
  model: string;
  contextWindow: number;
  maxOutput: number;
  remote?: RemoteSummarizerConfig;
};

/** What the user is told after a job (e.g. "Remote summarizer failed: …; used <model> instead"). */
export type JobNotices = { notices?: string[] };

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
 * `SUMMARY_PROGRESS_INTERVAL_MS` (deps.ts) and once more with the final text. Must not throw; it runs on the
 * main thread and its result is ignored.
 */
type SummaryProgress = ((text: string) => void) & ProxyMarked;

/** Everything one compaction needs, as plain data (DESIGN §4: the worker plans, summarizes, counts). */
export type CompactJob = {
  /** The active path, root first; the entry will be appended after its last entry. */
  path: readonly Entry[];
  reason: CompactionReason;
  instructions?: string;
  upToEntryId?: EntryId;
  settings: CompactionSettings;
  systemPrompt: string;
  targetApi: ApiKind;
  /** The chat model's window and token encoding (what the meter counts with). */
  contextWindow: number;
  encoding: TokenEncoding;
  /** Multiplies raw counts (the Claude calibration ratio; 1 for exact encodings). */
  countScale: number;
  /** Stored per-entry counts (the `tokenCounts` cache), so planning reads no message text. */
  entryCounts?: Readonly<Record<EntryId, number>>;
  summarizer: SummarizerSpec;
  /**
   * Provider-native compaction asked for (Settings → Compaction method): after Grove's summary is
   * made, the folded part also goes to the chat's provider; its material is kept on the entry, and
   * a failure leaves Grove's summary with a note (`nativeFallback`). Absent: Grove's summary only.
   */
  native?: { method: "openai" | "anthropic"; provider: ProviderConfig; model: string; maxOutput: number };
  /** The user's prompt overrides (Settings → Prompts) and the version of each prompt in force. */
  prompts?: PromptTexts;
  promptVersions?: Readonly<Record<string, string>>;
};

export type CompactJobOutcome = (
  | CompactionOutcome
  | { kind: "nothing_to_compact"; reason: string }
  | { kind: "already_compacted" }
) &
  JobNotices;

/** Receives the engine's progress (phase, window, the summary streaming in). Must not throw. */
type CompactProgress = ((p: CompactionProgress) => void) & ProxyMarked;

/** Everything one branch summary needs (DESIGN §5): the abandoned entries and the summarizer. */
export type BranchSummaryJob = {
  /** The abandoned branch, root first (core/branch `collectAbandoned`); its last entry is the old leaf. */
  abandoned: readonly Entry[];
  /** Custom instructions: they replace the default prompt. */
  instructions?: string;
  /** `CompactionSettings.branchReserveTokens`. */
  branchReserveTokens: number;
  /** The summarizer's token encoding, and its calibration ratio (1 for exact encodings). */
  encoding: TokenEncoding;
  countScale: number;
  summarizer: SummarizerSpec;
  /** The user's prompt overrides (Settings → Prompts) and the version of each prompt in force. */
  prompts?: PromptTexts;
  promptVersions?: Readonly<Record<string, string>>;
};

export type BranchSummaryJobOutcome = BranchSummaryOutcome & JobNotices;

export type BranchSummaryProgress = { phase: "preparing" } | { phase: "summarizing"; text: string };
/** Receives a branch summary's progress (the summary streaming in). Must not throw. */
type BranchProgress = ((p: BranchSummaryProgress) => void) & ProxyMarked;

/**
 * Everything one handoff document needs (DESIGN §5). The request goes to the CHAT model with the
 * chat's own context, system prompt and thinking setting, so the provider's prompt cache hits.
 */
export type HandoffJob = {
  /** The active path, root first; its last entry is the leaf the document is written from. */
  path: readonly Entry[];
  focus?: string;
  systemPrompt: string;
  provider: ProviderConfig;
  model: string;
  thinking: ThinkingSetting;
  contextWindow: number;
  maxOutput: number;
  /** `CompactionSettings.reserveTokens`: the output budget is 0.8 × this (capped). */
  reserveTokens: number;
  encoding: TokenEncoding;
  countScale: number;
  /** The user's version of the handoff request (Settings → Prompts); absent: the shipped one. */
  prompt?: string;
};

export type HandoffJobOutcome =
  | {
      kind: "document";
      document: string;
      fromEntryId: EntryId;
      /** The usage its request reported, for the handoff entry (entries.ts `sideUsage`). */
      sideUsage?: readonly ModelUsage[];
    }
  /** The model wrote nothing usable: fall back to compaction in place. */
  | { kind: "empty"; fromEntryId: EntryId }
  | { kind: "nothing_to_hand_off"; reason: string }
  /** The context leaves no room for a document: fall back to compaction in place. */
  | { kind: "too_long"; reason: string }
  | { kind: "failed"; error: string }
  | { kind: "cancelled" };

export type HandoffDocumentProgress = { phase: "preparing" } | { phase: "writing"; text: string };
/** Receives a handoff's progress (the document streaming in). Must not throw. */
type HandoffProgress = ((p: HandoffDocumentProgress) => void) & ProxyMarked;

/**
 * Counts for `encoding` `"claude"` are the raw estimate (claude-estimate.ts); the caller applies
 * its calibration (`calibratedCount`). The first call for an encoding loads its ranks (~1–2 s).
 */
export interface WorkerApi {
  /** Tokens of each text, in order. */
  countTexts(encoding: TokenEncoding, texts: readonly string[]): Promise<number[]>;
  /**
   * Each entry's count by id (core/tokens/entry-tokens.ts `countEntryTokens`, which is the compaction
   * engine's `EntryTokens`): rows for the `tokenCounts` cache, and the engine's per-entry counts.
   */
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
   * Prepares and runs one compaction (core/compaction) with the summarizer calls made here, and
   * returns the outcome; the caller appends the entry. `cancel(opId)` makes it resolve `cancelled`.
   */
  compact(job: CompactJob, onProgress: CompactProgress, opId?: OpId): Promise<CompactJobOutcome>;
  /**
   * Plans (core/branch `prepareBranchSummary`), runs the one summarizer call and finishes one branch
   * summary; returns the entry to append as a child of the new position, or why there is none.
   * `cancel(opId)` makes it resolve `cancelled`. Never throws for a provider failure (`failed`).
   */
  branchSummary(job: BranchSummaryJob, onProgress: BranchProgress, opId?: OpId): Promise<BranchSummaryJobOutcome>;
  /**
   * Sends the live context plus the handoff message (core/handoff `prepareHandoff`) to the chat
   * model and returns the document, `empty` or why there is none. `cancel(opId)` makes it resolve
   * `cancelled`. Never throws for a provider failure (`failed`).
   */
  handoffDocument(job: HandoffJob, onProgress: HandoffProgress, opId?: OpId): Promise<HandoffJobOutcome>;
  /**
   * Aborts the operation started with `opId`: its provider request is aborted and it rejects with
   * an `aborted` MessageError. True if it was running; false if it had finished or never started
   * (messages arrive in order, so a cancel sent after its summarize always finds it).
   */
  cancel(opId: OpId): Promise<boolean>;
}
