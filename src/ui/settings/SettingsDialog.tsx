import { useEffect, useState } from "react";
import { formatBytes } from "../../core/format-bytes";
import type { ApiKind } from "../../core/session/entries";
import { resolveModel } from "../../core/tokens/models";
import { baseUrlProblem, plainHttpOrigin } from "../../providers/endpoint";
import type { AnthropicEffort, ProviderConfig, ThinkingSetting } from "../../providers/types";
import { exportAllSessions } from "../../state/actions/export";
import {
  addCustomProvider,
  forgetModelLists,
  removeProvider,
  saveSettings,
  updateProvider,
} from "../../state/actions/settings";
import { readStorage, type StorageInfo } from "../../state/actions/storage";
import { ANTHROPIC_DEFAULT_BASE_URL, OPENAI_DEFAULT_BASE_URL } from "../../state/settings-model";
import { useSettingsStore, useUiStore } from "../../state/stores";
import { Dialog } from "../common/Dialog";
import { saveFile } from "../common/save-file";
import { API_TYPE_OPTIONS, apiTypeLabel, DEFAULT_CUSTOM_API } from "./api-types";
import { BranchSettings } from "./BranchSettings";
import { CommitField } from "./CommitField";
import { CompactionSettings } from "./CompactionSettings";
import { PlainHttpWarning, ProviderBlock } from "./ProviderBlock";
import { SyncSettings } from "./SyncSettings";

export function SettingsDialog() {
  const settings = useSettingsStore((s) => s.settings);
  const close = () => useUiStore.setState({ settingsOpen: false });
  const anthropic = settings.providers.find((p) => p.id === "anthropic");
  const openai = settings.providers.find((p) => p.id === "openai");
  const custom = settings.providers.filter((p) => !p.builtIn);
  const onProvider = (id: string, patch: Partial<ProviderConfig>) => {
    forgetModelLists();
    void updateProvider(id, patch);
  };

  return (
    <Dialog title="Settings" onClose={close} wide>
      <section>
        <h3>Providers</h3>
        <p className="muted small">
          Keys are stored only in this browser and sent only to the provider they belong to.
        </p>
        {anthropic && (
          <ProviderBlock
            provider={anthropic}
            keyLabel="Anthropic API key"
            keyPlaceholder="sk-ant-…"
            urlLabel="Anthropic base URL"
            urlHint={`Default ${ANTHROPIC_DEFAULT_BASE_URL} (no /v1). Use a proxy URL here if you have one.`}
            defaultBaseUrl={ANTHROPIC_DEFAULT_BASE_URL}
            onCommit={(patch) => onProvider("anthropic", patch)}
          >
            <h4>Anthropic</h4>
          </ProviderBlock>
        )}
        {openai && (
          <ProviderBlock
            provider={openai}
            keyLabel="OpenAI API key"
            keyPlaceholder="sk-…"
            urlLabel="OpenAI base URL"
            urlHint={`Default ${OPENAI_DEFAULT_BASE_URL}. OpenRouter: https://openrouter.ai/api/v1 · Ollama: http://localhost:11434/v1`}
            defaultBaseUrl={OPENAI_DEFAULT_BASE_URL}
            onCommit={(patch) => onProvider("openai", patch)}
          >
            <h4>OpenAI or compatible</h4>
          </ProviderBlock>
        )}
        {custom.map((p) => (
          <CustomProviderBlock key={p.id} provider={p} onChange={(patch) => onProvider(p.id, patch)} />
        ))}
        <AddProviderForm />
      </section>

      <section>
        <h3>Conversation</h3>
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
          Name new chats with the summary model
        </label>
        <p className="muted small hint-under-check">
          After a new chat's first reply, one short request to the summary model (Compaction settings; else the chat's
          own model) for a title. Off: the title is the first words of your message.
        </p>
      </section>

      <CompactionSettings />
      <BranchSettings />
      <section aria-labelledby="settings-sync-heading">
        <h3 id="settings-sync-heading">Sync</h3>
        <SyncSettings />
      </section>
      <ModelSettings />
      <StorageSection />
    </Dialog>
  );
}

function CustomProviderBlock({
  provider,
  onChange,
}: {
  provider: ProviderConfig;
  onChange: (p: Partial<ProviderConfig>) => void;
}) {
  return (
    <div className="custom-provider">
      <ProviderBlock
        provider={provider}
        urlLabel={`${provider.name} base URL`}
        keyLabel={`${provider.name} API key (optional)`}
        urlFirst
        onCommit={onChange}
      >
        <h4>
          {provider.name} <span className="muted small">({apiTypeLabel(provider.api)})</span>
        </h4>
      </ProviderBlock>
      <CommitField
        label={`${provider.name} model ids`}
        value={provider.customModels.join(", ")}
        hint="Comma-separated, e.g. llama3.2, qwen2.5-coder"
        onCommit={(v) => onChange({ customModels: splitIds(v) })}
      />
      <button type="button" className="danger subtle" onClick={() => void removeProvider(provider.id)}>
        Remove {provider.name}
      </button>
    </div>
  );
}

function splitIds(v: string): string[] {
  return [
    ...new Set(
      v
        .split(/[,\n]/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

function AddProviderForm() {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [api, setApi] = useState<ApiKind>(DEFAULT_CUSTOM_API);
  const [baseUrl, setBaseUrl] = useState("http://localhost:11434/v1");
  const [apiKey, setApiKey] = useState("");
  const [models, setModels] = useState("");
  const [httpConfirmed, setHttpConfirmed] = useState(false);
  const problem = baseUrlProblem({ builtIn: false, name: name.trim() || "A provider" }, baseUrl);
  const insecure = problem ? undefined : plainHttpOrigin(baseUrl);
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)}>
        Add a provider
      </button>
    );
  }
  return (
    <form
      className="provider-block add-provider"
      onSubmit={(e) => {
        e.preventDefault();
        if (!name.trim() || problem || (insecure && !httpConfirmed)) return;
        void addCustomProvider({
          name: name.trim(),
          api,
          baseUrl: baseUrl.trim(),
          ...(insecure ? { plainHttpOrigin: insecure } : {}),
          apiKey: apiKey.trim(),
          customModels: splitIds(models),
        });
        setOpen(false);
        setName("");
        setModels("");
        setApiKey("");
      }}
    >
      <h4>New provider</h4>
      <label className="field">
        <span>Provider name</span>
        <input value={name} placeholder="Ollama, LM Studio, OpenRouter…" onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="field">
        <span>API type</span>
        <select value={api} onChange={(e) => setApi(e.target.value as ApiKind)}>
          {API_TYPE_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Base URL</span>
        <input
          value={baseUrl}
          aria-invalid={problem ? true : undefined}
          onChange={(e) => {
            setBaseUrl(e.target.value);
            setHttpConfirmed(false);
          }}
        />
        {problem && (
          <small className="field-problem" role="alert">
            {problem}
          </small>
        )}
      </label>
      {insecure && <PlainHttpWarning origin={insecure} confirmed={httpConfirmed} onConfirm={setHttpConfirmed} />}
      <label className="field">
        <span>API key (optional)</span>
        <input type="password" value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
      </label>
      <label className="field">
        <span>Model ids</span>
        <input value={models} placeholder="llama3.2, qwen2.5-coder" onChange={(e) => setModels(e.target.value)} />
      </label>
      <div className="row-actions">
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
        <button
          type="submit"
          className="primary"
          disabled={Boolean(problem) || (insecure !== undefined && !httpConfirmed)}
        >
          Add provider
        </button>
      </div>
    </form>
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
    <section>
      <h3>Model: {modelId}</h3>
      <p className="muted small">
        {resolved.known
          ? `Context window ${resolved.info.contextWindow.toLocaleString()} tokens, up to ${resolved.info.maxOutput.toLocaleString()} output tokens (as of ${resolved.info.asOf}).`
          : `Unknown model: a ${resolved.info.contextWindow.toLocaleString()}-token window is assumed. Set the real one below.`}
      </p>
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
      {support !== "none" && (
        <ThinkingControl support={support} value={thinking} onChange={(t) => save({ thinking: t })} />
      )}
    </section>
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

function StorageSection() {
  const [estimate, setEstimate] = useState<StorageInfo | null>(null);
  useEffect(() => {
    void readStorage().then(setEstimate);
  }, []);
  return (
    <section>
      <h3>Storage</h3>
      {estimate ? (
        <p className="small">
          Grove uses {formatBytes(estimate.usage)} of {formatBytes(estimate.quota)} available in this browser
          {estimate.persisted
            ? " (persistent: the browser will not evict it)."
            : ". Storage is not marked persistent: the browser may evict it under pressure — export important chats."}
        </p>
      ) : (
        <p className="small muted">Storage usage is not available in this browser.</p>
      )}
      <div className="inline-action">
        <button
          type="button"
          title="Every chat, with all its branches, in one Grove JSON file (no API keys or settings)"
          onClick={() => void exportAllSessions().then((file) => file && saveFile(file))}
        >
          Export all
        </button>
        <span className="small muted">
          Every chat in one Grove JSON file; API keys and settings are never exported.
        </span>
      </div>
    </section>
  );
}
