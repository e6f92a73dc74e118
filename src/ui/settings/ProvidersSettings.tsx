import { useState } from "react";
import { plainHttpOrigin } from "../../core/net/plain-http";
import type { ApiKind } from "../../core/session/entries";
import { ANTHROPIC_DEFAULT_BASE_URL, baseUrlProblem, OPENAI_DEFAULT_BASE_URL } from "../../providers/endpoint";
import type { ProviderConfig } from "../../providers/types";
import {
  addCustomProvider,
  forgetModelLists,
  removeProvider,
  updateProvider,
} from "../../state/settings/settings-actions";
import { useSettingsStore } from "../../state/settings/settings-store";
import { API_TYPE_OPTIONS, apiTypeLabel, DEFAULT_CUSTOM_API } from "./api-types";
import { CommitField } from "./CommitField";
import { PlainHttpWarning, ProviderBlock } from "./ProviderBlock";
import { SettingsSection } from "./SettingsSection";

const TERMS = [
  "API key",
  "Anthropic",
  "OpenAI",
  "base URL",
  "proxy",
  "OpenRouter",
  "Ollama",
  "LM Studio",
  "Add a provider",
  "API type",
  "model ids",
  "compatible",
];

/** Settings › Providers: the built-in providers' keys and base URLs, and providers the user adds. */
export function ProvidersSettings() {
  const settings = useSettingsStore((s) => s.settings);
  const anthropic = settings.providers.find((p) => p.id === "anthropic");
  const openai = settings.providers.find((p) => p.id === "openai");
  const custom = settings.providers.filter((p) => !p.builtIn);
  const onProvider = (id: string, patch: Partial<ProviderConfig>) => {
    forgetModelLists();
    void updateProvider(id, patch);
  };
  return (
    <SettingsSection name="Providers" terms={TERMS}>
      <p className="muted small">Keys are stored only in this browser and sent only to the provider they belong to.</p>
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
    </SettingsSection>
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
