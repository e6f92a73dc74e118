/**
 * The user's server (a CouchDB-protocol database): the database URL for what the user typed,
 * opening it (every request bounded in time and stopped with its run), creating a document only
 * when it is missing, whether the password may be sent to it, and its failures in the user's words
 * (the password redacted, like an API key in a provider's error).
 */
import PouchDB, { type PouchDoc } from "pouchdb-browser";
import { plainHttpOrigin } from "../../core/net/plain-http";
import { redactSecrets } from "../../core/net/redact";
import type { SyncConfig } from "./sync-meta";

/** The database URL for what the user typed: a server URL alone means its `grove` database. */
export function databaseUrl(url: string): string {
  const parsed = new URL(url.trim());
  if (parsed.pathname === "/" || parsed.pathname === "") parsed.pathname = "/grove";
  return parsed.toString().replace(/\/$/, "");
}

/** What is wrong with the server URL typed, in words; undefined when it can be used. */
export function serverUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return "The server URL is not a valid address (e.g. https://couch.example.com/grove).";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    return "The server URL must start with https:// (or http:// on this machine).";
  }
  // In the URL, the password would be shown, stored and quoted in every error with the address.
  if (parsed.username || parsed.password) {
    return "Put the username and password in their own fields, not in the server URL.";
  }
  return undefined;
}

/**
 * Why the password may not be sent to `dbUrl` yet (the rule of provider keys, core/net/plain-http.ts):
 * plain http:// to a host outside this machine needs the user's confirmation of that origin.
 */
export function passwordProblem(config: SyncConfig, dbUrl: string): string | undefined {
  if (!config.username && !config.password) return undefined;
  const insecure = plainHttpOrigin(dbUrl);
  if (!insecure || config.plainHttpOrigin === insecure) return undefined;
  return `${insecure} is plain http:// to a host outside this machine: the sync password would travel unencrypted. Confirm it in Settings › Sync, or use https://. Nothing was sent.`;
}

/** The document `id`, made by `make` when the server has none (another device's, if it made one at the same moment). */
export async function getOrCreate<T extends PouchDoc>(db: PouchDB, id: string, make: () => Promise<T> | T): Promise<T> {
  try {
    return (await db.get(id)) as T;
  } catch (e) {
    if ((e as { status?: number }).status !== 404) throw e;
  }
  try {
    await db.put(await make());
  } catch (e) {
    // Another device created it at the same moment: use theirs.
    if ((e as { status?: number }).status !== 409) throw e;
  }
  return (await db.get(id)) as T;
}

/** A request that got no answer in time: its message is the sentence the user reads. */
export class ServerTimeout extends Error {
  constructor(dbUrl: string, ms: number) {
    super(`The sync server at ${dbUrl} did not answer within ${Math.round(ms / 1000)} seconds.`);
    this.name = "TimeoutError";
  }
}

const MAX_SERVER_WORDS = 300;
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);
/** Long-poll change feeds stay open while nothing changes (heartbeats): only their answer is timed. */
const isFeed = (url: string) => /[?&]feed=(longpoll|continuous)/.test(url);

/**
 * `fetch` for one server: every request ends when `stop` aborts (a run stopped, a connect cancelled)
 * and when no answer (for a change feed: no headers) came within `timeoutMs`, so no phase can hang.
 * The body is read here, under the same bounds, so a server that stalls mid-answer is caught too.
 */
export function boundedFetch(stop: AbortSignal, timeoutMs: number, dbUrl: string): typeof fetch {
  return async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const controller = new AbortController();
    const sources = [stop, init?.signal].filter((s): s is AbortSignal => s instanceof AbortSignal);
    const forward = (source: AbortSignal) => () => controller.abort(source.reason);
    const listeners = sources.map((source) => {
      const listener = forward(source);
      if (source.aborted) listener();
      else source.addEventListener("abort", listener, { once: true });
      return () => source.removeEventListener("abort", listener);
    });
    const timer = setTimeout(() => controller.abort(new ServerTimeout(dbUrl, timeoutMs)), timeoutMs);
    try {
      controller.signal.throwIfAborted();
      const response = await fetch(input, { ...init, signal: controller.signal });
      if (isFeed(url)) clearTimeout(timer);
      const body = NULL_BODY_STATUS.has(response.status) ? null : await response.arrayBuffer();
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (e) {
      // The reason (our timeout, a stop) rather than the browser's bare "signal is aborted".
      throw controller.signal.aborted && controller.signal.reason instanceof Error ? controller.signal.reason : e;
    } finally {
      clearTimeout(timer);
      for (const unlink of listeners) unlink();
    }
  };
}

/**
 * The server's database, its requests bounded (boundedFetch). With a username, Grove never tries to
 * create it: on CouchDB a user's database is made by the admin (README "Sync"), and the attempt
 * itself fails or, on pouchdb-server, crashes the server. Without one (a server open to all, e.g.
 * a local test server) it is created.
 */
export function remoteDb(dbUrl: string, config: SyncConfig, stop: AbortSignal, timeoutMs: number): PouchDB {
  const auth = config.username ? { auth: { username: config.username, password: config.password } } : {};
  return new PouchDB(dbUrl, {
    ...auth,
    skip_setup: Boolean(config.username),
    fetch: boundedFetch(stop, timeoutMs, dbUrl),
  });
}

/** How a server failure bears on a run: try again later (offline), or stop until the user acts. */
export type ServerFailure = "offline" | "refused";

/** Offline: no answer, a timeout, a gateway or server error. Refused: it answered, and not as Grove's database. */
export function serverFailure(e: unknown): ServerFailure {
  const { status, name } = e as { status?: unknown; name?: unknown };
  if (name === "TimeoutError" || e instanceof TypeError) return "offline";
  if (typeof status === "number" && (status >= 500 || status === 408 || status === 429)) return "offline";
  return "refused";
}

/** A PouchDB/fetch failure in the user's words, the password redacted. */
export function describeServerError(e: unknown, dbUrl: string, config?: Pick<SyncConfig, "password">): string {
  return redactSecrets(serverErrorText(e, dbUrl), config?.password ? [config.password] : []);
}

function serverErrorText(e: unknown, dbUrl: string): string {
  const status = (e as { status?: number }).status;
  if (status === 401 || status === 403) return "The server refused the username or password.";
  if (status === 404) return `There is no database at ${dbUrl}: ask the server's admin to create it for this user.`;
  if (e instanceof ServerTimeout) return e.message;
  if (e instanceof SyntaxError) {
    return `The server at ${dbUrl} does not answer as a CouchDB database (it sent a web page or other text). Check the server URL.`;
  }
  const message = e instanceof Error ? e.message : String((e as { message?: unknown }).message ?? e);
  // The server's own words, shortened: a hostile one could send pages of text.
  return `Cannot reach the sync server at ${dbUrl}: ${message.slice(0, MAX_SERVER_WORDS) || "no answer"}.`;
}
