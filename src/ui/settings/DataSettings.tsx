import { useEffect, useState } from "react";
import { formatBytes } from "../../core/format-bytes";
import { deleteAllData } from "../../state/data/delete-all";
import { readStorage, type StorageInfo } from "../../state/data/storage";
import { exportAllSessions } from "../../state/transfer/export";
import { Dialog } from "../common/Dialog";
import { saveFile } from "../common/save-file";
import { SettingsSection } from "./SettingsSection";

const TERMS = ["Storage", "Export all", "Delete all data", "backup", "erase", "reset", "quota", "persistent"];

/** Settings › Data: how much this browser holds, Export all, and Delete all data. */
export function DataSettings() {
  const [estimate, setEstimate] = useState<StorageInfo | null>(null);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    void readStorage().then(setEstimate);
  }, []);
  return (
    <SettingsSection name="Data" terms={TERMS}>
      {estimate ? (
        <p className="small">
          Grove uses {formatBytes(estimate.usage)} of {formatBytes(estimate.quota)} available in this browser
          {estimate.persisted
            ? " (persistent: the browser will not evict it)."
            : ". Storage is not marked persistent: the browser may evict it under pressure — export important chats."}
        </p>
      ) : (
        <p className="small muted">Storage usage is not available in this browser.</p>
      )}
      <div className="inline-action">
        <button
          type="button"
          title="Every chat, with all its branches, in one Grove JSON file (no API keys or settings)"
          onClick={() => void exportAllSessions().then((file) => file && saveFile(file))}
        >
          Export all
        </button>
        <span className="small muted">
          Every chat in one Grove JSON file; API keys and settings are never exported.
        </span>
      </div>
      <div className="inline-action">
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          Delete all data
        </button>
        <span className="small muted">Every chat, setting and API key in this browser. Grove starts fresh.</span>
      </div>
      {confirming && <DeleteAllDialog onClose={() => setConfirming(false)} />}
    </SettingsSection>
  );
}

function DeleteAllDialog({ onClose }: { onClose: () => void }) {
  const [deleting, setDeleting] = useState(false);
  return (
    <Dialog title="Delete all data?" onClose={onClose} closeOnBackdrop={!deleting}>
      <p>
        This deletes every chat with all its branches, your settings and your API keys from this browser. It cannot be
        undone. Use <strong>Export all</strong> first to keep a copy of your chats.
      </p>
      <div className="dialog-actions">
        <button type="button" disabled={deleting} onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="danger"
          disabled={deleting}
          onClick={() => {
            setDeleting(true);
            void deleteAllData().then((done) => {
              // A fresh app: no open chat in the address either.
              if (done) window.location.replace(window.location.pathname);
              else setDeleting(false);
            });
          }}
        >
          {deleting ? "Deleting…" : "Delete everything"}
        </button>
      </div>
    </Dialog>
  );
}
