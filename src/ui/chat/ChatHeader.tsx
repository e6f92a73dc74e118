import { useState } from "react";
import { useUiStore } from "../../state/stores";
import type { SessionView } from "../hooks";
import { ContextMeter } from "./ContextMeter";
import { ModelPicker } from "./ModelPicker";
import { SessionPromptDialog } from "./SessionPromptDialog";

export function ChatHeader({ view, onToggleSessions }: { view: SessionView; onToggleSessions: () => void }) {
  const [promptOpen, setPromptOpen] = useState(false);
  return (
    <header className="chat-header">
      <button type="button" className="icon-button only-narrow" aria-label="Show sessions" onClick={onToggleSessions}>
        ☰
      </button>
      <h2 className="chat-title" title={view.session?.title}>
        {view.session?.title ?? "New chat"}
      </h2>
      <div className="header-controls">
        <ModelPicker session={view.session} />
        <ContextMeter view={view} />
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
