import { useEffect, useRef } from "react";

/**
 * The running phase of a dialog whose model call streams text in (compaction, handoff, branch
 * summary): a status line with a spinner, the text so far, and Cancel with a note on what it does.
 */
export function ProgressBlock({
  status,
  text,
  textLabel,
  emptyText,
  cancelNote,
  onCancel,
}: {
  /** The status line (role=status), e.g. the phase. */
  status: string;
  /** What has streamed in so far; "" shows `emptyText`. */
  text: string;
  /** The accessible name of the streamed-text region. */
  textLabel: string;
  emptyText: string;
  cancelNote: string;
  onCancel: () => void;
}) {
  const streamRef = useRef<HTMLElement>(null);
  // Keep the newest part of the text in view as it streams in.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when the text grows
  useEffect(() => {
    const el = streamRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [text]);
  return (
    <div className="compact-progress">
      <div className="progress-line" role="status">
        <span className="spinner" aria-hidden="true" />
        <span>{status}</span>
      </div>
      <section ref={streamRef} className="summary-stream" aria-label={textLabel}>
        {text ? text : <span className="muted">{emptyText}</span>}
      </section>
      <div className="dialog-actions">
        <span className="muted small push-left">{cancelNote}</span>
        {/* Focused on mount: the form it replaces had the focus, and Esc (the dialog's key handler) must still cancel. */}
        <button type="button" autoFocus onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
