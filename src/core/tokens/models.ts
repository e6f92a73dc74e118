/**
 * The model registry: context windows, output limits, tokenizer encodings and thinking styles of
 * the Claude and GPT models Grove knows, plus the safe fallback for everything else (custom
 * providers, local servers). Figures are the providers' published limits as of `asOf`; the user
 * can override window and output per model id in Settings.
 * No I/O here, no token counting (estimate.ts and the worker's tokenizer do that).
 */
import type { ApiKind } from "../session/entries";

type ModelVendor = "anthropic" | "openai";

/**
 * Tokenizer family. `o200k_base` / `cl100k_base` are js-tiktoken encodings; `claude` has no public
 * tokenizer (Claude 4.7 and later use a newer one that yields ~30% more tokens for the same text
 * than earlier Claude models, per Anthropic's model pages), so Claude counts are approximations.
 */
export type TokenEncoding = "o200k_base" | "cl100k_base" | "claude";

/**
 * How a model is asked to think.
 * - `anthropic-budget`: `thinking: {type: "enabled", budget_tokens}` (Claude 4.5 and earlier).
 * - `anthropic-adaptive`: `thinking: {type: "adaptive"}` with an effort level. Claude Opus 4.7,
 *   Fable 5 and later reject `budget_tokens` with a 400; on Opus/Sonnet 4.6 it is deprecated.
 * - `openai-effort`: `reasoning_effort` (o-series, GPT-5 and later).
 * - `none`: no thinking control.
 */
type ThinkingStyle = "none" | "anthropic-budget" | "anthropic-adaptive" | "openai-effort";

export type ModelInfo = {
  /** The provider's model id, without a date suffix (dated snapshots resolve to it). */
  readonly id: string;
  readonly vendor: ModelVendor;
  readonly label: string;
  /** Input + output tokens the model accepts per request. */
  readonly contextWindow: number;
  /** Most tokens one reply may generate (thinking included, where the provider counts it so). */
  readonly maxOutput: number;
  readonly encoding: TokenEncoding;
  readonly thinking: ThinkingStyle;
  /** When these figures were checked against the provider's documentation (YYYY-MM). */
  readonly asOf: string;
  /** The provider's announced end-of-life date (YYYY-MM-DD) when the model is deprecated. */
  readonly retiresOn?: string;
  /** What the model reads besides text; absent = images and PDFs (every current Claude and GPT model). */
  readonly input?: ModelInput;
};

/** Which attachments a model reads. */
export type ModelInput = { readonly images: boolean; readonly pdfs: boolean };

/** Unknown models (custom providers, local servers) are assumed to read both: their server says if not. */
const DEFAULT_MODEL_INPUT: ModelInput = { images: true, pdfs: true };

/** What `info` reads besides text. */
export const modelInput = (info: ModelInfo): ModelInput => info.input ?? DEFAULT_MODEL_INPUT;

/** Window assumed for a model id the registry does not know (and the UI marks as assumed). */
export const UNKNOWN_MODEL_CONTEXT_WINDOW = 128_000;
/** Output limit assumed for an unknown model: small enough that local and older servers accept it. */
export const UNKNOWN_MODEL_MAX_OUTPUT = 8_192;

const AS_OF = "2026-11";
const M = 1_000_000;
const K128 = 128_000;

const claude = (
  id: string,
  label: string,
  contextWindow: number,
  maxOutput: number,
  thinking: ThinkingStyle,
): ModelInfo => ({
  id,
  vendor: "anthropic",
  label,
  contextWindow,
  maxOutput,
  encoding: "claude",
  thinking,
  asOf: AS_OF,
});

const gpt = (
  id: string,
  label: string,
  contextWindow: number,
  maxOutput: number,
  thinking: ThinkingStyle,
): ModelInfo => ({
  id,
  vendor: "openai",
  label,
  contextWindow,
  maxOutput,
  encoding: "o200k_base",
  thinking,
  asOf: AS_OF,
});

/**
 * End-of-life dates from the SDK's deprecation table (@anthropic-ai/sdk 1.11.0,
 * `internal/data/deprecated-models.ts`; OpenAI's SDK has none): update both together.
 */
const deprecated = (info: ModelInfo, retiresOn: string): ModelInfo => ({ ...info, retiresOn });

/**
 * Known models, newest first within each vendor. Sources: platform.claude.com model pages (Claude),
 * developers.openai.com model pages and gateway listings that mirror them (GPT). GPT-6-generation
 * models are mapped to `o200k_base`, the newest encoding js-tiktoken ships; OpenAI has not
 * published their tokenizer, so counts for them are approximations too.
 */
export const MODEL_REGISTRY: readonly ModelInfo[] = [
  // Anthropic — current lineup (the SDK's `Model` union, @anthropic-ai/sdk 1.11.0)
  claude("claude-fable-5-2", "Claude Fable 5.2", M, K128, "anthropic-adaptive"),
  claude("claude-mythos-5-2", "Claude Mythos 5.2", M, K128, "anthropic-adaptive"),
  claude("claude-fable-5-1", "Claude Fable 5.1", M, K128, "anthropic-adaptive"),
  claude("claude-mythos-5-1", "Claude Mythos 5.1", M, K128, "anthropic-adaptive"),
  claude("claude-opus-5-5", "Claude Opus 5.5", M, K128, "anthropic-adaptive"),
  claude("claude-sonnet-5-5", "Claude Sonnet 5.5", M, K128, "anthropic-adaptive"),
  claude("claude-haiku-5-5", "Claude Haiku 5.5", M, K128, "anthropic-adaptive"),
  // Anthropic — legacy, still served
  claude("claude-fable-5", "Claude Fable 5", M, K128, "anthropic-adaptive"),
  claude("claude-opus-5", "Claude Opus 5", M, K128, "anthropic-adaptive"),
  claude("claude-sonnet-5", "Claude Sonnet 5", M, K128, "anthropic-adaptive"),
  claude("claude-mythos-5", "Claude Mythos 5", M, K128, "anthropic-adaptive"),
  claude("claude-opus-4-8", "Claude Opus 4.8", M, K128, "anthropic-adaptive"),
  claude("claude-opus-4-7", "Claude Opus 4.7", M, K128, "anthropic-adaptive"),
  deprecated(claude("claude-mythos-preview", "Claude Mythos Preview", M, K128, "anthropic-adaptive"), "2026-06-30"),
  claude("claude-opus-4-6", "Claude Opus 4.6", M, K128, "anthropic-adaptive"),
  claude("claude-sonnet-4-6", "Claude Sonnet 4.6", M, K128, "anthropic-adaptive"),
  claude("claude-opus-4-5", "Claude Opus 4.5", 200_000, 64_000, "anthropic-budget"),
  deprecated(claude("claude-sonnet-4-5", "Claude Sonnet 4.5", 200_000, 64_000, "anthropic-budget"), "2026-11-30"),
  claude("claude-haiku-4-5", "Claude Haiku 4.5", 200_000, 64_000, "anthropic-budget"),
  // OpenAI — GPT-6 generation
  gpt("gpt-6.2-sol", "GPT-6.2 Sol", 1_050_000, K128, "openai-effort"),
  gpt("gpt-6.1-sol", "GPT-6.1 Sol", 1_050_000, K128, "openai-effort"),
  gpt("gpt-6-astra", "GPT-6 Astra", 1_050_000, K128, "openai-effort"),
  gpt("gpt-6-sol", "GPT-6 Sol", 1_050_000, K128, "openai-effort"),
  gpt("gpt-6-luna", "GPT-6 Luna", 1_050_000, K128, "openai-effort"),
  // OpenAI — GPT-5 family
  gpt("gpt-5.6-sol", "GPT-5.6 Sol", 1_050_000, K128, "openai-effort"),
  gpt("gpt-5.6-luna", "GPT-5.6 Luna", 1_050_000, K128, "openai-effort"),
  gpt("gpt-5.5", "GPT-5.5", 1_050_000, K128, "openai-effort"),
  gpt("gpt-5.4", "GPT-5.4", 1_050_000, K128, "openai-effort"),
  gpt("gpt-5.2", "GPT-5.2", 400_000, K128, "openai-effort"),
  gpt("gpt-5.1", "GPT-5.1", 400_000, K128, "openai-effort"),
  gpt("gpt-5", "GPT-5", 400_000, K128, "openai-effort"),
  gpt("gpt-5-mini", "GPT-5 mini", 400_000, K128, "openai-effort"),
  gpt("gpt-5-nano", "GPT-5 nano", 400_000, K128, "openai-effort"),
  // OpenAI — earlier models still in use
  gpt("gpt-4.1", "GPT-4.1", 1_047_576, 32_768, "none"),
  gpt("gpt-4.1-mini", "GPT-4.1 mini", 1_047_576, 32_768, "none"),
  gpt("gpt-4o", "GPT-4o", 128_000, 16_384, "none"),
  gpt("gpt-4o-mini", "GPT-4o mini", 128_000, 16_384, "none"),
  gpt("o3", "o3", 200_000, 100_000, "openai-effort"),
  gpt("o4-mini", "o4-mini", 200_000, 100_000, "openai-effort"),
  // Text only: no image or file inputs.
  { ...gpt("o3-mini", "o3-mini", 200_000, 100_000, "openai-effort"), input: { images: false, pdfs: false } },
];

const BY_ID: ReadonlyMap<string, ModelInfo> = new Map(MODEL_REGISTRY.map((m) => [m.id, m]));

/** The model new installs start with: the current mid-size Claude (never one with a `retiresOn`). */
export const DEFAULT_MODEL_ID = "claude-sonnet-5-5";

export type Deprecation = { retiresOn: string; retired: boolean };

/**
 * Whether `id` is deprecated: its end-of-life date and whether that date has passed on `today`
 * (YYYY-MM-DD). Unknown and current models: null.
 */
export function deprecationOf(id: string, today: string): Deprecation | null {
  const retiresOn = findModel(id)?.retiresOn;
  return retiresOn ? { retiresOn, retired: retiresOn <= today } : null;
}

/**
 * The registry key for a model id as users and providers write it: lower case, without an
 * `anthropic/` or `openai/` router prefix and without a snapshot date (`-20251001`, `-2024-11-20`).
 * Claude ids also accept dots for dashes (`claude-sonnet-4.5`) and a `-latest` suffix.
 */
export function normalizeModelId(id: string): string {
  let s = id
    .trim()
    .toLowerCase()
    .replace(/^(anthropic|openai)\//, "");
  s = s.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, "");
  if (s.startsWith("claude-")) s = s.replace(/(\d)\.(\d)/g, "$1-$2").replace(/-latest$/, "");
  return s;
}

/** The registry entry for `id` (dated snapshots and aliases included), or undefined. */
export function findModel(id: string): ModelInfo | undefined {
  return BY_ID.get(normalizeModelId(id));
}

export type VendorDefaults = { vendor: ModelVendor; encoding: TokenEncoding; thinking: ThinkingStyle };

/** What to assume about an unknown model behind `api`. Thinking stays off: we cannot know its style. */
export function vendorDefaultsFor(api: ApiKind): VendorDefaults {
  switch (api) {
    case "anthropic-messages":
      return { vendor: "anthropic", encoding: "claude", thinking: "none" };
    case "openai-responses":
    case "openai-chat":
      return { vendor: "openai", encoding: "o200k_base", thinking: "none" };
    default: {
      const never: never = api;
      throw new Error(`Unknown api: ${String(never)}`);
    }
  }
}

type ModelLimitOverride = { contextWindow?: number; maxOutput?: number };
export type ModelOverrides = Readonly<Record<string, ModelLimitOverride | undefined>>;

export type ResolvedModel = {
  info: ModelInfo;
  /** False: the id is not in the registry and the limits are assumed (the UI marks it). */
  known: boolean;
  /** True when a user override replaced the window or the output limit. */
  overridden: boolean;
};

const isLimit = (n: number | undefined): n is number => n !== undefined && Number.isInteger(n) && n > 0;

/**
 * The limits to use for `id`: the registry's, else `UNKNOWN_MODEL_CONTEXT_WINDOW` and
 * `UNKNOWN_MODEL_MAX_OUTPUT`, then the user's override for that id (looked up as written, then
 * normalized). Overrides that are not positive integers are ignored. For an unknown id the vendor
 * comes from `api` when given, else from the id (`claude…` → anthropic, otherwise openai).
 */
export function resolveModel(id: string, overrides?: ModelOverrides, api?: ApiKind): ResolvedModel {
  const found = findModel(id);
  const base: ModelInfo =
    found ??
    (() => {
      const guessedApi: ApiKind =
        api ?? (normalizeModelId(id).startsWith("claude") ? "anthropic-messages" : "openai-chat");
      const defaults = vendorDefaultsFor(guessedApi);
      return {
        id,
        vendor: defaults.vendor,
        label: id,
        contextWindow: UNKNOWN_MODEL_CONTEXT_WINDOW,
        maxOutput: UNKNOWN_MODEL_MAX_OUTPUT,
        encoding: defaults.encoding,
        thinking: defaults.thinking,
        asOf: AS_OF,
      };
    })();
  const override = overrides?.[id] ?? overrides?.[normalizeModelId(id)];
  const windowOverride = override?.contextWindow;
  const outputOverride = override?.maxOutput;
  const contextWindow = isLimit(windowOverride) ? windowOverride : undefined;
  const maxOutput = isLimit(outputOverride) ? outputOverride : undefined;
  const overridden = contextWindow !== undefined || maxOutput !== undefined;
  const info: ModelInfo = overridden
    ? { ...base, contextWindow: contextWindow ?? base.contextWindow, maxOutput: maxOutput ?? base.maxOutput }
    : base;
  return { info, known: found !== undefined, overridden };
}
