import { useId } from "react";
import {
  type CompactionSettings as CompactionSettingsValue,
  keepRecentTokensFor,
  keptUserTurnsBudgetFor,
  thresholdFor,
} from "../../core/compaction/settings";
import { resolveModel } from "../../core/tokens/models";
import { decode, encode, modelIdsFor, useListedModels } from "../../state/models/model-choice";
import { saveSettings } from "../../state/settings/settings-actions";
import { useSettingsStore } from "../../state/settings/settings-store";
import { CommitField } from "./CommitField";
import { IdleCompactionSettings } from "./IdleCompactionSettings";
import { NativeCompactionSettings } from "./NativeCompactionSettings";
import { RemoteSummarizerSettings } from "./RemoteSummarizerSettings";
import { Advanced, SettingsSection } from "./SettingsSection";

const SAME_AS_CHAT = "";

/** The token fields, under "Advanced" (and what the settings search finds them by). */
const ADVANCED_TERMS = [
  "Reserve tokens",
  "Keep recent tokens",
  "Threshold tokens",
  "Threshold percent",
  "Kept user turn max tokens",
  "Kept user turns budget",
];
const COMPACTION_TERMS = [
  "Automatic compaction",
  "Compact above (tokens)",
  "cost",
  "Summary model",
  "native",
  "provider compaction",
  "remote summarizer",
  "context",
  ...ADVANCED_TERMS,
];

type CountKey =
  | "reserveTokens"
  | "keepRecentTokens"
  | "thresholdTokens"
  | "thresholdPercent"
  | "compactAboveTokens"
  | "keptUserTurnMaxTokens"
  | "keptUserTurnsBudget";

/** A whole, non-negative number from a field, or null when it is not one. */
function parseCount(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const n = Number(trimmed);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : null;
}

/**
 * Settings › Compaction (DESIGN §4): automatic compaction on/off, the budgets, the threshold (by
 * precedence: tokens > percent > window − max(15%, reserve)) and the summary model. The numbers the
 * current model gets from them are spelled out underneath.
 */
export function CompactionSettings() {
  const settings = useSettingsStore((s) => s.settings);
  const c = settings.compaction;
  const summaryId = useId();
  const listed = useListedModels(settings.providers);
  // Read the store at commit time: fields commit together when the dialog closes, and a render's
  // `c` would let the last one overwrite the others.
  const save = (patch: Partial<CompactionSettingsValue>) =>
    void saveSettings({ compaction: { ...useSettingsStore.getState().settings.compaction, ...patch } });
  const count =
    (key: CountKey, max = Number.POSITIVE_INFINITY) =>
    (text: string) => {
      const n = parseCount(text);
      if (n !== null) save({ [key]: Math.min(n, max) } as Partial<CompactionSettingsValue>);
    };

  const model = resolveModel(settings.defaultModel.modelId, settings.modelOverrides);
  const window = model.info.contextWindow;
  const threshold = thresholdFor(window, c);
  const capped = c.compactAboveTokens > 0 && threshold === c.compactAboveTokens;
  const thresholdSource = capped
    ? "from Compact above"
    : c.thresholdTokens > 0
      ? "from Threshold tokens"
      : c.thresholdPercent >= 1 && c.thresholdPercent <= 99
        ? "from Threshold percent"
        : "window − max(15%, reserve)";

  return (
    <SettingsSection name="Compaction" terms={COMPACTION_TERMS}>
      <p className="muted small">
        When a chat grows near the model's window, its older part is summarized for the model. Nothing is deleted: the
        full history stays readable. Manual compaction (the Compact button) always works.
      </p>
      <label className="check">
        <input type="checkbox" checked={c.enabled} onChange={(e) => save({ enabled: e.target.checked })} />
        Automatic compaction
      </label>
      <p className="muted small hint-under-check">
        At the threshold after a reply, before a send that would not fit, and when the provider says a request is too
        long (then that request is retried once).
      </p>
      <div className="field-row">
        <CommitField
          label="Compact above (tokens)"
          type="number"
          value={String(c.compactAboveTokens)}
          hint="0 = no cap. Compacts when the context passes this many tokens, whatever the model's window: a 1M-token window otherwise sends up to ~850k tokens with every message."
          onCommit={count("compactAboveTokens")}
        />
      </div>
      <IdleCompactionSettings />
      <NativeCompactionSettings />
      <Advanced terms={ADVANCED_TERMS}>
        <div className="field-row">
          <CommitField
            label="Reserve tokens"
            type="number"
            value={String(c.reserveTokens)}
            hint="Kept free for the reply; summaries may use 80% of it."
            onCommit={count("reserveTokens")}
          />
          <CommitField
            label="Keep recent tokens"
            type="number"
            value={String(c.keepRecentTokens)}
            hint="The newest part kept word for word (at most a quarter of the window)."
            onCommit={count("keepRecentTokens")}
          />
          <CommitField
            label="Threshold tokens"
            type="number"
            value={String(c.thresholdTokens)}
            hint="0 = unset. Takes precedence over the percent."
            onCommit={count("thresholdTokens")}
          />
          <CommitField
            label="Threshold percent"
            type="number"
            value={String(c.thresholdPercent)}
            hint="0 = unset; 1–99 % of the window. Without either: window − max(15%, reserve)."
            onCommit={count("thresholdPercent", 99)}
          />
          <CommitField
            label="Kept user turn max tokens"
            type="number"
            value={String(c.keptUserTurnMaxTokens)}
            hint="Your longer messages are summarized instead of kept word for word."
            onCommit={count("keptUserTurnMaxTokens")}
          />
          <CommitField
            label="Kept user turns budget"
            type="number"
            value={c.keptUserTurnsBudget === null ? "" : String(c.keptUserTurnsBudget)}
            placeholder="automatic"
            hint="Empty = min(15% of the window, 20,000). Oldest messages leave first."
            onCommit={(text) => {
              if (text.trim() === "") save({ keptUserTurnsBudget: null });
              else count("keptUserTurnsBudget")(text);
            }}
          />
        </div>
      </Advanced>
      <div className="field">
        <label htmlFor={summaryId}>Summary model</label>
        <select
          id={summaryId}
          value={settings.summaryModel ? encode(settings.summaryModel) : SAME_AS_CHAT}
          onChange={(e) => {
            const ref = e.target.value === SAME_AS_CHAT ? null : decode(e.target.value);
            void saveSettings({ summaryModel: ref });
          }}
        >
          <option value={SAME_AS_CHAT}>Same as chat</option>
          {settings.providers.map((p) => {
            const ids = modelIdsFor(p, listed[p.id] ?? []);
            const current = settings.summaryModel;
            if (current?.providerId === p.id && !ids.includes(current.modelId)) ids.unshift(current.modelId);
            return (
              <optgroup key={p.id} label={p.builtIn && !p.apiKey ? `${p.name} (no key)` : p.name}>
                {ids.map((id) => (
                  <option key={id} value={encode({ providerId: p.id, modelId: id })}>
                    {id}
                  </option>
                ))}
              </optgroup>
            );
          })}
        </select>
        <small className="muted">
          A cheaper model can write the summaries; if it can't be used, the chat's model does.
        </small>
      </div>
      <p className="small compaction-effective">
        For <strong>{model.info.id}</strong> ({window.toLocaleString()} tokens):{" "}
        {c.enabled ? (
          <>
            automatic compaction at <strong>{threshold.toLocaleString()}</strong> tokens ({thresholdSource})
          </>
        ) : (
          <>automatic compaction is off</>
        )}
        ; keeps the newest {keepRecentTokensFor(window, c).toLocaleString()} tokens and up to{" "}
        {keptUserTurnsBudgetFor(window, c).toLocaleString()} tokens of your earlier messages word for word.
      </p>
      <RemoteSummarizerSettings />
    </SettingsSection>
  );
}
