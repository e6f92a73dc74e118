import { useState } from "react";
import { useUiStore } from "../../state/app/ui-store";
import { openCompactDialog } from "../../state/dialogs/compact-dialog";
import { openHandoffDialog } from "../../state/dialogs/handoff-dialog";
import { useMaintenanceStore } from "../../state/maintenance/maintenance-store";
import { useStreamStore } from "../../state/reply/stream-store";
import { GearIcon, GraphIcon, MoreIcon } from "../common/icons";
import { MenuAction, MenuButton } from "../common/Menu";
import type { SessionView } from "../hooks";
import { splitPart } from "../sessions/title-part";
import { ContextMeter } from "./ContextMeter";
import { ExportMenuItems } from "./ExportMenu";
import { SessionPromptDialog } from "./lazy-chat";
import { ChatInfoDialog } from "./lazy-pins";
import { ModelPicker } from "./ModelPicker";
import "./chat-header.css";

/**
 * One row at any width: the title, then the model with its meter, then three icon buttons — the
 * history graph, Settings and the chat's own menu ("Chat actions": compact, handoff, its system
 * prompt, export). The title gives way first (ellipsis), so the row never wraps.
 */
export function ChatHeader({ view, onToggleSessions }: { view: SessionView; onToggleSessions: () => void }) {
  const [promptOpen, setPromptOpen] = useState(false);
  const [infoOpen, setInfoOpen] = useState(false);
  const graphOpen = useUiStore((s) => s.graphOpen);
  const sessionId = view.session?.id;
  const replying = useStreamStore((s) => (sessionId ? sessionId in s.replies : false));
  const maintenance = useMaintenanceStore((s) => s.op !== null);
  const waitReason = replying
    ? "Wait for the reply to finish"
    : maintenance
      ? "Wait for the running compaction to finish"
      : view.path.length === 0
        ? "Nothing to do yet: send a message first"
        : undefined;
  return (
    <header className={view.session && sessionId ? "chat-header has-overflow" : "chat-header"}>
      <button type="button" className="icon-button only-narrow" aria-label="Show sessions" onClick={onToggleSessions}>
        ☰
      </button>
      {/* While a chat is read its title is not known yet: nothing, rather than "New chat" for a moment. */}
      <ChatTitle title={view.session?.title ?? (view.loaded ? "New chat" : "")} />
      <div className="header-controls">
        <div className="model-group">
          <ModelPicker session={view.session} loading={!view.loaded} />
          <ContextMeter view={view} />
        </div>
        <button
          type="button"
          className={graphOpen ? "icon-button header-icon header-graph active" : "icon-button header-icon header-graph"}
          aria-pressed={graphOpen}
          aria-label="History graph"
          title="Show the conversation as a tree (History graph)"
          onClick={() => useUiStore.setState((s) => ({ graphOpen: !s.graphOpen }))}
        >
          <GraphIcon />
        </button>
        <button
          type="button"
          className="icon-button header-icon"
          aria-label="Settings"
          title="Settings"
          onClick={() => useUiStore.setState({ settingsOpen: true })}
        >
          <GearIcon />
        </button>
        {view.session && sessionId && (
          <MenuButton label="Chat actions" className="icon-button header-icon" title="Chat actions" icon={<MoreIcon />}>
            {(close) => (
              <>
                {/* The overflow (issue 27 item 5): on a narrow column the graph's button leaves the
                    header for this item (chat-header.css); on a wide one the item is not there. */}
                <div className="overflow-only">
                  <MenuAction
                    label="History graph"
                    description={graphOpen ? "Hide the conversation's tree" : "Show the conversation as a tree"}
                    onSelect={() => {
                      close();
                      useUiStore.setState((s) => ({ graphOpen: !s.graphOpen }));
                    }}
                  />
                  <MenuAction
                    label="Model options"
                    description="Temperature, output limit and thinking for this chat"
                    onSelect={() => {
                      close();
                      useUiStore.setState({ modelOptionsOpen: true });
                    }}
                  />
                  <hr />
                </div>
                <MenuAction
                  label="Compact"
                  description="Summarize the earlier part of this chat to free context space"
                  disabled={waitReason !== undefined}
                  disabledReason={waitReason}
                  onSelect={() => {
                    close();
                    openCompactDialog(sessionId);
                  }}
                />
                <MenuAction
                  label="Handoff"
                  description="Continue in a new chat that starts from a handoff document"
                  disabled={waitReason !== undefined}
                  disabledReason={waitReason}
                  onSelect={() => {
                    close();
                    openHandoffDialog(sessionId);
                  }}
                />
                <MenuAction
                  label="Chat prompt"
                  description={
                    view.session?.systemPrompt !== undefined
                      ? "This chat has its own system prompt"
                      : "Give this chat its own system prompt"
                  }
                  onSelect={() => {
                    close();
                    setPromptOpen(true);
                  }}
                />
                <MenuAction
                  label="Chat info"
                  description="What this chat keeps word for word, and what it cost per month"
                  onSelect={() => {
                    close();
                    setInfoOpen(true);
                  }}
                />
                <hr />
                <ExportMenuItems sessionId={sessionId} close={close} />
              </>
            )}
          </MenuButton>
        )}
      </div>
      {infoOpen && view.session && <ChatInfoDialog view={view} onClose={() => setInfoOpen(false)} />}
      {promptOpen && view.session && (
        <SessionPromptDialog session={view.session} onClose={() => setPromptOpen(false)} />
      )}
    </header>
  );
}

/** The title, cut with an ellipsis when long, but a handoff part's "(part 2)" always in view. */
function ChatTitle({ title }: { title: string }) {
  const { base, part } = splitPart(title);
  return (
    <h1 className="chat-title" title={title}>
      <span className="chat-title-base">{base}</span>
      {part && <span className="chat-title-part"> {part}</span>}
    </h1>
  );
}
