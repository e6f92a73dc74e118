import "./prompt-settings.css";
import { useId, useState } from "react";
import {
  EDITABLE_PROMPTS,
  type EditablePrompt,
  isCustomized,
  promptLabel,
  resolvePrompt,
  withPromptReset,
  withPromptText,
} from "../../core/prompt-overrides";
import { saveSettings } from "../../state/settings/settings-actions";
import { useSettingsStore } from "../../state/settings/settings-store";

/** Placeholders without which a prompt would drop what it exists for (the conversation, the summary). */
const REQUIRED_VARS = new Set(["conversation", "previousSummary", "summary", "sources", "question", "answer"]);

function missingVars(prompt: EditablePrompt, text: string): string[] {
  return prompt.vars.filter((v) => REQUIRED_VARS.has(v) && !text.includes(`{{${v}}}`));
}

/**
 * Settings › Prompts: every shipped prompt Grove's maintenance sends (prompts/), editable and
 * resettable. A changed prompt is marked with its version; summaries record the version that wrote
 * them (core/prompt-overrides.ts).
 */
export function PromptSettings() {
  return (
    <section aria-labelledby="prompt-settings">
      <h3 id="prompt-settings">Prompts</h3>
      <p className="muted small">
        What Grove asks the summarizer for, and what Check memory asks. Placeholders like{" "}
        <code>{"{{conversation}}"}</code> are filled in when the prompt is sent. A changed prompt applies to summaries
        made from now on; each records the prompt version that wrote it.
      </p>
      {EDITABLE_PROMPTS.map((p) => (
        <PromptEditor key={p.id} prompt={p} />
      ))}
    </section>
  );
}

function PromptEditor({ prompt }: { prompt: EditablePrompt }) {
  const overrides = useSettingsStore((s) => s.settings.prompts);
  const current = resolvePrompt(prompt.id, overrides);
  const changed = isCustomized(prompt.id, overrides);
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const textId = useId();
  const text = draft ?? current;
  const dirty = draft !== null && draft !== current;

  const save = () => {
    const missing = missingVars(prompt, text);
    if (missing.length > 0) {
      setProblem(
        `Not saved: keep ${missing.map((v) => `{{${v}}}`).join(" and ")} in the prompt, or it loses the text it is about.`,
      );
      return;
    }
    setProblem(null);
    const latest = useSettingsStore.getState().settings.prompts;
    void saveSettings({ prompts: withPromptText(latest, prompt.id, text) });
    setDraft(null);
  };
  const reset = () => {
    setProblem(null);
    setDraft(null);
    void saveSettings({ prompts: withPromptReset(useSettingsStore.getState().settings.prompts, prompt.id) });
  };

  return (
    <details className="prompt-editor" aria-label={`${prompt.label} prompt`}>
      <summary>
        <span className="prompt-name">{prompt.label}</span>
        {changed ? (
          <span className="badge prompt-changed">changed · {promptLabel(prompt.id, overrides)}</span>
        ) : (
          <span className="muted small">default</span>
        )}
        <span className="muted small prompt-file">{prompt.file}</span>
      </summary>
      <p className="muted small">{prompt.description}</p>
      <label htmlFor={textId} className="sr-only">
        {prompt.label} prompt text
      </label>
      <textarea
        id={textId}
        className="prompt-text"
        rows={10}
        value={text}
        spellCheck={false}
        onChange={(e) => setDraft(e.target.value)}
      />
      {problem && (
        <small className="field-problem" role="alert">
          {problem}
        </small>
      )}
      <div className="prompt-actions">
        <button type="button" className="primary" disabled={!dirty} onClick={save}>
          Save
        </button>
        <button type="button" disabled={!changed && !dirty} onClick={reset} title="Restore the shipped prompt">
          Reset
        </button>
        {dirty && <span className="muted small">Unsaved changes</span>}
      </div>
    </details>
  );
}
