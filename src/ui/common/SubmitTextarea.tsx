/**
 * A labelled text area in a dialog form where Ctrl/⌘+Enter submits, since plain Enter has to stay
 * a newline. Renders `<label class="field"><span>label</span><textarea/>[hint]</label>`.
 */
export function SubmitTextarea({
  label,
  value,
  onChange,
  onSubmit,
  rows,
  placeholder,
  autoFocus,
  hint,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Called on Ctrl/⌘+Enter; the key press is swallowed so no newline is typed. */
  onSubmit: () => void;
  rows: number;
  placeholder?: string;
  autoFocus?: boolean;
  hint?: string;
}) {
  return (
    <label className="field">
      <span>{label}</span>
      <textarea
        rows={rows}
        value={value}
        autoFocus={autoFocus}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) {
            e.preventDefault();
            onSubmit();
          }
        }}
      />
      {hint && <small className="muted">{hint}</small>}
    </label>
  );
}
