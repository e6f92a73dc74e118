import type { CompactionSettings } from "../../core/compaction/settings";
import { saveSettings } from "../../state/settings/settings-actions";
import { useSettingsStore } from "../../state/settings/settings-store";
import { CommitField } from "./CommitField";

const whole = (text: string): number | null => {
  const n = Number(text.trim());
  return text.trim() !== "" && Number.isFinite(n) && n > 0 ? Math.floor(n) : null;
};

/**
 * Settings › Compaction "Compact idle chats" (seed 002 idle compaction, off by default): a chat
 * idle this long with a context this large is compacted in the background; nothing is sent after.
 */
export function IdleCompactionSettings() {
  const c = useSettingsStore((s) => s.settings.compaction);
  const save = (patch: Partial<CompactionSettings>) =>
    void saveSettings({ compaction: { ...useSettingsStore.getState().settings.compaction, ...patch } });
  return (
    <div className="idle-compaction">
      <label className="check">
        <input type="checkbox" checked={c.idleEnabled} onChange={(e) => save({ idleEnabled: e.target.checked })} />
        Compact idle chats
      </label>
      <p className="muted small hint-under-check">
        After a chat has had no reply for a while, compact it in the background if its context is large, so the next
        message is cheaper (the provider's prompt cache has expired by then anyway). Nothing is sent afterwards.
      </p>
      {c.idleEnabled && (
        <div className="field-row">
          <CommitField
            label="Idle after (seconds)"
            type="number"
            value={String(c.idleTimeoutSeconds)}
            onCommit={(v) => {
              const n = whole(v);
              if (n !== null) save({ idleTimeoutSeconds: n });
            }}
          />
          <CommitField
            label="Idle threshold (tokens)"
            type="number"
            value={String(c.idleThresholdTokens)}
            onCommit={(v) => {
              const n = whole(v);
              if (n !== null) save({ idleThresholdTokens: n });
            }}
          />
        </div>
      )}
    </div>
  );
}
