/**
 * The MCP client's data (issue 28): a server as the user configured it, its tools, a call's result
 * with its content normalized, and a failure in plain words. Plain data: the state layer keeps it,
 * the UI shows it. No I/O here.
 */

/** An MCP server Grove connects to from the browser. Its headers are credentials: sent to it only. */
export type McpServerConfig = {
  /** The Streamable HTTP endpoint (an older server's SSE endpoint works too: the client falls back). */
  readonly url: string;
  /** Sent with every request to this server and nowhere else (e.g. `Authorization: Bearer …`). */
  readonly headers?: Readonly<Record<string, string>>;
};

/** A tool as the server lists it. */
export type McpToolInfo = {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The JSON Schema of its arguments (an object schema). */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** The server's hints (untrusted: a description or hint never grants anything). */
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
};

/** One piece of a result, normalized from the protocol's content types. */
export type McpContent =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly data: string; readonly mimeType: string }
  | { readonly type: "audio"; readonly data: string; readonly mimeType: string }
  /** An embedded resource: its text, or (binary) its base64 `blob`. */
  | {
      readonly type: "resource";
      readonly uri: string;
      readonly mimeType?: string;
      readonly text?: string;
      readonly blob?: string;
    }
  | { readonly type: "resource_link"; readonly uri: string; readonly name?: string; readonly mimeType?: string };

export type McpToolResult = {
  readonly content: readonly McpContent[];
  /** The tool reported a failure (its content says why). */
  readonly isError: boolean;
  /** The tool's structured output, when it gave one. */
  readonly structuredContent?: unknown;
};

/** Why talking to a server failed. */
export type McpFailureKind =
  /** Nothing answered (no server there, network down, DNS). */
  | "unreachable"
  /** The server answered, but does not allow this page (CORS): the browser refused the answer. */
  | "cors"
  /** 401 / 403: a missing or wrong token. */
  | "auth"
  /** No answer within the time allowed. */
  | "timeout"
  /** The answer is not a valid MCP message or result. */
  | "malformed"
  /** The server answered with an error (an HTTP error, a JSON-RPC error, an unknown tool). */
  | "server"
  /** Stopped by the user. */
  | "aborted";

export type McpFailure = { readonly kind: McpFailureKind; readonly message: string; readonly status?: number };

export type McpOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly failure: McpFailure };
