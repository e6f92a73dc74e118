import { useState } from "react";
import type { SessionId } from "../../core/session/ids";
import { deleteSessions } from "../../state/sessions/session-list";
import { Dialog } from "../common/Dialog";

/**
 * The bar shown while chats are being selected: how many, select all, and "Delete selected" —
 * one confirmation for all of them.
 */
export function BulkDeleteBar({
  selected,
  all,
  onSelect,
  onDone,
}: {
  selected: ReadonlySet<SessionId>;
  /** The chats in view, for "Select all". */
  all: readonly SessionId[];
  onSelect: (ids: ReadonlySet<SessionId>) => void;
  onDone: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const n = selected.size;
  const allSelected = all.length > 0 && all.every((id) => selected.has(id));
  const chats = (k: number) => `${k.toLocaleString()} ${k === 1 ? "chat" : "chats"}`;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a toolbar of buttons, not a form fieldset
    <div className="bulk-bar" role="group" aria-label="Selected chats">
      <span className="bulk-count" aria-live="polite">
        {n === 0 ? "Select chats to delete" : `${chats(n)} selected`}
      </span>
      <button type="button" className="link-button" onClick={() => onSelect(allSelected ? new Set() : new Set(all))}>
        {allSelected ? "Select none" : "Select all"}
      </button>
      <button type="button" className="danger" disabled={n === 0} onClick={() => setConfirming(true)}>
        Delete selected
      </button>
      {confirming && (
        <Dialog title={`Delete ${chats(n)}?`} onClose={() => setConfirming(false)} closeOnBackdrop={!deleting}>
          <p>
            {n === 1 ? "This chat" : `These ${chats(n)}`}, with all {n === 1 ? "its" : "their"} branches, will be
            deleted from this browser. This cannot be undone.
          </p>
          <div className="dialog-actions">
            <button type="button" disabled={deleting} onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button
              type="button"
              className="danger"
              disabled={deleting}
              onClick={() => {
                setDeleting(true);
                void deleteSessions([...selected]).then((ok) => {
                  setDeleting(false);
                  setConfirming(false);
                  if (ok) onDone();
                });
              }}
            >
              Delete {chats(n)}
            </button>
          </div>
        </Dialog>
      )}
    </div>
  );
}
