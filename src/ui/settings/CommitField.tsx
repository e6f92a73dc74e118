import { useEffect, useId, useRef, useState } from "react";

/**
 * A text field that edits locally and commits on blur, Enter (single line) or when the dialog
 * closes — so typing a key is not one settings write per keystroke.
 */
export function CommitField({
  label,
  value,
  onCommit,
  type = "text",
  multiline,
  placeholder,
  hint,
}: {
  label: string;
  value: string;
  onCommit: (value: string) => void;
  type?: "text" | "password" | "url" | "number";
  multiline?: boolean;
  placeholder?: string;
  hint?: string;
}) {
  const id = useId();
  const [local, setLocal] = useState(value);
  const latest = useRef({ local, value, onCommit });
  latest.current = { local, value, onCommit };
  useEffect(() => setLocal(value), [value]);
  useEffect(
    () => () => {
      const { local: l, value: v, onCommit: commit } = latest.current;
      if (l !== v) commit(l);
    },
    [],
  );
  const commit = () => local !== value && onCommit(local);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea
          id={id}
          rows={5}
          value={local}
          placeholder={placeholder}
          onChange={(e) => setLocal(e.target.value)}
          onBlur={commit}
        />
      ) : (
        <input
          id={id}
          type={type}
          value={local}
          placeholder={placeholder}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setLocal(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => e.key === "Enter" && commit()}
        />
      )}
      {hint && <small className="muted">{hint}</small>}
    </div>
  );
}
