import type { AnthropicEffort, ThinkingSetting } from "../../core/session/chat-params";
import { resolveModel } from "../../core/tokens/models";
import { saveSettings } from "../../state/settings/settings-actions";
import { useSettingsStore } from "../../state/settings/settings-store";
import { DeprecationNote } from "../chat/DeprecationNote";
import { CommitField } from "./CommitField";
import { LargerModelSetting } from "./LargerModelSetting";
import { Advanced, SettingsSection } from "./SettingsSection";

const ADVANCED_TERMS = ["Context window override", "Max output override", "tokens", "window", "output limit"];
const TERMS = [
  "System prompt",
  "Generate chat titles",
  "Name new chats",
  "title",
  "summary model",
  "Thinking budget",
  "Thinking effort",
  "Reasoning effort",
  ...ADVANCED_TERMS,
];

/**
 * Settings › Models: what every chat's model is told (the default system prompt), how chats are
 * named, and the model in use's thinking and (under Advanced) window and output limit.
 */
export function ModelsSettings() {
  const settings = useSettingsStore((s) => s.settings);
  return (
    <SettingsSection name="Models" terms={TERMS}>
      <CommitField
        label="System prompt"
        multiline
        value={settings.systemPrompt}
        placeholder="Optional. Sent at the start of every chat that has no prompt of its own."
        onCommit={(v) => void saveSettings({ systemPrompt: v })}
      />
      <label className="check">
        <input
          type="checkbox"
          checked={settings.modelTitles}
          onChange={(e) => void saveSettings({ modelTitles: e.target.checked })}
        />
        Generate chat titles
      </label>
      <p className="muted small hint-under-check">
        After a new chat's first reply, one short request to the summary model (Compaction settings; else the chat's own
        model) for a title of a few words. A chat you renamed keeps your name. Off: the title is the first words of your
        message.
      </p>
      <ModelSettings />
    </SettingsSection>
  );
}

/** Per-model overrides for the model in use: window, output limit, thinking. */
function ModelSettings() {
  const settings = useSettingsStore((s) => s.settings);
  const sessionModel = settings.defaultModel;
  const modelId = sessionModel.modelId;
  const resolved = resolveModel(modelId, settings.modelOverrides);
  const override = settings.modelOverrides[modelId] ?? {};
  // Fresh from the store: both fields commit when the dialog closes; a render's copy would let the
  // second commit undo the first.
  const save = (patch: typeof override) => {
    const overrides = useSettingsStore.getState().settings.modelOverrides;
    void saveSettings({ modelOverrides: { ...overrides, [modelId]: { ...overrides[modelId], ...patch } } });
  };
  const thinking = override.thinking ?? { kind: "off" };
  const support = resolved.info.thinking;
  return (
    <div className="model-settings">
      <h4>Model in use: {modelId}</h4>
      <p className="muted small">
        {resolved.known
          ? `Context window ${resolved.info.contextWindow.toLocaleString()} tokens, up to ${resolved.info.maxOutput.toLocaleString()} output tokens (as of ${resolved.info.asOf}).`
          : `Unknown model: a ${resolved.info.contextWindow.toLocaleString()}-token window is assumed. Set the real one below.`}
      </p>
      <DeprecationNote modelId={modelId} />
      <LargerModelSetting modelId={modelId} />
      <Advanced terms={ADVANCED_TERMS}>
        <div className="field-row">
          <CommitField
            label="Context window override"
            type="number"
            value={override.contextWindow ? String(override.contextWindow) : ""}
            placeholder={String(resolved.info.contextWindow)}
            onCommit={(v) => save({ contextWindow: Number(v) > 0 ? Math.floor(Number(v)) : undefined })}
          />
          <CommitField
            label="Max output override"
            type="number"
            value={override.maxOutput ? String(override.maxOutput) : ""}
            placeholder={String(resolved.info.maxOutput)}
            onCommit={(v) => save({ maxOutput: Number(v) > 0 ? Math.floor(Number(v)) : undefined })}
          />
        </div>
      </Advanced>
      {support !== "none" && (
        <ThinkingControl support={support} value={thinking} onChange={(t) => save({ thinking: t })} />
      )}
    </div>
  );
}

function ThinkingControl({
  support,
  value,
  onChange,
}: {
  support: "anthropic-budget" | "anthropic-adaptive" | "openai-effort";
  value: ThinkingSetting;
  onChange: (t: ThinkingSetting) => void;
}) {
  if (support === "anthropic-budget") {
    const budget = value.kind === "anthropic-budget" ? value.budgetTokens : 0;
    return (
      <label className="field">
        <span>Thinking budget (tokens, 0 = off)</span>
        <input
          type="number"
          min={0}
          step={1024}
          value={budget}
          onChange={(e) => {
            const n = Math.floor(Number(e.target.value));
            onChange(n >= 1024 ? { kind: "anthropic-budget", budgetTokens: n } : { kind: "off" });
          }}
        />
        <small className="muted">Anthropic needs at least 1024.</small>
      </label>
    );
  }
  if (support === "anthropic-adaptive") {
    const level = value.kind === "anthropic-adaptive" ? value.effort : "off";
    return (
      <label className="field">
        <span>Thinking effort</span>
        <select
          value={level}
          onChange={(e) => {
            const v = e.target.value;
            onChange(v === "off" ? { kind: "off" } : { kind: "anthropic-adaptive", effort: v as AnthropicEffort });
          }}
        >
          <option value="off">Off</option>
          <option value="low">Low</option>
          <option value="medium">Medium</option>
          <option value="high">High</option>
          <option value="xhigh">Extra high</option>
          <option value="max">Max</option>
        </select>
      </label>
    );
  }
  const effort = value.kind === "openai-effort" ? value.effort : "off";
  return (
    <label className="field">
      <span>Reasoning effort</span>
      <select
        value={effort}
        onChange={(e) => {
          const v = e.target.value;
          onChange(
            v === "off"
              ? { kind: "off" }
              : { kind: "openai-effort", effort: v as "minimal" | "low" | "medium" | "high" },
          );
        }}
      >
        <option value="off">Provider default</option>
        <option value="minimal">Minimal</option>
        <option value="low">Low</option>
        <option value="medium">Medium</option>
        <option value="high">High</option>
      </select>
    </label>
  );
}
