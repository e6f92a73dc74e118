/**
 * The tool definitions a chat's next request would carry, as known on this page without connecting
 * (issue 28 item 4, the context meter's tool share): the function tools of the chosen servers this
 * page has connected (their listed tools, as `tool-reply.ts` offers them), Grove's own tools when
 * chosen, and the provider tools switched on. Pure over the stores' facts.
 */
import { GROVE_TOOL_SPECS } from "../../core/agent/grove-tools";
import type { FunctionToolSpec, ToolSpec } from "../../core/agent/tool-spec";
import { type ChatTools, GROVE_TOOL_KINDS, NO_CHAT_TOOLS } from "../../core/session/chat-tools";
import type { Session } from "../../core/session/entries";
import { mcpToolSpecs } from "../../tools/mcp-tool-specs";
import type { Settings } from "../settings/settings-model";
import { providerToolsFor } from "./chat-tools";
import type { McpServerStatus } from "./mcp-store";

export function chatToolDefinitions(
  session: Session | undefined,
  settings: Settings,
  status: Readonly<Record<string, McpServerStatus>>,
): ToolSpec[] {
  const choice = session?.tools ?? NO_CHAT_TOOLS;
  const reached = choice.servers.flatMap((id) => {
    const server = settings.mcpServers.find((s) => s.id === id);
    const known = status[id];
    if (!server || server.providerConnects || known?.kind !== "connected") return [];
    return [{ id, name: server.name, tools: known.tools }];
  });
  const byProvider: ToolSpec[] = choice.servers.flatMap((id) => {
    const server = settings.mcpServers.find((s) => s.id === id);
    return server?.providerConnects ? [{ kind: "mcp" as const, name: server.name, url: server.url }] : [];
  });
  const offered = providerToolsFor(session, settings);
  const providerTools: ToolSpec[] = choice.provider.filter((k) => offered.includes(k)).map((kind) => ({ kind }));
  return [...mcpToolSpecs(reached).specs, ...groveToolSpecs(choice), ...providerTools, ...byProvider];
}

/** The definitions of Grove's own tools the chat switched on, in menu order. */
export function groveToolSpecs(choice: ChatTools): FunctionToolSpec[] {
  return GROVE_TOOL_KINDS.filter((k) => choice.grove?.includes(k)).map((k) => GROVE_TOOL_SPECS[k]);
}
