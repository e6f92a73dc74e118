import { useState } from "react";
import type { Session } from "../../core/session/entries";
import { deletePromptPreset, savePromptPreset, setChatPrompt, useNewChatSetup } from "../../state/sessions/chat-setup";
import { useSettingsStore } from "../../state/settings/settings-store";
import { Dialog } from "../common/Dialog";
import { PresetPicker, PresetSaveRow } from "./PresetList";
import "./chat-setup.css";

/**
 * Per-chat override of the global system prompt (DESIGN §3.1: the chat's, else the default). With
 * no session (a new chat, before its first message) it sets the prompt the first send will use.
 * Saved presets fill the text; the current text can be saved as one.
 */
export function SessionPromptDialog({ session, onClose }: { session: Session | undefined; onClose: () => void }) {
  const globalPrompt = useSettingsStore((s) => s.settings.systemPrompt);
  const presets = useSettingsStore((s) => s.settings.promptPresets);
  const setupPrompt = useNewChatSetup((s) => s.systemPrompt);
  const own = session ? session.systemPrompt : setupPrompt;
  const [useOverride, setUseOverride] = useState(own !== undefined);
  const [text, setText] = useState(own ?? globalPrompt);
  const [presetName, setPresetName] = useState("");
  return (
    <Dialog title="Chat system prompt" onClose={onClose}>
      <label className="check">
        <input type="checkbox" checked={useOverride} onChange={(e) => setUseOverride(e.target.checked)} />
        Use a system prompt just for this chat
      </label>
      {useOverride ? (
        <>
          <PresetPicker label="Start from a preset" presets={presets} onPick={(preset) => setText(preset.text)} />
          <label className="field">
            <span>Session system prompt</span>
            <textarea rows={8} value={text} onChange={(e) => setText(e.target.value)} />
          </label>
          <PresetSaveRow
            presets={presets}
            name={presetName}
            onNameChange={setPresetName}
            canSave={text.trim() !== ""}
            onSave={(name) => {
              void savePromptPreset({ name, text });
              setPresetName("");
            }}
            onDelete={(name) => void deletePromptPreset(name)}
          />
        </>
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
            void setChatPrompt(session?.id ?? null, useOverride ? text : null);
            onClose();
          }}
        >
          Save
        </button>
      </div>
    </Dialog>
  );
}
