/**
 * The saved-presets controls the chat setup dialogs share (system prompt, model options): a select
 * that applies a preset, and a row that saves the current form under a name or deletes that preset.
 * The dialogs own what a preset holds; this only lists, names and picks.
 */

type Named = { name: string };

/** "Choose a preset…" select; shown only when there are presets. Picking calls `onPick` once. */
export function PresetPicker<P extends Named>({
  label,
  presets,
  describe,
  onPick,
}: {
  label: string;
  presets: readonly P[];
  /** Shown in brackets after the name, when given. */
  describe?: (preset: P) => string;
  onPick: (preset: P) => void;
}) {
  if (presets.length === 0) return null;
  return (
    <label className="field">
      <span>{label}</span>
      <select
        value=""
        onChange={(e) => {
          const preset = presets.find((p) => p.name === e.target.value);
          if (preset) onPick(preset);
        }}
      >
        <option value="">Choose a preset…</option>
        {presets.map((p) => (
          <option key={p.name} value={p.name}>
            {describe ? `${p.name} (${describe(p)})` : p.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** "Preset name" + "Add to presets", and "Delete preset" when the name is a saved preset's. */
export function PresetSaveRow({
  presets,
  name,
  onNameChange,
  canSave,
  onSave,
  onDelete,
}: {
  presets: readonly Named[];
  name: string;
  onNameChange: (name: string) => void;
  /** Beyond a non-empty name (which is always required). */
  canSave: boolean;
  /** Called with the trimmed name. */
  onSave: (name: string) => void;
  onDelete: (name: string) => void;
}) {
  const trimmed = name.trim();
  return (
    <div className="preset-row">
      <input
        aria-label="Preset name"
        placeholder="Preset name"
        value={name}
        onChange={(e) => onNameChange(e.target.value)}
      />
      <button type="button" disabled={!trimmed || !canSave} onClick={() => onSave(trimmed)}>
        Add to presets
      </button>
      {presets.some((p) => p.name === trimmed) && (
        <button type="button" onClick={() => onDelete(trimmed)}>
          Delete preset
        </button>
      )}
    </div>
  );
}
