import { useState } from "react";
import { ANTHROPIC_DEFAULT_BASE_URL, OPENAI_DEFAULT_BASE_URL } from "../../providers/endpoint";
import type { ProviderConfig } from "../../providers/types";
import { chooseModel } from "../../state/sessions/sessions";
import { addCustomProvider, updateProvider } from "../../state/settings/settings-actions";
import type { Settings } from "../../state/settings/settings-model";
import { useSettingsStore } from "../../state/settings/settings-store";
import { type KeyTest, testKey } from "../../state/settings/test-key";
import "./first-run.css";

type Choice = "anthropic" | "openai" | "openrouter";

const CHOICES: Record<Choice, { label: string; keysAt: string; keysHost: string; baseUrl: string }> = {
  anthropic: {
    label: "Anthropic (Claude)",
    keysAt: "https://console.anthropic.com/settings/keys",
    keysHost: "console.anthropic.com",
    baseUrl: ANTHROPIC_DEFAULT_BASE_URL,
  },
  openai: {
    label: "OpenAI (GPT)",
    keysAt: "https://platform.openai.com/api-keys",
    keysHost: "platform.openai.com",
    baseUrl: OPENAI_DEFAULT_BASE_URL,
  },
  openrouter: {
    label: "OpenRouter (many models, one key)",
    keysAt: "https://openrouter.ai/keys",
    keysHost: "openrouter.ai",
    baseUrl: "https://openrouter.ai/api/v1",
  },
};

/** The model a fresh key starts with when the provider lists none Grove knows. */
const STARTER_MODEL: Record<Choice, string> = {
  anthropic: "claude-sonnet-5-5",
  openai: "gpt-5.5",
  openrouter: "openrouter/auto",
};

function providerFor(choice: Choice, settings: Settings, key: string, baseUrl: string): ProviderConfig {
  const builtIn = settings.providers.find((p) => p.id === choice);
  if (builtIn) return { ...builtIn, apiKey: key, baseUrl };
  return {
    id: "openrouter",
    name: "OpenRouter",
    api: "openai-chat",
    baseUrl,
    apiKey: key,
    customModels: [],
    builtIn: false,
  };
}

/**
 * First run (issue 12 item 1): which provider, its key, a "Test key" that makes one cheap request
 * (the model list) and says what it found, where keys come from, and that keys stay in this browser.
 */
export function FirstRunCard() {
  const settings = useSettingsStore((s) => s.settings);
  const [choice, setChoice] = useState<Choice>("anthropic");
  const [key, setKey] = useState("");
  const [baseUrl, setBaseUrl] = useState(() => settings.providers.find((p) => p.id === "anthropic")?.baseUrl ?? "");
  const [result, setResult] = useState<KeyTest | "testing" | null>(null);
  const info = CHOICES[choice];

  const pick = (next: Choice) => {
    setChoice(next);
    setResult(null);
    setBaseUrl(settings.providers.find((p) => p.id === next)?.baseUrl ?? CHOICES[next].baseUrl);
  };

  const runTest = async () => {
    setResult("testing");
    setResult(await testKey(providerFor(choice, settings, key.trim(), baseUrl.trim())));
  };

  const save = async () => {
    const trimmed = key.trim();
    const listed = result !== null && typeof result === "object" && result.kind === "ok" ? result.models : [];
    const starter = listed.includes(STARTER_MODEL[choice]) || listed.length === 0 ? STARTER_MODEL[choice] : listed[0];
    if (choice === "openrouter") {
      const id = await addCustomProvider({
        name: "OpenRouter",
        api: "openai-chat",
        baseUrl: baseUrl.trim(),
        apiKey: trimmed,
        customModels: [starter ?? STARTER_MODEL.openrouter],
      });
      await chooseModel(null, { providerId: id, modelId: starter ?? STARTER_MODEL.openrouter });
      return;
    }
    await updateProvider(choice, { apiKey: trimmed, baseUrl: baseUrl.trim() });
    if (settings.defaultModel.providerId !== choice)
      await chooseModel(null, { providerId: choice, modelId: starter ?? STARTER_MODEL[choice] });
  };

  return (
    <section className="first-run" aria-labelledby="first-run-title">
      <h2 id="first-run-title">Connect a model provider</h2>
      <p className="muted">
        Paste an API key to start. Grove sends it only to that provider; it is stored only in this browser.
      </p>
      <label className="field">
        <span>Provider</span>
        <select value={choice} onChange={(e) => pick(e.target.value as Choice)}>
          {(Object.keys(CHOICES) as Choice[]).map((c) => (
            <option key={c} value={c}>
              {CHOICES[c].label}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>API key</span>
        <input
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={key}
          placeholder="Paste your key"
          onChange={(e) => {
            setKey(e.target.value);
            setResult(null);
          }}
        />
      </label>
      <p className="small muted">
        Get a key at{" "}
        <a href={info.keysAt} target="_blank" rel="noreferrer">
          {info.keysHost}
        </a>
        .
      </p>
      <details className="first-run-address">
        <summary>Address (for a proxy or a local server)</summary>
        <label className="field">
          <span>Base URL</span>
          <input value={baseUrl} spellCheck={false} onChange={(e) => setBaseUrl(e.target.value)} />
        </label>
      </details>
      <div className="first-run-actions">
        <button type="button" disabled={!key.trim() || result === "testing"} onClick={() => void runTest()}>
          Test key
        </button>
        <button type="button" className="primary" disabled={!key.trim()} onClick={() => void save()}>
          Save key
        </button>
      </div>
      <p className="first-run-result" role="status">
        {resultText(result)}
      </p>
    </section>
  );
}

function resultText(result: KeyTest | "testing" | null): string {
  if (result === null) return "";
  if (result === "testing") return "Testing the key…";
  switch (result.kind) {
    case "ok": {
      const n = result.models.length;
      const some = result.models.slice(0, 3).join(", ");
      return n === 0
        ? "The key works. The provider listed no models."
        : `The key works: ${n} model${n === 1 ? "" : "s"} available (${some}${n > 3 ? ", …" : ""}).`;
    }
    case "rejected":
    case "unreachable":
      return result.message;
    case "failed":
      return `The key could not be checked. ${result.message}`;
  }
}
