import { useState } from "react";
import type { Session } from "../../core/session/entries";
import { setSessionSystemPrompt } from "../../state/actions/sessions";
import { useSettingsStore } from "../../state/stores";
import { Dialog } from "../common/Dialog";

/** Per-session override of the global system prompt (DESIGN §3.1: the session's, else the default). */
export function SessionPromptDialog({ session, onClose }: { session: Session; onClose: () => void }) {
  const globalPrompt = useSettingsStore((s) => s.settings.systemPrompt);
  const [useOverride, setUseOverride] = useState(session.systemPrompt !== undefined);
  const [text, setText] = useState(session.systemPrompt ?? globalPrompt);
  return (
    <Dialog title="Chat system prompt" onClose={onClose}>
      <label className="check">
        <input type="checkbox" checked={useOverride} onChange={(e) => setUseOverride(e.target.checked)} />
        Use a system prompt just for this chat
      </label>
      {useOverride ? (
        <label className="field">
          <span>Session system prompt</span>
          <textarea rows={8} value={text} onChange={(e) => setText(e.target.value)} />
        </label>
      ) : (
        <p className="muted">This chat uses the default system prompt from Settings{globalPrompt ? "" : " (empty)"}.</p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => {
            void setSessionSystemPrompt(session.id, useOverride ? text : null);
            onClose();
          }}
        >
          Save
        </button>
      </div>
    </Dialog>
  );
}
