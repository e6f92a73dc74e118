/**
 * The remote summarizer (seed 002, `compaction.remoteEndpoint`): a URL the user runs that writes
 * Grove's summaries instead of the model. Protocol: POST JSON `{ systemPrompt, prompt }`, answer
 * JSON with at least `{ summary }` (a non-empty string).
 *
 * Keys: the request carries only the summarizer's own bearer token (never a provider key), to that
 * URL only (`redirect: "error"`: a redirect would carry it elsewhere), with no cookies. A plain
 * http:// URL to a host outside this machine is used only once the user confirmed that origin, the
 * same rule as providers (endpoint.ts `plainHttpOrigin`). The token was given for one origin
 * (`tokenOrigin`): when the URL moves to another, it is not sent there until the user confirms
 * (issue 30 item 7; a provider's key is saved only together with its base URL for the same reason).
 *
 * Failures throw a `RemoteSummarizerError` whose message is for the user; the caller falls back to
 * the model. An abort of the caller's signal rethrows the abort as it came.
 */
import { plainHttpOrigin } from "../core/net/plain-http";
import { redactSecrets } from "../core/net/redact";

/** As stored in Settings (`remoteSummarizer`); an empty `url` means "not used". */
export type RemoteSummarizerConfig = {
  url: string;
  /** Bearer token for this URL only; empty: no Authorization header. */
  token: string;
  /** The plain http:// (non-local) origin the user confirmed sending summaries to unencrypted. */
  plainHttpOrigin?: string;
  /** The origin the token may go to: the URL's when the token was entered, or one the user confirmed since. */
  tokenOrigin?: string;
};

export const NO_REMOTE_SUMMARIZER: RemoteSummarizerConfig = { url: "", token: "" };

/** A remote summary can take as long as a model's; past this the model writes it instead (ms). */
const REMOTE_SUMMARIZER_TIMEOUT_MS = 120_000;

export class RemoteSummarizerError extends Error {
  override readonly name = "RemoteSummarizerError";
}

/** The words for a fetch that never got an answer: in a browser a CORS refusal looks the same. */
export const CORS_OR_UNREACHABLE = "The remote summarizer did not allow this page to call it (CORS) or is unreachable";

/** Whether the remote summarizer is configured at all. */
export function remoteSummarizerSet(config: RemoteSummarizerConfig | undefined): config is RemoteSummarizerConfig {
  return config !== undefined && config.url.trim() !== "";
}

/** What is wrong with a typed URL, in words for Settings; undefined when it can be used (or is empty). */
export function remoteSummarizerUrlProblem(url: string): string | undefined {
  const trimmed = url.trim();
  if (!trimmed) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return `“${trimmed}” is not an http(s) address.`;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return `“${trimmed}” is not an http(s) address.`;
  if (parsed.username || parsed.password) return "Put the token in its own field, not in the URL.";
  return undefined;
}

/** A usable URL's origin; undefined for an empty or unusable one. */
export function remoteSummarizerOrigin(url: string): string | undefined {
  const trimmed = url.trim();
  if (!trimmed || remoteSummarizerUrlProblem(trimmed)) return undefined;
  return new URL(trimmed).origin;
}

/**
 * The origin the token would now go to without the user having said so (the URL changed since the
 * token was entered or last confirmed), or undefined when it may go (or there is no token).
 */
export function unconfirmedTokenOrigin(config: RemoteSummarizerConfig): string | undefined {
  if (!config.token.trim()) return undefined;
  const origin = remoteSummarizerOrigin(config.url);
  return origin !== undefined && origin !== config.tokenOrigin ? origin : undefined;
}

/**
 * The URL requests may go to, or why none may be sent: the plain-http rule of endpoint.ts, and the
 * token only to the origin it was given for.
 */
export function resolveRemoteSummarizer(
  config: RemoteSummarizerConfig,
): { ok: true; url: string } | { ok: false; message: string } {
  const url = config.url.trim();
  const problem = remoteSummarizerUrlProblem(url);
  if (!url || problem) return { ok: false, message: problem ?? "No remote summarizer URL is set." };
  const insecure = plainHttpOrigin(url);
  if (insecure && config.plainHttpOrigin !== insecure) {
    return {
      ok: false,
      message: `${insecure} is plain http:// to a host outside this machine: the conversation would travel unencrypted. Confirm it in Settings, or use https://`,
    };
  }
  const moved = unconfirmedTokenOrigin(config);
  if (moved !== undefined) {
    return {
      ok: false,
      message: `The token was given for ${config.tokenOrigin ?? "no address"}, not ${moved}: confirm in Settings that it may go there`,
    };
  }
  return { ok: true, url };
}

export type RemoteSummarizerDeps = {
  fetch?: typeof fetch;
  /** The page's origin, to tell a cross-origin (CORS) failure from an unreachable same-origin URL. */
  pageOrigin?: string;
};

function currentOrigin(): string | undefined {
  const loc = (globalThis as { location?: { origin?: string } }).location;
  return typeof loc?.origin === "string" ? loc.origin : undefined;
}

/** Asks the remote summarizer for one summary; throws `RemoteSummarizerError` (or the caller's abort). */
export async function callRemoteSummarizer(
  config: RemoteSummarizerConfig,
  body: { systemPrompt: string; prompt: string },
  signal: AbortSignal,
  deps: RemoteSummarizerDeps = {},
): Promise<string> {
  const resolved = resolveRemoteSummarizer(config);
  if (!resolved.ok) throw new RemoteSummarizerError(resolved.message);
  const { url } = resolved;
  const secrets = config.token.trim() ? [config.token.trim()] : [];
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (secrets[0]) headers.authorization = `Bearer ${secrets[0]}`;

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), REMOTE_SUMMARIZER_TIMEOUT_MS);
  const onAbort = () => timeout.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  const doFetch = deps.fetch ?? ((input, init) => globalThis.fetch(input, init));
  try {
    let res: Response;
    try {
      res = await doFetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ systemPrompt: body.systemPrompt, prompt: body.prompt }),
        signal: timeout.signal,
        credentials: "omit",
        redirect: "error",
        referrerPolicy: "no-referrer",
      });
    } catch (e) {
      if (signal.aborted) throw e;
      if (timeout.signal.aborted) {
        throw new RemoteSummarizerError(
          `The remote summarizer did not answer within ${REMOTE_SUMMARIZER_TIMEOUT_MS / 1000} s`,
        );
      }
      const pageOrigin = deps.pageOrigin ?? currentOrigin();
      const crossOrigin = pageOrigin === undefined || new URL(url).origin !== pageOrigin;
      throw new RemoteSummarizerError(crossOrigin ? CORS_OR_UNREACHABLE : "The remote summarizer is unreachable");
    }
    const text = await res.text().catch(() => {
      if (signal.aborted) throw signal.reason;
      throw new RemoteSummarizerError("The remote summarizer's answer was cut off");
    });
    if (!res.ok) {
      const detail = text.trim().slice(0, 200);
      throw new RemoteSummarizerError(
        redactSecrets(`The remote summarizer answered HTTP ${res.status}${detail ? `: ${detail}` : ""}`, secrets),
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new RemoteSummarizerError("The remote summarizer's answer is not JSON");
    }
    const summary = typeof json === "object" && json !== null ? (json as { summary?: unknown }).summary : undefined;
    if (typeof summary !== "string" || summary.trim() === "") {
      throw new RemoteSummarizerError("The remote summarizer's answer has no summary");
    }
    return summary;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}
