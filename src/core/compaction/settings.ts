/**
 * Compaction settings and the numbers derived from them (DESIGN §4.3, §4.6): the defaults in one
 * exported constant, the auto-compaction threshold, the kept-user-turns budget, and the effective
 * keep-recent budget for small windows.
 * No I/O here, and no decision about *when* to compact: the state layer compares the meter's
 * `contextTokens` with `thresholdFor` and calls the engine.
 */

export type CompactionSettings = {
  /** Automatic compaction (threshold, preflight, overflow and length recovery). Manual always works. */
  readonly enabled: boolean;
  /** Tokens kept free for the reply; also the base of the summarizer's output budgets. */
  readonly reserveTokens: number;
  /** The newest tokens of the conversation kept verbatim (the kept region). */
  readonly keepRecentTokens: number;
  /** Absolute threshold in tokens; used when > 0. */
  readonly thresholdTokens: number;
  /** Threshold as a percentage (1–99) of the window; used when `thresholdTokens` is not set. */
  readonly thresholdPercent: number;
  /**
   * "Compact above (tokens)" (issue 29): a cap on the threshold whatever the window — a 1M-token
   * window otherwise lets every request grow to ~850k tokens before compacting. 0 = no cap.
   */
  readonly compactAboveTokens: number;
  /** A folded user turn larger than this (tokens) is summarized instead of kept verbatim. */
  readonly keptUserTurnMaxTokens: number;
  /** Tokens all kept user turns may take together; null = min(15% of the window, 20,000). */
  readonly keptUserTurnsBudget: number | null;
  /** Tokens kept free when summarizing an abandoned branch (DESIGN §5; used by core/branch). */
  readonly branchReserveTokens: number;
  /**
   * "Compaction method" per provider id (Settings → Compaction): "native" = the provider's own
   * compaction when its api has one (native-method.ts); absent or "grove" = Grove's summary.
   */
  readonly methods: Readonly<Record<string, CompactionMethodSetting>>;
  /** "Let Claude compact on the server": opt-in `context_management` edit `compact_20260112`. */
  readonly serverCompaction: boolean;
  /** Idle compaction (seed 002, off by default): compact a chat idle this long with a large context. */
  readonly idleEnabled: boolean;
  /** Idle compaction runs only above this many context tokens. */
  readonly idleThresholdTokens: number;
  /** Seconds without a reply or send before an idle chat is compacted. */
  readonly idleTimeoutSeconds: number;
};

export type CompactionMethodSetting = "grove" | "native";

export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = {
  enabled: true,
  reserveTokens: 16_384,
  keepRecentTokens: 20_000,
  thresholdTokens: 0,
  thresholdPercent: 0,
  compactAboveTokens: 0,
  keptUserTurnMaxTokens: 1_500,
  keptUserTurnsBudget: null,
  branchReserveTokens: 16_384,
  methods: {},
  serverCompaction: false,
  idleEnabled: false,
  idleThresholdTokens: 200_000,
  idleTimeoutSeconds: 300,
};

/** The default threshold keeps at least this share of the window free (DESIGN §4.6). */
const THRESHOLD_MIN_FREE_FRACTION = 0.15;
/**
 * `reserveTokens` is capped at this share of the window when computing the default threshold, so a
 * small window (an 8k local model, a 14k test window) still gets a usable threshold instead of a
 * negative one. For every window ≥ 2 × reserveTokens (32,768 by default) DESIGN's formula is unchanged.
 */
const THRESHOLD_MAX_RESERVE_FRACTION = 0.5;
/** Default kept-user-turns budget: this share of the window, at most `KEPT_USER_TURNS_MAX_TOKENS`. */
const KEPT_USER_TURNS_WINDOW_FRACTION = 0.15;
const KEPT_USER_TURNS_MAX_TOKENS = 20_000;
/**
 * The kept region never takes more than this share of the window: with the default 20,000-token
 * keep on a 32k local model, compaction could otherwise never bring the context under the threshold.
 * Windows ≥ 80,000 tokens keep the configured value.
 */
const KEEP_RECENT_MAX_WINDOW_FRACTION = 0.25;

const positive = (n: number): boolean => Number.isFinite(n) && n > 0;

/**
 * The context size (tokens) above which automatic compaction runs, by precedence: `thresholdTokens`
 * if > 0; else `thresholdPercent` (1–99) of the window; else window − max(15% of the window,
 * reserveTokens), with reserveTokens capped at half the window (see `THRESHOLD_MAX_RESERVE_FRACTION`).
 * Then `compactAboveTokens`, when > 0, caps whichever of these applies.
 *
 * @example thresholdFor(200_000, DEFAULT_COMPACTION_SETTINGS) === 170_000
 * @example thresholdFor(1_000_000, { ...DEFAULT_COMPACTION_SETTINGS, compactAboveTokens: 150_000 }) === 150_000
 */
export function thresholdFor(contextWindow: number, settings: CompactionSettings): number {
  const base = baseThreshold(contextWindow, settings);
  const cap = settings.compactAboveTokens;
  return positive(cap) ? Math.min(base, Math.floor(cap)) : base;
}

function baseThreshold(contextWindow: number, settings: CompactionSettings): number {
  if (positive(settings.thresholdTokens)) return Math.floor(settings.thresholdTokens);
  const pct = settings.thresholdPercent;
  if (Number.isFinite(pct) && pct >= 1 && pct <= 99) return Math.floor((contextWindow * pct) / 100);
  const reserve = Math.min(Math.max(0, settings.reserveTokens), contextWindow * THRESHOLD_MAX_RESERVE_FRACTION);
  const free = Math.max(contextWindow * THRESHOLD_MIN_FREE_FRACTION, reserve);
  return Math.max(0, Math.floor(contextWindow - free));
}

/** Tokens all kept user turns may take: the setting, else min(15% of the window, 20,000). */
export function keptUserTurnsBudgetFor(contextWindow: number, settings: CompactionSettings): number {
  const set = settings.keptUserTurnsBudget;
  if (set !== null && Number.isFinite(set) && set >= 0) return Math.floor(set);
  return Math.floor(Math.min(contextWindow * KEPT_USER_TURNS_WINDOW_FRACTION, KEPT_USER_TURNS_MAX_TOKENS));
}

/** The keep-recent budget actually used: the setting, capped at a quarter of the window. */
export function keepRecentTokensFor(contextWindow: number, settings: CompactionSettings): number {
  return Math.max(0, Math.floor(Math.min(settings.keepRecentTokens, contextWindow * KEEP_RECENT_MAX_WINDOW_FRACTION)));
}
