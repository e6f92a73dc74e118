import { plainHttpOrigin } from "../../core/net/plain-http";
import {
  remoteSummarizerOrigin,
  remoteSummarizerUrlProblem,
  unconfirmedTokenOrigin,
} from "../../providers/remote-summarizer";
import { saveSettings } from "../../state/settings/settings-actions";
import { useSettingsStore } from "../../state/settings/settings-store";
import { CommitField } from "./CommitField";

/**
 * Settings › Compaction: the remote summarizer (seed 002 `compaction.remoteEndpoint`). When a URL is
 * set, compaction and branch summaries are POSTed there as `{ systemPrompt, prompt }`; if it fails,
 * the model writes them and a notice says so. Its token is its own, never a provider key. A plain
 * http:// URL outside this machine is used only after the same confirmation as a provider's. The
 * token goes only to the origin it was entered for: a URL moved elsewhere asks before it follows.
 */
export function RemoteSummarizerSettings() {
  const remote = useSettingsStore((s) => s.settings.remoteSummarizer);
  // Read the store at commit time: both fields commit when the dialog closes.
  const save = (patch: Partial<typeof remote>) =>
    void saveSettings({ remoteSummarizer: { ...useSettingsStore.getState().settings.remoteSummarizer, ...patch } });
  const problem = remoteSummarizerUrlProblem(remote.url);
  const insecure = problem ? undefined : plainHttpOrigin(remote.url.trim());
  const moved = unconfirmedTokenOrigin(remote);

  return (
    <div className="remote-summarizer">
      <CommitField
        label="Remote summarizer URL"
        type="url"
        value={remote.url}
        placeholder="none: the summary model writes summaries"
        hint="Compaction and branch summaries are POSTed here as JSON { systemPrompt, prompt }; it answers { summary }. If it fails, the summary model is used and you are told."
        onCommit={(url) => save({ url: url.trim() })}
      />
      {problem && (
        <small className="field-problem" role="alert">
          {problem}
        </small>
      )}
      {insecure && (
        // The providers' rule (endpoint.ts), in this field's words: a token and a conversation, not a key.
        <div className="http-warning" role="note">
          <p>
            {insecure} is plain http:// to a host outside this machine: the conversations to summarize and the token
            would travel unencrypted. Until you confirm, the summary model writes summaries instead.
          </p>
          <label className="check">
            <input
              type="checkbox"
              checked={remote.plainHttpOrigin === insecure}
              onChange={(e) => save({ plainHttpOrigin: e.target.checked ? insecure : undefined })}
            />
            Send conversations and the token to {insecure} unencrypted
          </label>
        </div>
      )}
      {moved && (
        <div className="http-warning" role="note">
          <p>
            The token was given for {remote.tokenOrigin ?? "no address"}. It is not sent to {moved} until you confirm;
            meanwhile the summary model writes summaries.
          </p>
          <button type="button" onClick={() => save({ tokenOrigin: moved })}>
            Send the token to {moved}
          </button>
        </div>
      )}
      <CommitField
        label="Remote summarizer token"
        type="password"
        value={remote.token}
        placeholder="optional"
        hint="Sent as a bearer token to that URL only. Never a provider key."
        // A token is entered for the URL set now (read at commit: both fields commit on close).
        onCommit={(token) =>
          save({
            token: token.trim(),
            tokenOrigin: token.trim()
              ? remoteSummarizerOrigin(useSettingsStore.getState().settings.remoteSummarizer.url)
              : undefined,
          })
        }
      />
    </div>
  );
}
