import { useState } from "react";
import type { AnthropicEffort, ChatParams, OpenAIEffort, ThinkingSetting } from "../../core/session/chat-params";
import { NO_CHAT_TOOLS, type PresetTools, presetToolsOf, withPresetTools } from "../../core/session/chat-tools";
import type { Session } from "../../core/session/entries";
import { resolveModel } from "../../core/tokens/models";
import { temperatureApplies } from "../../providers/temperature";
import { deleteParamsPreset, saveParamsPreset, setChatParams, useNewChatSetup } from "../../state/sessions/chat-setup";
import { findProvider, thinkingFor } from "../../state/settings/settings-model";
import { useSettingsStore } from "../../state/settings/settings-store";
import type { McpServerSetting } from "../../state/settings/tool-settings";
import { setChatTools } from "../../state/tools/chat-tools";
import { Dialog } from "../common/Dialog";
import { DeprecationNote } from "./DeprecationNote";
import { PresetPicker, PresetSaveRow } from "./PresetList";
import { GROVE_TOOL_NAME, PROVIDER_TOOL_NAME } from "./ToolsMenu";
import "./chat-setup.css";

const ANTHROPIC_EFFORTS: readonly AnthropicEffort[] = ["low", "medium", "high", "xhigh", "max"];
const OPENAI_EFFORTS: readonly OpenAIEffort[] = ["minimal", "low", "medium", "high"];
const DEFAULT = "default";

/** The thinking choices a model's style offers, as select values (`default` = the model's setting in Settings). */
function thinkingOptions(style: string): { value: string; label: string }[] {
  const off = { value: "off", label: "Off" };
  switch (style) {
    case "anthropic-adaptive":
      return [
        off,
        ...ANTHROPIC_EFFORTS.map((e) => ({ value: `anthropic-adaptive:${e}`, label: `Adaptive, ${e} effort` })),
      ];
    case "anthropic-budget":
      return [
        off,
        ...[4_000, 16_000, 32_000].map((n) => ({
          value: `anthropic-budget:${n}`,
          label: `Budget ${n.toLocaleString()} tokens`,
        })),
      ];
    case "openai-effort":
      return OPENAI_EFFORTS.map((e) => ({ value: `openai-effort:${e}`, label: `Reasoning effort ${e}` }));
    default:
      return [];
  }
}

function thinkingValue(t: ThinkingSetting | undefined): string {
  if (!t) return DEFAULT;
  switch (t.kind) {
    case "off":
      return "off";
    case "anthropic-adaptive":
      return `anthropic-adaptive:${t.effort}`;
    case "anthropic-budget":
      return `anthropic-budget:${t.budgetTokens}`;
    case "openai-effort":
      return `openai-effort:${t.effort}`;
  }
}

function thinkingFrom(value: string): ThinkingSetting | undefined {
  if (value === DEFAULT) return undefined;
  if (value === "off") return { kind: "off" };
  const [kind, arg = ""] = value.split(":");
  if (kind === "anthropic-adaptive") return { kind, effort: arg as AnthropicEffort };
  if (kind === "anthropic-budget") return { kind, budgetTokens: Number(arg) };
  if (kind === "openai-effort") return { kind, effort: arg as OpenAIEffort };
  return undefined;
}

function describeParams(p: ChatParams): string {
  const parts = [
    p.temperature !== undefined ? `temperature ${p.temperature}` : "",
    p.maxOutputTokens !== undefined ? `${p.maxOutputTokens.toLocaleString()} output tokens` : "",
    p.thinking ? `thinking ${thinkingValue(p.thinking).replace(/^[a-z-]+:/, "")}` : "",
  ].filter(Boolean);
  return parts.join(", ") || "model defaults";
}

/** A preset's tools in words: the servers' names (those still in Settings › Tools), the provider's and Grove's tools. */
function describeTools(tools: PresetTools, servers: readonly McpServerSetting[]): string {
  return [
    ...servers.filter((s) => tools.servers.includes(s.id)).map((s) => s.name),
    ...tools.provider.map((k) => PROVIDER_TOOL_NAME[k]),
    ...(tools.grove ?? []).map((k) => GROVE_TOOL_NAME[k]),
  ].join(", ");
}

/**
 * Model settings for one chat (issue 12 item 8): temperature, output limit, thinking. With no
 * session it sets what the first message of a new chat will use. Presets live in settings.
 */
export function ModelSettingsDialog({ session, onClose }: { session: Session | undefined; onClose: () => void }) {
  const settings = useSettingsStore((s) => s.settings);
  const setupParams = useNewChatSetup((s) => s.params);
  const setupTools = useNewChatSetup((s) => s.tools);
  const chatTools = (session ? session.tools : setupTools) ?? NO_CHAT_TOOLS;
  const ownTools = presetToolsOf(chatTools);
  const [withTools, setWithTools] = useState(ownTools !== undefined);
  /** The tools of the preset picked last: applied with Save. */
  const [pickedTools, setPickedTools] = useState<PresetTools | undefined>(undefined);
  const ref = session?.model ?? settings.defaultModel;
  const api = findProvider(settings, ref.providerId)?.api ?? "openai-chat";
  const model = resolveModel(ref.modelId, settings.modelOverrides, api);
  const own = (session ? session.params : setupParams) ?? {};
  const [temperature, setTemperature] = useState(own.temperature !== undefined ? String(own.temperature) : "");
  const [maxOutput, setMaxOutput] = useState(own.maxOutputTokens !== undefined ? String(own.maxOutputTokens) : "");
  const [thinking, setThinking] = useState(thinkingValue(own.thinking));
  const [presetName, setPresetName] = useState("");
  const [problem, setProblem] = useState("");
  const options = thinkingOptions(model.info.thinking);
  const tempApplies = temperatureApplies(api, ref.modelId);
  const modelDefault = thinkingFor(settings, ref.modelId);

  /** The form as ChatParams, or a sentence saying what is wrong with it. */
  const read = (): ChatParams | string => {
    const out: ChatParams = {};
    if (temperature.trim()) {
      const t = Number(temperature);
      if (!Number.isFinite(t) || t < 0 || t > 2) return "Temperature is a number from 0 to 2.";
      out.temperature = t;
    }
    if (maxOutput.trim()) {
      const n = Number(maxOutput);
      if (!Number.isInteger(n) || n <= 0) return "Max output tokens is a whole number above 0.";
      if (n > model.info.maxOutput)
        return `This model writes at most ${model.info.maxOutput.toLocaleString()} tokens per reply.`;
      out.maxOutputTokens = n;
    }
    const t = thinkingFrom(thinking);
    if (t) out.thinking = t;
    return out;
  };

  const apply = (params: ChatParams) => {
    setTemperature(params.temperature !== undefined ? String(params.temperature) : "");
    setMaxOutput(params.maxOutputTokens !== undefined ? String(params.maxOutputTokens) : "");
    setThinking(thinkingValue(params.thinking));
  };

  return (
    <Dialog title="Model options" onClose={onClose}>
      <div className="model-settings">
        <p className="muted small">
          For {session ? "this chat" : "the new chat"} with <strong>{ref.modelId}</strong>. Empty fields use the model's
          defaults.
        </p>
        <DeprecationNote modelId={ref.modelId} />
        <PresetPicker
          label="Apply a preset"
          presets={settings.paramsPresets}
          describe={(p) =>
            describeParams(p.params) + (p.tools ? `; tools: ${describeTools(p.tools, settings.mcpServers)}` : "")
          }
          onPick={(preset) => {
            apply(preset.params);
            setPickedTools(preset.tools);
            setPresetName(preset.name);
          }}
        />
        {pickedTools && (
          <p className="hint" role="status">
            Save also chooses this preset's tools: {describeTools(pickedTools, settings.mcpServers) || "none"}.
          </p>
        )}
        <label className="field">
          <span>Temperature</span>
          <input
            type="number"
            min={0}
            max={2}
            step={0.1}
            placeholder="default"
            value={temperature}
            onChange={(e) => setTemperature(e.target.value)}
          />
        </label>
        <p className="hint">
          {tempApplies
            ? "Lower is more focused, higher more varied (0–2)."
            : api === "anthropic-messages"
              ? "Claude models no longer take a temperature: it is not sent."
              : "Reasoning models reject a temperature: it is not sent to this one."}
        </p>
        <label className="field">
          <span>Max output tokens</span>
          <input
            type="number"
            min={1}
            max={model.info.maxOutput}
            placeholder={model.info.maxOutput.toLocaleString()}
            value={maxOutput}
            onChange={(e) => setMaxOutput(e.target.value)}
          />
        </label>
        {options.length > 0 && (
          <label className="field">
            <span>Thinking</span>
            <select value={thinking} onChange={(e) => setThinking(e.target.value)}>
              <option value={DEFAULT}>Model default ({thinkingValue(modelDefault).replace(/^[a-z-]+:/, "")})</option>
              {options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
        )}
        <PresetSaveRow
          presets={settings.paramsPresets}
          name={presetName}
          onNameChange={setPresetName}
          canSave
          onSave={(name) => {
            const params = read();
            if (typeof params === "string") return setProblem(params);
            setProblem("");
            void saveParamsPreset({ name, params, ...(withTools && ownTools ? { tools: ownTools } : {}) });
          }}
          onDelete={(name) => void deleteParamsPreset(name)}
        />
        {ownTools && (
          <label className="check">
            <input type="checkbox" checked={withTools} onChange={(e) => setWithTools(e.target.checked)} />
            Include this chat's tools ({describeTools(ownTools, settings.mcpServers)})
          </label>
        )}
        {problem && (
          <p className="field-problem" role="alert">
            {problem}
          </p>
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" onClick={() => apply({})}>
          Use model defaults
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => {
            const params = read();
            if (typeof params === "string") return setProblem(params);
            void setChatParams(session?.id ?? null, params);
            if (pickedTools) void setChatTools(session?.id ?? null, withPresetTools(chatTools, pickedTools));
            onClose();
          }}
        >
          Save
        </button>
      </div>
    </Dialog>
  );
}
