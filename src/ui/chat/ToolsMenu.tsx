import type { ChatTools, GroveToolKind, ProviderToolKind } from "../../core/session/chat-tools";
import { GROVE_TOOL_KINDS, NO_CHAT_TOOLS } from "../../core/session/chat-tools";
import type { Session } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { useUiStore } from "../../state/app/ui-store";
import { useNewChatSetup } from "../../state/sessions/chat-setup";
import { useSettingsStore } from "../../state/settings/settings-store";
import { providerToolsFor, setChatTools } from "../../state/tools/chat-tools";
import { MenuButton } from "../common/Menu";
import { ToolsButtonFace } from "./ToolsButtonFace";

export const GROVE_TOOL_NAME: Record<GroveToolKind, string> = {
  search_my_chats: "Search my chats",
  read_chat: "Read a chat",
};

export const PROVIDER_TOOL_NAME: Record<ProviderToolKind, string> = {
  web_search: "Web search",
  code_execution: "Code execution",
};

/**
 * The composer's "Tools" menu (issue 28): which MCP servers, provider tools and Grove's own tools
 * ("Search my chats", "Read a chat") this chat may use, one
 * checkbox each, saved with the chat (a new chat's with its first message). Provider tools are listed
 * only where the chat's provider has them.
 */
export function ToolsMenu({ sessionId, session }: { sessionId: SessionId | null; session: Session | undefined }) {
  const servers = useSettingsStore((s) => s.settings.mcpServers);
  const settings = useSettingsStore((s) => s.settings);
  const draftTools = useNewChatSetup((s) => s.tools);
  const chosen: ChatTools = (sessionId ? session?.tools : draftTools) ?? NO_CHAT_TOOLS;
  const providerTools = providerToolsFor(session, settings);
  const live =
    servers.filter((s) => chosen.servers.includes(s.id)).length +
    chosen.provider.filter((k) => providerTools.includes(k)).length +
    (chosen.grove?.length ?? 0);
  const save = (next: ChatTools) => void setChatTools(sessionId, next);
  const toggle = <T extends string>(list: readonly T[], item: T): T[] =>
    list.includes(item) ? list.filter((x) => x !== item) : [...list, item];

  return (
    <MenuButton
      label="Tools"
      className={`tools-button${live > 0 ? " on" : ""}`}
      title="Which tools this chat may use"
      icon={<ToolsButtonFace live={live} />}
    >
      {(close) => (
        <>
          {servers.map((s) => {
            const on = chosen.servers.includes(s.id);
            return (
              <button
                key={s.id}
                type="button"
                role="menuitemcheckbox"
                aria-checked={on}
                onClick={() => save({ ...chosen, servers: toggle(chosen.servers, s.id) })}
              >
                <span className={on ? "menu-check on" : "menu-check"} aria-hidden="true" />
                {s.name}
              </button>
            );
          })}
          {providerTools.map((kind) => {
            const on = chosen.provider.includes(kind);
            return (
              <button
                key={kind}
                type="button"
                role="menuitemcheckbox"
                aria-checked={on}
                onClick={() => save({ ...chosen, provider: toggle(chosen.provider, kind) })}
              >
                <span className={on ? "menu-check on" : "menu-check"} aria-hidden="true" />
                {PROVIDER_TOOL_NAME[kind]}
              </button>
            );
          })}
          {GROVE_TOOL_KINDS.map((kind) => {
            const on = chosen.grove?.includes(kind) ?? false;
            return (
              <button
                key={kind}
                type="button"
                role="menuitemcheckbox"
                aria-checked={on}
                title="Grove's own tool: the model may look into your other chats in this browser (what it reads is sent to the provider)"
                onClick={() => save({ ...chosen, grove: toggle(chosen.grove ?? [], kind) })}
              >
                <span className={on ? "menu-check on" : "menu-check"} aria-hidden="true" />
                {GROVE_TOOL_NAME[kind]}
              </button>
            );
          })}
          <hr />
          <button
            type="button"
            role="menuitem"
            onClick={() => {
              close();
              useUiStore.setState({ settingsOpen: true });
            }}
          >
            Add an MCP server…
          </button>
        </>
      )}
    </MenuButton>
  );
}
