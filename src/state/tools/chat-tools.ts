/**
 * A chat's tool choice (issue 28): which MCP servers and provider tools it may use (the composer's
 * Tools menu), saved with the chat (a new chat's waits in the new-chat draft), and which provider
 * tools its model's provider has. Permissions given in the approval dialog are kept here too.
 */
import { type ChatTools, NO_CHAT_TOOLS, type ProviderToolKind, toolKey } from "../../core/session/chat-tools";
import type { Session } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { getSession, updateSession } from "../../db/sessions";
import { serverToolsFor } from "../../providers/tool-support";
import { reportActionError } from "../app/report-error";
import { useNewChatSetup } from "../sessions/chat-setup";
import { saveSettings } from "../settings/settings-actions";
import { findProvider, type Settings } from "../settings/settings-model";
import { useSettingsStore } from "../settings/settings-store";

/** The provider tools the chat's model can use, in menu order (none on Chat Completions). */
export function providerToolsFor(session: Session | undefined, settings: Settings): ProviderToolKind[] {
  const ref = session?.model ?? settings.defaultModel;
  const provider = findProvider(settings, ref.providerId);
  if (!provider) return [];
  const kinds = serverToolsFor(provider.api);
  return (["web_search", "code_execution"] as const).filter((k) => kinds.includes(k));
}

/** Saves a chat's tool choice (sessionId null: the new chat's, written at its first send). */
export async function setChatTools(sessionId: SessionId | null, tools: ChatTools): Promise<void> {
  if (!sessionId) {
    useNewChatSetup.setState({ tools });
    return;
  }
  try {
    await updateSession(sessionId, { tools });
  } catch (e) {
    reportActionError("Could not save the chat's tools", e);
  }
}

/** "Allow in this chat": the tool runs without asking in this chat from now on. */
export async function allowInChat(sessionId: SessionId, serverId: string, tool: string): Promise<void> {
  const session = await getSession(sessionId);
  if (!session) return;
  const tools = session.tools ?? NO_CHAT_TOOLS;
  const key = toolKey(serverId, tool);
  if (tools.allowed?.includes(key)) return;
  await setChatTools(sessionId, { ...tools, allowed: [...(tools.allowed ?? []), key] });
}

/** "Always allow": the tool runs without asking in every chat (Settings › Tools can take it back). */
export async function allowAlways(serverId: string, tool: string): Promise<void> {
  const loop = useSettingsStore.getState().settings.toolLoop;
  const key = toolKey(serverId, tool);
  if (loop.alwaysAllow.includes(key)) return;
  await saveSettings({ toolLoop: { ...loop, alwaysAllow: [...loop.alwaysAllow, key] } });
}
