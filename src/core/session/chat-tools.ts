/**
 * Which tools a chat may use (issue 28): the MCP servers (by Grove's id for each, from Settings ›
 * Tools), the provider's own tools switched on, and the tools the user allowed for this chat
 * ("Allow in this chat"). Saved with the chat; a server id that no longer exists is ignored. Pure.
 */

/** A provider-run tool a chat can switch on (where its provider has it: providers/tool-support.ts). */
export type ProviderToolKind = "web_search" | "code_execution";
/** Grove's own tools (opt-in per chat): over the local search index and the chats in this browser. */
export type GroveToolKind = "search_my_chats" | "read_chat";
export const GROVE_TOOL_KINDS: readonly GroveToolKind[] = ["search_my_chats", "read_chat"];
export type ChatTools = {
  /** MCP servers this chat may use (Settings › Tools ids). */
  readonly servers: readonly string[];
  /** Provider tools switched on for this chat. */
  readonly provider: readonly ProviderToolKind[];
  /** Grove's own tools switched on for this chat ("Search my chats", "Read a chat"). */
  readonly grove?: readonly GroveToolKind[];
  /** Tools allowed without asking in this chat ("Allow in this chat"): `toolKey`s. */
  readonly allowed?: readonly string[];
};

export const NO_CHAT_TOOLS: ChatTools = { servers: [], provider: [] };

/** The key a permission is kept under: the server and the tool's own name. */
export const toolKey = (serverId: string, tool: string): string => `${serverId}/${tool}`;

/** Whether the chat uses any tool at all (then its replies run the tool loop). */
export const usesTools = (t: ChatTools | undefined): boolean =>
  t !== undefined && (t.servers.length > 0 || t.provider.length > 0 || (t.grove?.length ?? 0) > 0);

/** The part of a chat's tool choice a model preset keeps: what it may use, not what it was allowed. */
export type PresetTools = Pick<ChatTools, "servers" | "provider" | "grove">;

/** What a preset keeps of `tools` (undefined when the chat uses none). */
export function presetToolsOf(tools: ChatTools | undefined): PresetTools | undefined {
  if (!tools || !usesTools(tools)) return undefined;
  return {
    servers: [...tools.servers],
    provider: [...tools.provider],
    ...(tools.grove ? { grove: [...tools.grove] } : {}),
  };
}

/** A chat's choice after applying a preset's tools: the preset's choice, the chat's own permissions kept. */
export function withPresetTools(current: ChatTools | undefined, preset: PresetTools): ChatTools {
  return { ...preset, ...(current?.allowed ? { allowed: current.allowed } : {}) };
}

const PROVIDER_TOOL_KINDS: readonly ProviderToolKind[] = ["web_search", "code_execution"];
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** Reads a stored preset's tools (any shape from any app version), dropping what is not valid. */
export function presetToolsFrom(value: unknown): PresetTools | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const grove = strings(v.grove).filter((k): k is GroveToolKind => (GROVE_TOOL_KINDS as readonly string[]).includes(k));
  return presetToolsOf({
    servers: strings(v.servers),
    provider: strings(v.provider).filter((k): k is ProviderToolKind =>
      (PROVIDER_TOOL_KINDS as readonly string[]).includes(k),
    ),
    ...(grove.length > 0 ? { grove } : {}),
  });
}
