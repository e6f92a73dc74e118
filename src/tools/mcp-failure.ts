/**
 * One place that turns what went wrong talking to an MCP server into a plain reason (issue 28):
 * unreachable, CORS refused (with one line on how to allow this origin), 401/403, timeout, a malformed
 * answer, the server's own error, or Stop. Every message has the server's credentials (its header
 * values, secrets in its URL) taken out. Pure, except `classifyFetchFailure`, which asks the network
 * once more to tell CORS from unreachable.
 */
import type { McpFailure, McpFailureKind } from "./mcp-types";

/** The SDK's JSON-RPC codes the client meets (its `ErrorCode`): no import of the SDK here. */
const REQUEST_TIMEOUT = -32001;
const CONNECTION_CLOSED = -32000;

const REDACTED = "[redacted]";

/** The secrets of a server config: its header values (and a bearer's token alone), its URL's credentials. */
export function serverSecrets(url: string, headers: Readonly<Record<string, string>> = {}): string[] {
  const out: string[] = [];
  for (const value of Object.values(headers)) {
    out.push(value);
    const bearer = /^\s*(?:bearer|basic|token)\s+(.+)$/i.exec(value)?.[1];
    if (bearer) out.push(bearer);
  }
  try {
    const u = new URL(url);
    if (u.password) out.push(decodeURIComponent(u.password), u.password);
    if (u.username) out.push(decodeURIComponent(u.username), u.username);
    for (const [key, value] of u.searchParams) {
      if (/key|token|secret|auth|password|sig/i.test(key) && value) out.push(value);
    }
  } catch {
    // Not a URL: nothing more to hide.
  }
  // Longest first, so a token inside a longer value is not left half-hidden.
  return [...new Set(out.map((s) => s.trim()).filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
}

/** `text` with every secret replaced. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join(REDACTED);
  return out;
}

/** The server's origin, for messages (never its path, query or credentials). */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "the server";
  }
}

export function corsMessage(url: string, pageOrigin: string | undefined): string {
  const page = pageOrigin ?? "this page's origin";
  return (
    `${originOf(url)} answered, but does not allow this page (CORS). To allow it, have the server send ` +
    `Access-Control-Allow-Origin: ${page} and allow the headers content-type, accept, authorization, ` +
    "mcp-protocol-version and mcp-session-id (and expose mcp-session-id) — or let the provider connect to it."
  );
}

const failure = (kind: McpFailureKind, message: string, status?: number): McpFailure =>
  status === undefined ? { kind, message } : { kind, message, status };

function field(e: unknown, key: string): unknown {
  return typeof e === "object" && e !== null ? (e as Record<string, unknown>)[key] : undefined;
}

/** A fetch that failed before any answer (the browser's TypeError "Failed to fetch", Node's "fetch failed"). */
export function isFetchFailure(e: unknown): boolean {
  return e instanceof TypeError && /fetch|network|load failed/i.test(e.message);
}

const isAbort = (e: unknown, signal: AbortSignal | undefined): boolean =>
  signal?.aborted === true || field(e, "name") === "AbortError";

/** A validation error of the SDK's result schemas (zod): the answer was not a valid result. */
const isSchemaError = (e: unknown): boolean =>
  field(e, "name") === "ZodError" || (Array.isArray(field(e, "issues")) && typeof field(e, "message") === "string");

/**
 * Classifies an error the SDK client threw (not a fetch failure: `classifyFetchFailure` tells those
 * apart). `what` names the operation in the message ("Connecting", "Calling read_file").
 */
export function classifyMcpError(
  e: unknown,
  ctx: { url: string; secrets: readonly string[]; signal?: AbortSignal; timeoutMs?: number; what: string },
): McpFailure {
  const server = originOf(ctx.url);
  const said = redact(e instanceof Error ? e.message : String(e), ctx.secrets);
  if (isAbort(e, ctx.signal)) return failure("aborted", `${ctx.what} was stopped.`);
  const code = field(e, "code");
  if (code === REQUEST_TIMEOUT) {
    const after = ctx.timeoutMs ? ` after ${Math.round(ctx.timeoutMs / 1000)} s` : "";
    return failure("timeout", `${server} did not answer in time${after} (${ctx.what.toLowerCase()}).`);
  }
  if (code === 401 || code === 403 || field(e, "name") === "UnauthorizedError") {
    const status = typeof code === "number" ? code : 401;
    return failure(
      "auth",
      `${server} refused the request (${status}): ${status === 401 ? "a missing or wrong token" : "not allowed"}. Check the server's headers (e.g. Authorization: Bearer …).`,
      status,
    );
  }
  if (isSchemaError(e)) return failure("malformed", `${server} sent an answer that is not a valid MCP result.`);
  if (code === CONNECTION_CLOSED) return failure("unreachable", `${server} closed the connection (${said}).`);
  if (typeof code === "number" && code >= 400 && code < 600) {
    return failure("server", `${server} answered ${code}: ${said}`, code);
  }
  if (code === -1) return failure("malformed", `${server} sent an answer that is not MCP: ${said}`);
  if (typeof code === "number") return failure("server", `${server} reported an error: ${said}`);
  if (e instanceof SyntaxError) return failure("malformed", `${server} sent an answer that is not valid JSON.`);
  return failure("server", `${ctx.what} failed: ${said}`);
}

/**
 * A fetch that failed before any answer is either "nothing there" or "the browser refused the
 * answer" (CORS), which the page cannot see. A second, `no-cors` request tells them apart: it gets an
 * opaque answer from a server that is there, and fails like the first when nothing is.
 */
export async function classifyFetchFailure(
  url: string,
  fetchFn: typeof fetch,
  pageOrigin: string | undefined,
): Promise<McpFailure> {
  const reachable = await fetchFn(url, { method: "GET", mode: "no-cors", credentials: "omit" }).then(
    (res) => {
      void res.body?.cancel().catch(() => {});
      return true;
    },
    () => false,
  );
  return reachable
    ? failure("cors", corsMessage(url, pageOrigin))
    : failure(
        "unreachable",
        `Nothing answered at ${originOf(url)}: check the address, and that the server is running.`,
      );
}
