import { type FormEvent, useState } from "react";
import { cancelSync, connect, disconnect, syncNow } from "../../state/sync/sync-actions";
import { syncStatusText } from "../../state/sync/sync-status-text";

import { useSyncStore } from "../../state/sync/sync-store";
import "./sync-settings.css";

/**
 * Settings › Sync: connect this browser to the user's CouchDB (or any server speaking its
 * replication protocol). Everything is encrypted here with a key from the sync passphrase; the
 * passphrase is never stored or sent. Disconnect keeps every chat on this device.
 */
export function SyncSettings() {
  const { status, connected, problem, busy } = useSyncStore();
  const [url, setUrl] = useState("");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [passphrase, setPassphrase] = useState("");

  const onConnect = async (event: FormEvent) => {
    event.preventDefault();
    if (await connect({ url: url.trim(), username: username.trim(), password }, passphrase)) {
      setPassword("");
      setPassphrase("");
    }
  };

  return (
    <form className="sync-settings" onSubmit={onConnect}>
      <p className="hint">
        Keep your chats in step across browsers through your own CouchDB server. Everything is encrypted in this browser
        first: the server sees only opaque ids and sizes. Settings and API keys never leave this device.
      </p>
      <label>
        Server URL
        <input
          type="url"
          value={connected?.url ?? url}
          disabled={connected !== undefined}
          placeholder="https://couch.example.com/grove"
          onChange={(e) => setUrl(e.target.value)}
        />
      </label>
      <label>
        Username
        <input
          type="text"
          autoComplete="username"
          value={connected?.username ?? username}
          disabled={connected !== undefined}
          onChange={(e) => setUsername(e.target.value)}
        />
      </label>
      <label>
        Password
        <input
          type="password"
          autoComplete="current-password"
          value={connected ? "" : password}
          disabled={connected !== undefined}
          placeholder={connected?.hasPassword ? "saved on this device" : connected ? "none" : ""}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <label>
        Sync passphrase
        <input
          type="password"
          autoComplete="off"
          value={passphrase}
          disabled={connected !== undefined}
          placeholder={connected ? "kept only as a key on this device" : "the same on every device"}
          onChange={(e) => setPassphrase(e.target.value)}
        />
      </label>
      <div className="row">
        {connected === undefined ? (
          <button type="submit" disabled={busy || url.trim() === "" || passphrase === ""}>
            Connect
          </button>
        ) : (
          <>
            <button type="button" onClick={syncNow} disabled={busy}>
              Sync now
            </button>
            {status.kind === "progress" && (
              <button type="button" onClick={cancelSync}>
                Cancel
              </button>
            )}
            <button type="button" onClick={() => void disconnect()} disabled={busy}>
              Disconnect
            </button>
          </>
        )}
      </div>
      {problem && (
        <p className="field-problem" role="alert">
          {problem}
        </p>
      )}
      <p role="status" className="sync-status">
        {syncStatusText(status)}
      </p>
    </form>
  );
}
