import { useId } from "react";
import { nativeMethodOfApi } from "../../core/compaction/native-method";
import type { CompactionMethodSetting, CompactionSettings } from "../../core/compaction/settings";
import { saveSettings } from "../../state/settings/settings-actions";
import { useSettingsStore } from "../../state/settings/settings-store";
import "./native-compaction.css";

const NATIVE_NAME = { openai: "OpenAI", anthropic: "Claude" } as const;

/**
 * Settings › Compaction › Compaction method (issue 10): per provider whose api has a native
 * compaction, "Grove summary" (default) or "Provider-native when available"; and the opt-in
 * server-side compaction for Claude. Grove's own summary is always made too, so switching the chat
 * to another provider never loses the compacted part.
 */
export function NativeCompactionSettings() {
  const settings = useSettingsStore((s) => s.settings);
  const c = settings.compaction;
  const hintId = useId();
  const save = (patch: Partial<CompactionSettings>) =>
    void saveSettings({ compaction: { ...useSettingsStore.getState().settings.compaction, ...patch } });
  const setMethod = (providerId: string, method: CompactionMethodSetting) => {
    const current = useSettingsStore.getState().settings.compaction.methods ?? {};
    save({ methods: { ...current, [providerId]: method } });
  };
  const providers = settings.providers.filter((p) => nativeMethodOfApi(p.api) !== null);
  if (providers.length === 0) return null;
  return (
    <fieldset className="field native-compaction">
      <legend>Compaction method</legend>
      {providers.map((p) => {
        const native = nativeMethodOfApi(p.api);
        return (
          <label key={p.id} className="method-row">
            <span>{p.name}</span>
            <select
              aria-label={`Compaction method for ${p.name}`}
              aria-describedby={hintId}
              value={c.methods?.[p.id] === "native" ? "native" : "grove"}
              onChange={(e) => setMethod(p.id, e.target.value === "native" ? "native" : "grove")}
            >
              <option value="grove">Grove summary</option>
              <option value="native">Provider-native when available</option>
            </select>
            {native !== null && <small className="muted">native: {NATIVE_NAME[native]}'s compaction</small>}
          </label>
        );
      })}
      <small id={hintId} className="muted">
        Provider-native: the provider compacts its own context, and that goes back to it only. Grove's summary is made
        as well, for any other model, and is used if the provider's compaction fails. Your earlier messages and the last
        reply's end are always kept word for word.
      </small>
      <label className="check">
        <input
          type="checkbox"
          checked={c.serverCompaction === true}
          onChange={(e) => save({ serverCompaction: e.target.checked })}
        />
        Let Claude compact on the server
      </label>
    </fieldset>
  );
}
