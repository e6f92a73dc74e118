/**
 * The one error shape after the provider boundary (`MessageError`, entries.ts): how to recognise
 * it (`isMessageError`) and how to put any thrown value into words (`errorText`). A failure keeps
 * its kind across a worker boundary as plain data (comlink clones it); nothing is renamed or
 * recognised by an Error's `name`.
 *
 * Pure: no I/O here. Redaction of secrets happens where errors are classified (providers/).
 */
import { isQuotaError, STORAGE_FULL_MESSAGE } from "../quota-error";
import type { ErrorKind, MessageError } from "./entries";

/** What each kind says when an error carries no message of its own (one stored without one). */
export const FAILURE_FALLBACK: Readonly<Record<ErrorKind, string>> = {
  context_overflow: "The conversation is too long for this model's context window.",
  output_length: "The reply hit the output length limit.",
  rate_limit: "The provider is rate-limiting requests.",
  quota: "Your account has run out of credit or quota.",
  auth: "The provider rejected the API key.",
  overloaded: "The provider is overloaded right now.",
  server: "The provider had a server error.",
  network: "The connection to the provider was lost.",
  invalid_request: "The provider rejected the request.",
  aborted: "Stopped.",
  unknown: "Something went wrong talking to the provider.",
};

/** A MessageError: a known `kind` and a string `message` (extra fields, e.g. a worker's, allowed). */
export function isMessageError(e: unknown): e is MessageError {
  if (typeof e !== "object" || e === null) return false;
  const { kind, message } = e as { kind?: unknown; message?: unknown };
  return typeof kind === "string" && Object.hasOwn(FAILURE_FALLBACK, kind) && typeof message === "string";
}

/** A MessageError of kind `aborted`: the user (or a cancel) stopped the call. */
export function isAbortedError(e: unknown): boolean {
  return isMessageError(e) && e.kind === "aborted";
}

/**
 * A thrown value as words: storage full in one plain sentence (never the browser's text), an Error's message, a MessageError's message (else its kind's fallback),
 * a string, a plain object's `message` (PouchDB throws those), else the value as a string.
 */
export function errorText(e: unknown): string {
  if (isQuotaError(e)) return STORAGE_FULL_MESSAGE;
  if (e instanceof Error) return e.message || e.name;
  if (isMessageError(e)) return e.message.trim() || FAILURE_FALLBACK[e.kind];
  if (typeof e === "string") return e;
  const message = (e as { message?: unknown } | null | undefined)?.message;
  return typeof message === "string" ? message : String(e);
}
