/**
 * The handshake, before anything changes on this device (issue 24 item 8): the server must answer
 * as a CouchDB database, its salt document must ask for the app's key derivation (crypto.ts
 * readKdfParams) and its check document must open with the keys. A connect derives the keys from
 * the passphrase (creating both documents on an empty server); every run starts by checking that
 * the server still holds the check document the stored keys open, so a server that answers a web
 * page to everything, was reset, or now holds another passphrase's data gets nothing and changes
 * nothing here. Each attempt is bounded in time and can be cancelled (`attempt`).
 */
import type PouchDB from "pouchdb-browser";
import type { PouchDoc } from "pouchdb-browser";
import { z } from "zod";
import {
  CHECK_DOC_ID,
  deriveKeys,
  type Envelope,
  isEnvelope,
  keysMatch,
  newSaltDoc,
  readKdfParams,
  SALT_DOC_ID,
  type SyncKeys,
  sealCheck,
} from "./crypto";
import { describeServerError, getOrCreate, type ServerFailure, serverFailure } from "./remote";
import type { SyncConfig } from "./sync-meta";

/** How long a connect's (or a run's) handshake may take before it ends with a message (ms). */
export const HANDSHAKE_TIMEOUT_MS = 30_000;

export type HandshakeFailure = { ok: false; failure: ServerFailure; message: string };
export type Handshake<T> = ({ ok: true } & T) | HandshakeFailure;

type Remote = Pick<PouchDB, "info" | "get" | "put">;

const UNCHANGED = "Nothing was changed on this device.";

/** A database's info as CouchDB (and PouchDB Server) give it: anything else is not one. */
const dbInfo = z.object({ db_name: z.string(), doc_count: z.number() });

/**
 * CouchDB's error body. With `skip_setup` (a username) PouchDB's `info()` hands it on as if it were
 * the database's info, its status dropped: the status is read back from the error's name.
 */
const couchError = z.object({ error: z.string(), reason: z.string().optional() });
const ERROR_STATUS: Readonly<Record<string, number>> = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  unknown_error: 500,
};

/** The server's info is a database's, or the handshake ends: its error thrown (said like any), or not a database. */
async function checkInfo(remote: Remote, dbUrl: string): Promise<HandshakeFailure | undefined> {
  const info = await remote.info();
  if (dbInfo.safeParse(info).success) return undefined;
  const error = couchError.safeParse(info);
  if (error.success) {
    throw Object.assign(new Error(error.data.reason ?? error.data.error), { status: ERROR_STATUS[error.data.error] });
  }
  return notADatabase(dbUrl);
}

const refused = (message: string): HandshakeFailure => ({ ok: false, failure: "refused", message });

const notADatabase = (dbUrl: string) =>
  refused(
    `The server at ${dbUrl} does not answer as a CouchDB database. Check the server URL. Nothing was changed on this device.`,
  );

/** Connect: the keys the passphrase gives for this server, once the server and the passphrase are checked. */
export async function connectHandshake(
  remote: Remote,
  passphrase: string,
  dbUrl: string,
  config: SyncConfig,
): Promise<Handshake<{ keys: SyncKeys }>> {
  try {
    const notReady = await checkInfo(remote, dbUrl);
    if (notReady) return notReady;
    const salt = await getOrCreate<PouchDoc>(remote as PouchDB, SALT_DOC_ID, () => newSaltDoc());
    const kdf = readKdfParams(salt);
    if (!kdf.ok) return refused(kdf.message);
    const keys = await deriveKeys(passphrase, kdf.params);
    const check = await getOrCreate<PouchDoc>(remote as PouchDB, CHECK_DOC_ID, async () => ({
      ...(await sealCheck(keys)),
    }));
    if (!isEnvelope(check)) return notADatabase(dbUrl);
    if (!(await keysMatch(keys, check as Envelope))) {
      return refused(`Wrong sync passphrase: the data on this server was encrypted with a different one. ${UNCHANGED}`);
    }
    return { ok: true, keys };
  } catch (e) {
    return { ok: false, failure: serverFailure(e), message: withUnchanged(describeServerError(e, dbUrl, config)) };
  }
}

/** A run's start: the server still holds the check document that `keys` open. */
export async function resumeHandshake(
  remote: Remote,
  keys: SyncKeys,
  dbUrl: string,
  config: SyncConfig,
): Promise<Handshake<object>> {
  try {
    const notReady = await checkInfo(remote, dbUrl);
    if (notReady) return notReady;
    let check: unknown;
    try {
      check = await remote.get(CHECK_DOC_ID);
    } catch (e) {
      if ((e as { status?: unknown }).status !== 404) throw e;
      return refused(
        `The server at ${dbUrl} no longer holds this sync's data (it was emptied or replaced): disconnect, then connect again. ${UNCHANGED}`,
      );
    }
    if (!isEnvelope(check)) return notADatabase(dbUrl);
    if (!(await keysMatch(keys, check))) {
      return refused(
        `The data on the server at ${dbUrl} is now encrypted with another passphrase: disconnect, then connect with that passphrase. ${UNCHANGED}`,
      );
    }
    return { ok: true };
  } catch (e) {
    return { ok: false, failure: serverFailure(e), message: describeServerError(e, dbUrl, config) };
  }
}

function withUnchanged(message: string): string {
  return message.endsWith(UNCHANGED) ? message : `${message} ${UNCHANGED}`;
}

type Attempt<T> = { kind: "done"; value: T } | { kind: "timeout" } | { kind: "cancelled" };

/**
 * Runs `work` until it ends, `cancel` aborts or `timeoutMs` passes, whichever comes first. The signal
 * `work` gets aborts in the last two cases, so its requests stop as well; its late result is dropped.
 */
export async function attempt<T>(
  work: (signal: AbortSignal) => Promise<T>,
  cancel: AbortSignal,
  timeoutMs: number,
): Promise<Attempt<T>> {
  const controller = new AbortController();
  let ended: Attempt<T> | undefined;
  let wake: () => void = () => {};
  const aborted = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const end = (outcome: Attempt<T>) => {
    if (ended) return;
    ended = outcome;
    controller.abort(outcome.kind);
    wake();
  };
  const onCancel = () => end({ kind: "cancelled" });
  if (cancel.aborted) onCancel();
  else cancel.addEventListener("abort", onCancel, { once: true });
  const timer = setTimeout(() => end({ kind: "timeout" }), timeoutMs);
  try {
    const work$ = ended ? undefined : work(controller.signal);
    if (work$) {
      work$.catch(() => {}); // a result after the end is dropped, its failure too
      const value = await Promise.race([work$, aborted.then(() => undefined)]);
      if (!ended) ended = { kind: "done", value: value as T };
    }
    return ended ?? { kind: "cancelled" };
  } finally {
    clearTimeout(timer);
    cancel.removeEventListener("abort", onCancel);
  }
}
