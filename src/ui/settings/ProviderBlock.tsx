import { type FocusEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { plainHttpOrigin } from "../../core/net/plain-http";
import { baseUrlProblem } from "../../providers/endpoint";
import type { ProviderConfig } from "../../providers/types";
import { reportUnsavedProvider } from "../../state/settings/settings-actions";
import "./settings.css";

/** What a provider block commits: the key and the host it goes to, always together. */
export type EndpointPatch = Pick<ProviderConfig, "apiKey" | "baseUrl" | "plainHttpOrigin">;

/**
 * A provider's API key and base URL, edited as one pair. A key goes only to the host the user
 * confirmed for it: nothing is committed (and so no model list is asked for) while the user is
 * still typing the pair. The pair is committed by Save, Enter, focus leaving the block, or the
 * dialog closing — never one field alone, so a key typed before its base URL is not first sent to
 * the old host. A plain http:// base URL to a non-local host is committed only once confirmed.
 */
export function ProviderBlock({
  provider,
  keyLabel,
  urlLabel,
  keyPlaceholder,
  urlHint,
  defaultBaseUrl,
  urlFirst,
  onCommit,
  children,
}: {
  provider: ProviderConfig;
  keyLabel: string;
  urlLabel: string;
  keyPlaceholder?: string;
  urlHint?: string;
  /** Built-in providers: an empty base URL means this one. */
  defaultBaseUrl?: string;
  /** Custom providers show the base URL first. */
  urlFirst?: boolean;
  onCommit: (patch: EndpointPatch) => void;
  children?: ReactNode;
}) {
  const keyId = useId();
  const urlId = useId();
  const [draftKey, setDraftKey] = useState(provider.apiKey);
  const [draftUrl, setDraftUrl] = useState(provider.baseUrl);
  const [confirmed, setConfirmed] = useState(false);
  useEffect(() => setDraftKey(provider.apiKey), [provider.apiKey]);
  useEffect(() => setDraftUrl(provider.baseUrl), [provider.baseUrl]);

  const baseUrl = draftUrl.trim() || defaultBaseUrl || "";
  const problem = baseUrlProblem(provider, draftUrl);
  const insecure = problem ? undefined : plainHttpOrigin(baseUrl);
  const needsConfirmation = insecure !== undefined && provider.plainHttpOrigin !== insecure && !confirmed;
  const patch: EndpointPatch = { apiKey: draftKey.trim(), baseUrl, plainHttpOrigin: insecure };
  const pairChanged = patch.apiKey !== provider.apiKey || patch.baseUrl !== provider.baseUrl;
  // A stored http:// URL confirmed only now (e.g. saved before confirmation existed) is a change too.
  const dirty = pairChanged || (insecure !== undefined && confirmed && provider.plainHttpOrigin !== insecure);
  const blocked = problem ?? (needsConfirmation ? `${insecure} needs your confirmation (plain http).` : undefined);

  // The last pair handed over, so blur-then-close does not commit it twice.
  const committed = useRef<string | null>(null);
  const latest = useRef<Latest>({ patch, dirty, pairChanged, blocked, onCommit, name: provider.name });
  latest.current = { patch, dirty, pairChanged, blocked, onCommit, name: provider.name };
  const commit = () => commitPair(latest.current, committed);
  useEffect(
    () => () => {
      const { pairChanged: changed, blocked: b, name } = latest.current;
      if (changed && b) reportUnsavedProvider(name, b);
      else commitPair(latest.current, committed);
    },
    [],
  );
  const onBlur = (e: FocusEvent<HTMLDivElement>) => {
    if (e.currentTarget.contains(e.relatedTarget as Node | null)) return;
    if (e.relatedTarget !== null) return commit();
    // Focus went nowhere in the page: a click on plain text — or the window lost focus, e.g. the
    // user went to copy the base URL after pasting the key. The latter is not leaving the field (the
    // old base URL would get the new key), and its blur fires before the document reports it.
    setTimeout(() => {
      if (document.hasFocus()) commit();
    }, 0);
  };
  const onEnter = (e: KeyboardEvent) => {
    if (e.key === "Enter") commit();
  };

  const keyField = (
    <div className="field">
      <label htmlFor={keyId}>{keyLabel}</label>
      <input
        id={keyId}
        type="password"
        value={draftKey}
        placeholder={keyPlaceholder}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => setDraftKey(e.target.value)}
        onKeyDown={onEnter}
      />
    </div>
  );
  const urlField = (
    <div className="field">
      <label htmlFor={urlId}>{urlLabel}</label>
      <input
        id={urlId}
        type="url"
        value={draftUrl}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={problem ? true : undefined}
        onChange={(e) => {
          setDraftUrl(e.target.value);
          setConfirmed(false);
        }}
        onKeyDown={onEnter}
      />
      {problem ? (
        <small className="field-problem" role="alert">
          {problem}
        </small>
      ) : (
        urlHint && <small className="muted">{urlHint}</small>
      )}
    </div>
  );

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: focus leaving the block commits the pair; the fields and Save are the controls
    <div className="provider-block" onBlur={onBlur}>
      {children}
      {urlFirst ? urlField : keyField}
      {urlFirst ? keyField : urlField}
      {insecure && (
        <PlainHttpWarning
          origin={insecure}
          confirmed={confirmed || provider.plainHttpOrigin === insecure}
          onConfirm={setConfirmed}
          locked={provider.plainHttpOrigin === insecure}
        />
      )}
      <div className="inline-action">
        <button type="button" disabled={!dirty || blocked !== undefined} onClick={commit}>
          Save {provider.name}
        </button>
        <span className="small muted">{destination(patch, blocked)}</span>
      </div>
    </div>
  );
}

type Latest = {
  patch: EndpointPatch;
  dirty: boolean;
  pairChanged: boolean;
  blocked: string | undefined;
  onCommit: (patch: EndpointPatch) => void;
  name: string;
};

/** Hands the pair over when it changed, can be used, and was not just handed over. */
function commitPair(latest: Latest, committed: { current: string | null }): void {
  const key = JSON.stringify(latest.patch);
  if (!latest.dirty || latest.blocked || committed.current === key) return;
  committed.current = key;
  latest.onCommit(latest.patch);
}

function destination(patch: EndpointPatch, blocked: string | undefined): string {
  if (blocked) return blocked;
  let host = patch.baseUrl;
  try {
    host = new URL(patch.baseUrl).host;
  } catch {
    // Shown as typed.
  }
  return patch.apiKey ? `The key is sent only to ${host}.` : `Requests go to ${host}, without a key.`;
}

/**
 * The warning for plain http:// to a host outside this machine: the key and every chat cross the
 * network unencrypted. The user must tick the box before such a base URL is saved or used.
 */
export function PlainHttpWarning({
  origin,
  confirmed,
  onConfirm,
  locked,
}: {
  origin: string;
  confirmed: boolean;
  onConfirm: (v: boolean) => void;
  /** Already confirmed and saved for this origin. */
  locked?: boolean;
}) {
  return (
    <div className="http-warning" role="note">
      <p>
        {origin} is plain http:// to a host outside this machine: the API key and your chats would travel unencrypted,
        readable by anyone on the network path. Use https:// if the server offers it.
      </p>
      <label className="check">
        <input type="checkbox" checked={confirmed} disabled={locked} onChange={(e) => onConfirm(e.target.checked)} />
        Send the key and chats to {origin} unencrypted
      </label>
    </div>
  );
}
