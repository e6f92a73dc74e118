/**
 * The app's settings as data: shape, defaults and the pure helpers that read them.
 * Persisted as one settings row per key (db/settings.ts); API keys live only here and in that table.
 */
import type { LargerModels } from "../../core/compaction/promotion";
import { type CompactionSettings, DEFAULT_COMPACTION_SETTINGS } from "../../core/compaction/settings";
import { type PromptOverrides, promptOverridesFrom } from "../../core/prompt-ids";
import type { ThinkingSetting } from "../../core/session/chat-params";
import { chatParamsFrom, type ParamsPreset, type PromptPreset } from "../../core/session/chat-params";
import { presetToolsFrom } from "../../core/session/chat-tools";
import type { ModelRef } from "../../core/session/entries";
import { DEFAULT_MODEL_ID } from "../../core/tokens/models";
import { ANTHROPIC_DEFAULT_BASE_URL, OPENAI_DEFAULT_BASE_URL } from "../../providers/endpoint";
import {
  NO_REMOTE_SUMMARIZER,
  type RemoteSummarizerConfig,
  remoteSummarizerOrigin,
} from "../../providers/remote-summarizer";
import type { ProviderConfig } from "../../providers/types";
import {
  DEFAULT_TOOL_LOOP,
  type McpServerSetting,
  mcpServersFrom,
  type ToolLoopSettings,
  toolLoopFrom,
} from "./tool-settings";

type ModelOverride = {
  contextWindow?: number;
  maxOutput?: number;
  thinking?: ThinkingSetting;
};

/** What "Switch here" does about the branch it leaves (DESIGN §5): ask each time, or a remembered choice. */
export type SwitchSummaryDefault = "ask" | "none" | "summarize";
const SWITCH_SUMMARY_DEFAULTS: readonly SwitchSummaryDefault[] = ["ask", "none", "summarize"];

/** What threshold maintenance does when the context grows too large: compact in place, or hand off to a new session. */
export type AutoStrategy = "compact" | "handoff";
const AUTO_STRATEGIES: readonly AutoStrategy[] = ["compact", "handoff"];

export type Settings = {
  providers: ProviderConfig[];
  /** The model a new chat starts with. */
  defaultModel: ModelRef;
  /** Global default system prompt; a session may override it. */
  systemPrompt: string;
  /** Per model id. */
  modelOverrides: Record<string, ModelOverride>;
  compaction: CompactionSettings;
  /** A cheaper model for summaries; null = the chat's own model. */
  summaryModel: ModelRef | null;
  /** "Remember my choice" in the switch dialog; "ask" shows the dialog. */
  switchSummaryDefault: SwitchSummaryDefault;
  /** Threshold maintenance strategy; overflow, length and preflight recovery always compact. */
  autoStrategy: AutoStrategy;
  /**
   * "Generate chat titles" (on by default): after a new chat's first reply, ask the summary model (else
   * the chat's model) for a better title than its first words. The stored key keeps its first name.
   */
  modelTitles: boolean;
  /** Settings › Compaction "Remote summarizer URL" and its own token (seed 002 `compaction.remoteEndpoint`). */
  remoteSummarizer: RemoteSummarizerConfig;
  /** Saved system prompts a chat can start from (Chat prompt dialog). */
  promptPresets: PromptPreset[];
  /** Saved model parameters a chat can apply (Model settings dialog). */
  paramsPresets: ParamsPreset[];
  /** Settings › Prompts: the user's versions of the shipped prompts (core/prompt-overrides.ts). */
  prompts: PromptOverrides;
  /** Settings › Models "Larger model": per model id, the sibling a full chat moves to first (core/compaction/promotion.ts). */
  largerModels: LargerModels;
  /** Settings › Tools: the MCP servers (their headers are credentials, kept like API keys). */
  mcpServers: McpServerSetting[];
  /** Settings › Tools: the loop's step limit, call timeout, tools always allowed. */
  toolLoop: ToolLoopSettings;
};

export const BUILT_IN_PROVIDERS: readonly ProviderConfig[] = [
  {
    id: "anthropic",
    name: "Anthropic",
    api: "anthropic-messages",
    baseUrl: ANTHROPIC_DEFAULT_BASE_URL,
    apiKey: "",
    customModels: [],
    builtIn: true,
  },
  {
    id: "openai",
    name: "OpenAI",
    // OpenAI itself speaks Responses (reasoning kept across turns); compatible servers keep Chat Completions.
    api: "openai-responses",
    baseUrl: OPENAI_DEFAULT_BASE_URL,
    apiKey: "",
    customModels: [],
    builtIn: true,
  },
];

export const DEFAULT_SETTINGS: Settings = {
  providers: [...BUILT_IN_PROVIDERS],
  defaultModel: { providerId: "anthropic", modelId: DEFAULT_MODEL_ID },
  systemPrompt: "",
  modelOverrides: {},
  compaction: DEFAULT_COMPACTION_SETTINGS,
  summaryModel: null,
  switchSummaryDefault: "ask",
  autoStrategy: "compact",
  modelTitles: true,
  remoteSummarizer: NO_REMOTE_SUMMARIZER,
  promptPresets: [],
  paramsPresets: [],
  prompts: {},
  largerModels: {},
  mcpServers: [],
  toolLoop: DEFAULT_TOOL_LOOP,
};

/** Rows from the settings table → a complete Settings, built-in providers always present. */
export function settingsFromRows(rows: Record<string, unknown>): Settings {
  const stored = rows as Partial<Settings>;
  // A built-in provider always speaks its built-in api: settings stored before OpenAI moved to
  // Responses say "openai-chat" for it. Custom providers keep the api they were added with.
  const providers = (Array.isArray(stored.providers) ? stored.providers : []).map(withBuiltInApi);
  for (const builtIn of BUILT_IN_PROVIDERS) {
    if (!providers.some((p) => p.id === builtIn.id)) providers.unshift({ ...builtIn });
  }
  return {
    providers,
    defaultModel: stored.defaultModel ?? DEFAULT_SETTINGS.defaultModel,
    systemPrompt: typeof stored.systemPrompt === "string" ? stored.systemPrompt : "",
    modelOverrides: stored.modelOverrides ?? {},
    // Stored settings from an older version lack newer fields: the defaults fill them in.
    compaction: { ...DEFAULT_COMPACTION_SETTINGS, ...(stored.compaction ?? {}) },
    summaryModel: stored.summaryModel ?? null,
    switchSummaryDefault: oneOf(
      stored.switchSummaryDefault,
      SWITCH_SUMMARY_DEFAULTS,
      DEFAULT_SETTINGS.switchSummaryDefault,
    ),
    autoStrategy: oneOf(stored.autoStrategy, AUTO_STRATEGIES, DEFAULT_SETTINGS.autoStrategy),
    // On unless the user turned it off (it was off by default before, and only a toggle stored it).
    modelTitles: stored.modelTitles !== false,
    remoteSummarizer: remoteSummarizerFrom(stored.remoteSummarizer),
    promptPresets: promptPresetsFrom(stored.promptPresets),
    paramsPresets: paramsPresetsFrom(stored.paramsPresets),
    prompts: promptOverridesFrom(stored.prompts),
    largerModels: largerModelsFrom(stored.largerModels),
    mcpServers: mcpServersFrom(stored.mcpServers),
    toolLoop: toolLoopFrom(stored.toolLoop),
  };
}

function largerModelsFrom(value: unknown): LargerModels {
  if (typeof value !== "object" || value === null) return {};
  const out: Record<string, ModelRef> = {};
  for (const [id, ref] of Object.entries(value as Record<string, unknown>)) {
    const r = ref as Partial<ModelRef> | null;
    if (typeof r?.providerId === "string" && typeof r.modelId === "string" && r.modelId !== "") {
      out[id] = { providerId: r.providerId, modelId: r.modelId };
    }
  }
  return out;
}

function remoteSummarizerFrom(value: unknown): RemoteSummarizerConfig {
  if (typeof value !== "object" || value === null) return NO_REMOTE_SUMMARIZER;
  const v = value as Partial<RemoteSummarizerConfig>;
  const out: RemoteSummarizerConfig = {
    url: typeof v.url === "string" ? v.url : "",
    token: typeof v.token === "string" ? v.token : "",
  };
  if (typeof v.plainHttpOrigin === "string") out.plainHttpOrigin = v.plainHttpOrigin;
  if (typeof v.tokenOrigin === "string") out.tokenOrigin = v.tokenOrigin;
  else if (out.token.trim() !== "") {
    // Stored before tokens were tied to an origin: it was already going to this URL.
    const origin = remoteSummarizerOrigin(out.url);
    if (origin !== undefined) out.tokenOrigin = origin;
  }
  return out;
}

function promptPresetsFrom(value: unknown): PromptPreset[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (p): p is PromptPreset =>
      typeof p === "object" && p !== null && typeof p.name === "string" && typeof p.text === "string",
  );
}

function paramsPresetsFrom(value: unknown): ParamsPreset[] {
  if (!Array.isArray(value)) return [];
  const out: ParamsPreset[] = [];
  for (const p of value) {
    if (typeof p !== "object" || p === null || typeof p.name !== "string") continue;
    const tools = presetToolsFrom(p.tools);
    out.push({ name: p.name, params: chatParamsFrom(p.params) ?? {}, ...(tools ? { tools } : {}) });
  }
  return out;
}

function withBuiltInApi(p: ProviderConfig): ProviderConfig {
  const builtIn = BUILT_IN_PROVIDERS.find((b) => b.id === p.id);
  return builtIn && p.api !== builtIn.api ? { ...p, api: builtIn.api } : p;
}

/** `value` if it is one of `allowed` (a stored value from another app version may not be), else `fallback`. */
function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.find((a) => a === value) ?? fallback;
}

export function findProvider(settings: Settings, providerId: string): ProviderConfig | undefined {
  return settings.providers.find((p) => p.id === providerId);
}

export function thinkingFor(settings: Settings, modelId: string): ThinkingSetting {
  return settings.modelOverrides[modelId]?.thinking ?? { kind: "off" };
}
