import { type FormEvent, useState } from "react";
import { plainHttpOrigin } from "../../core/net/plain-http";
import { cancelSync, connect, disconnect, syncNow } from "../../state/sync/sync-actions";
import { syncStatusText } from "../../state/sync/sync-status-text";

import { useSyncStore } from "../../state/sync/sync-store";
import "./settings.css";
import "./sync-settings.css";

/**
 * Settings › Sync: connect this browser to the user's CouchDB (or any server speaking its
 * replication protocol). Everything is encrypted here with a key from the sync passphrase; the
 * passphrase is never stored or sent. The password is kept like an API key, and goes in clear to a
 * plain http:// server outside this machine only once the user ticks the box (core/net/plain-http.ts,
 * the rule of provider keys). Connecting can be cancelled; Disconnect keeps every chat on this device.
 */
export function SyncSettings() {
  const { status, connected, problem, busy } = useSyncStore();
  const [url, setUrl] = useState("");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [passphrase, setPassphrase] = useState("");
  const [confirmedOrigin, setConfirmedOrigin] = useState<string | undefined>(undefined);

  // The password (and username) would travel in clear to this origin: sent only once confirmed.
  const insecure = username.trim() !== "" || password !== "" ? plainHttpOrigin(url) : undefined;
  const confirmed = insecure !== undefined && confirmedOrigin === insecure;
  const working = status.kind === "connecting" || status.kind === "progress";

  const onConnect = async (event: FormEvent) => {
    event.preventDefault();
    const config = { url: url.trim(), username: username.trim(), password };
    if (await connect(confirmed ? { ...config, plainHttpOrigin: insecure } : config, passphrase)) {
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
          aria-describedby="sync-password-kept"
        />
      </label>
      <p className="hint" id="sync-password-kept">
        The password is kept in this browser's storage, like your API keys: sent only to this server, never exported,
        synced or shown in an error.
      </p>
      {connected === undefined && insecure !== undefined && (
        <div className="http-warning" role="note">
          <p>
            {insecure} is plain http:// to a host outside this machine: the username and password would travel
            unencrypted, readable by anyone on the network path (your chats stay encrypted). Use https:// if the server
            offers it.
          </p>
          <label className="check">
            <input
              type="checkbox"
              checked={confirmed}
              onChange={(e) => setConfirmedOrigin(e.target.checked ? insecure : undefined)}
            />
            Send the password to {insecure} unencrypted
          </label>
        </div>
      )}
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
          <>
            <button
              type="submit"
              disabled={busy || url.trim() === "" || passphrase === "" || (insecure !== undefined && !confirmed)}
            >
              Connect
            </button>
            {busy && status.kind === "connecting" && (
              <button type="button" onClick={cancelSync}>
                Cancel
              </button>
            )}
          </>
        ) : (
          <>
            <button type="button" onClick={syncNow} disabled={busy}>
              Sync now
            </button>
            {working && (
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
