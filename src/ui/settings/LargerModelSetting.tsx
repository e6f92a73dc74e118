import { useId } from "react";
import type { ModelRef } from "../../core/session/entries";
import { decode, encode, modelIdsFor } from "../../state/models/model-choice";
import { saveSettings } from "../../state/settings/settings-actions";
import { useSettingsStore } from "../../state/settings/settings-store";

const NONE = "";

function saveLarger(modelId: string, ref: ModelRef | null): void {
  const { [modelId]: _was, ...rest } = useSettingsStore.getState().settings.largerModels;
  void saveSettings({ largerModels: ref ? { ...rest, [modelId]: ref } : rest });
}

/**
 * Settings › Models "Larger model" (context promotion, core/compaction/promotion.ts): the sibling a
 * chat on `modelId` moves to when its context is full, before Grove compacts it. Also lists the
 * siblings set for other models, each removable.
 */
export function LargerModelSetting({ modelId }: { modelId: string }) {
  const settings = useSettingsStore((s) => s.settings);
  const selectId = useId();
  const current = settings.largerModels[modelId];
  const others = Object.entries(settings.largerModels).filter(([id]) => id !== modelId);
  return (
    <div className="field larger-model">
      <label htmlFor={selectId}>Larger model</label>
      <select
        id={selectId}
        value={current ? encode(current) : NONE}
        onChange={(e) => saveLarger(modelId, e.target.value === NONE ? null : decode(e.target.value))}
      >
        <option value={NONE}>None: compact when full</option>
        {settings.providers.map((p) => (
          <optgroup key={p.id} label={p.name}>
            {modelIdsFor(p, [])
              .filter((id) => id !== modelId)
              .map((id) => (
                <option key={id} value={encode({ providerId: p.id, modelId: id })}>
                  {id}
                </option>
              ))}
          </optgroup>
        ))}
      </select>
      <small className="muted">
        When a chat on {modelId} is full (the threshold, a reply cut off by the output limit, a request too long), Grove
        first switches the chat to this model, with a notice you can undo, and compacts only when none is set or it is
        full too.
      </small>
      {others.length > 0 && (
        <ul className="larger-model-list" aria-label="Larger models of other models">
          {others.map(([id, ref]) => (
            <li key={id}>
              {id} → {ref.modelId}{" "}
              <button type="button" className="link-button" onClick={() => saveLarger(id, null)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
