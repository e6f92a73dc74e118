import { useState } from "react";
import { openCompactDialog } from "../../state/dialogs/compact-dialog";
import { openHandoffDialog } from "../../state/dialogs/handoff-dialog";
import { useMaintenanceStore, useStreamStore, useUiStore } from "../../state/stores";
import type { SessionView } from "../hooks";
import { ContextMeter } from "./ContextMeter";
import { ExportMenu } from "./ExportMenu";
import { ModelPicker } from "./ModelPicker";
import { SessionPromptDialog } from "./SessionPromptDialog";

export function ChatHeader({ view, onToggleSessions }: { view: SessionView; onToggleSessions: () => void }) {
  const [promptOpen, setPromptOpen] = useState(false);
  const graphOpen = useUiStore((s) => s.graphOpen);
  const sessionId = view.session?.id;
  const replying = useStreamStore((s) => (sessionId ? sessionId in s.replies : false));
  const maintenance = useMaintenanceStore((s) => s.op !== null);
  const compactTitle = replying
    ? "Wait for the reply to finish"
    : maintenance
      ? "A compaction is already running"
      : "Summarize the earlier part of this chat to free context space";
  return (
    <header className="chat-header">
      <button type="button" className="icon-button only-narrow" aria-label="Show sessions" onClick={onToggleSessions}>
        ☰
      </button>
      <h2 className="chat-title" title={view.session?.title}>
        {view.session?.title ?? "New chat"}
      </h2>
      <div className="header-controls">
        <ModelPicker session={view.session} loading={!view.loaded} />
        <ContextMeter view={view} />
        {view.session && (
          <button
            type="button"
            className="chip"
            disabled={replying || maintenance || view.path.length === 0}
            title={compactTitle}
            onClick={() => sessionId && openCompactDialog(sessionId)}
          >
            Compact
          </button>
        )}
        {view.session && (
          <button
            type="button"
            className="chip"
            disabled={replying || maintenance || view.path.length === 0}
            title={
              replying || maintenance
                ? "Wait for the reply or the running operation to finish"
                : "Continue in a new session that starts from a handoff document"
            }
            onClick={() => sessionId && openHandoffDialog(sessionId)}
          >
            Handoff
          </button>
        )}
        {view.session && (
          <button
            type="button"
            className={view.session.systemPrompt !== undefined ? "chip active" : "chip"}
            onClick={() => setPromptOpen(true)}
            title="System prompt for this chat"
          >
            Chat prompt
          </button>
        )}
        {view.session && <ExportMenu sessionId={view.session.id} />}
        <button
          type="button"
          className={graphOpen ? "chip active" : "chip"}
          aria-pressed={graphOpen}
          title="Show the conversation as a tree"
          onClick={() => useUiStore.setState((s) => ({ graphOpen: !s.graphOpen }))}
        >
          History graph
        </button>
        <button type="button" className="icon-button" onClick={() => useUiStore.setState({ settingsOpen: true })}>
          <span aria-hidden="true">⚙</span>
          <span className="sr-only">Settings</span>
        </button>
      </div>
      {promptOpen && view.session && (
        <SessionPromptDialog session={view.session} onClose={() => setPromptOpen(false)} />
      )}
    </header>
  );
}
