/**
 * Public types of the mock provider server (DESIGN §9). Plain data only: everything here can cross
 * the HTTP control API as JSON, so a browser or another process can drive the mock too.
 */

/** Which wire format a request speaks: `/anthropic/...` (Messages API) or `/openai/...` (Chat Completions or Responses). */
export type Api = "anthropic" | "openai";

export const APIS: readonly Api[] = ["anthropic", "openai"];

/**
 * How a scripted reply fails. `afterChunks` counts reply *text* deltas already sent (thinking deltas do
 * not count); the opening events (`message_start` / the role chunk) and any scripted thinking always go
 * out first, so `afterChunks: 0` fails right after the stream opened.
 */
export type Fault =
  /**
   * An error response before any streaming, in the provider's JSON error shape. Unset fields take the
   * provider's real defaults for `status` (e.g. Anthropic 529 → `overloaded_error` "Overloaded";
   * 400 → the context-overflow message of each provider). `code`/`param` are OpenAI-only.
   */
  | {
      kind: "http";
      status: number;
      errorType?: string;
      message?: string;
      /** The `retry-after` header in seconds. Default: 1 on 429, absent otherwise; null: never sent. */
      retryAfterSeconds?: number | null;
      code?: string | null;
      param?: string | null;
    }
  /** A provider error inside the open stream: Anthropic `event: error`, OpenAI `data: {"error":…}`; then the stream closes. */
  | { kind: "midstream_error"; afterChunks: number; errorType?: string; message?: string }
  /** Destroy the socket mid-stream (a network failure: no terminating event, no clean end). */
  | { kind: "drop"; afterChunks: number }
  /** Send `afterChunks` text deltas, then go silent until the client aborts (or the mock resets/closes). */
  | { kind: "hang"; afterChunks: number };

/**
 * Park a response until the test calls `release()`, so a test can look at a state that would
 * otherwise last only as long as the machine happens to be slow (a "Retrying in…" status, a half
 * written document) and then let the exchange go on. `true`: before anything is sent (status and
 * headers included), e.g. the retry of a 429 stays in flight. `{afterChunks}`: a streamed reply sends
 * its opening events, any thinking and this many text deltas, then waits (clamped to the reply's
 * length; a non-streaming request waits before its JSON). A client abort, `reset()` or `close()`
 * also ends the wait.
 */
export type Hold = true | { afterChunks: number };

/**
 * Which request a script is for. Every field is a case-sensitive substring test; all given fields must
 * match. A script without `match` answers any request of its api.
 */
export type ScriptMatch = {
  /** Substring of the system prompt (Anthropic `system`; OpenAI system/developer messages). */
  system?: string;
  /** Substring of the text of the last user message. */
  lastUser?: string;
  /** Substring of any text in the request (system + every message). */
  anyText?: string;
  /** Exact model id. */
  model?: string;
  /** Substring of the text of the last tool result in the request (`tool_result`, `tool` message, `function_call_output`). */
  lastToolResult?: string;
};

/**
 * A function tool call the model makes (after its text): Anthropic `tool_use` (input streamed as
 * `input_json_delta`), Chat Completions `tool_calls` (streamed deltas), Responses `function_call` items
 * (`response.function_call_arguments.delta`). Several in one script are parallel calls.
 */
export type ScriptToolCall = {
  name: string;
  /** The arguments (a JSON object), streamed as JSON text in a few pieces. */
  input: Record<string, unknown>;
  /** The call id; default a generated one in the api's style (`toolu_…`, `call_…`). */
  id?: string;
};

/**
 * A provider-run ("server") tool the model used before its text, with its result: Anthropic
 * `server_tool_use` + `web_search_tool_result` / `web_fetch_tool_result` /
 * `bash_code_execution_tool_result` (`code_execution_tool_result` for `variant: "python"`), `mcp_tool_use`
 * + `mcp_tool_result`; Responses `web_search_call`, `code_interpreter_call`, `mcp_list_tools` + `mcp_call`.
 * Web fetch exists on Anthropic only (a Responses request gets it as a web search for its URL).
 */
export type ServerToolScript =
  | { kind: "web_search"; query: string; results: Array<{ url: string; title: string; pageAge?: string }> }
  | { kind: "web_fetch"; url: string; title?: string; text: string }
  | {
      kind: "code_execution";
      code: string;
      stdout: string;
      stderr?: string;
      returnCode?: number;
      /**
       * Files the run produced: Anthropic `file_id`s (its Files API serves them); Responses: file names,
       * as `container_file_citation`s on the message (its container files serve them). An id or name
       * ending in `png` is the mock's bar chart (png.ts). See code-files.ts.
       */
      files?: string[];
      /**
       * Responses only: the run's `image` outputs, as `data:` URLs: `png` the mock's bar chart (png.ts),
       * `svg` an SVG carrying a script. Anthropic has no such output (its images are files).
       */
      images?: Array<"png" | "svg">;
      /** Anthropic's tool version: `bash` (code_execution_20250825, the default) or `python` (20250522). */
      variant?: "bash" | "python";
    }
  | {
      kind: "mcp";
      /** The server's name as the request declared it (`mcp_servers[].name` / the `mcp` tool's `server_label`). */
      server: string;
      name: string;
      input: Record<string, unknown>;
      output: string;
      isError?: boolean;
    };

/** A source the reply's text cites: Anthropic `web_search_result_location` citations, Responses `url_citation` annotations. */
export type ScriptCitation = { url: string; title: string; citedText: string };

/**
 * One scripted reply. Scripts are queued FIFO per api; a request takes the first queued script whose
 * `match` fits it (no `match`: the first one). With an empty queue the reply is
 * `Echo: <text of the last user message>` streamed in a few chunks.
 */
export type ReplyScript = {
  /** The reply text, split into a few chunks at word boundaries. Ignored when `chunks` is given. */
  text?: string;
  /** The exact text deltas to stream (their concatenation is the reply text). */
  chunks?: string[];
  /**
   * Reasoning streamed before the text: Anthropic `thinking` block (+ `signature_delta`), OpenAI
   * `delta.reasoning_content`; Responses: a reasoning item (summary deltas, then `encrypted_content`).
   */
  thinking?: string;
  /** Delay before each delta, overriding `MockConfig.chunkDelayMs`. */
  chunkDelayMs?: number;
  /** Delay before anything is sent (headers included), e.g. to observe a "waiting" state. */
  latencyMs?: number;
  /**
   * `end` → `end_turn` / `stop`; `length` → `max_tokens` / `length`. Default `end`, or the tool-use stop
   * (`tool_use` / `tool_calls`; Responses: completed with function_call items) when `toolCalls` is given.
   */
  stopReason?: "end" | "length";
  /** Function tool calls after the text (several: parallel calls). Without `text`, the reply has no text. */
  toolCalls?: ScriptToolCall[];
  /** Provider-run tools used before the text (web search, web fetch, code execution, MCP connector). */
  serverTools?: ServerToolScript[];
  /** Sources the text cites. */
  citations?: ScriptCitation[];
  /** Reported token usage. Defaults: input = ceil(request text chars / 4), output = ceil(reply chars / 4). */
  usage?: { input?: number; output?: number };
  fault?: Fault;
  /** Park the response until `release()` (see `Hold`). Applied after `latencyMs`, before any fault. */
  hold?: Hold;
  match?: ScriptMatch;
};

export type MockConfig = {
  /**
   * Reject (400) messages with two consecutive turns of the same role, or whose first non-system
   * message is not `user`, as the strict chat templates of Ollama / LM Studio do. Default false.
   */
  strict: boolean;
  /** null: any non-empty key is accepted. A string: only that key is; others get the provider's 401. Default null. */
  apiKey: string | null;
  /** Default delay before each streamed delta, in ms. Default 5. */
  chunkDelayMs: number;
  /**
   * Apply the providers' real request validation (Anthropic: `max_tokens` required, non-empty content,
   * no `system` role in messages, no trailing whitespace in a final assistant prefill, …). Default true.
   */
  validate: boolean;
  /** Model ids listed by `GET …/v1/models`. Requests for other models are still answered. */
  models: { anthropic: string[]; openai: string[] };
  /** The delta field that carries OpenAI-compatible reasoning: `reasoning_content` (DeepSeek, vLLM) or `reasoning` (OpenRouter, Ollama). */
  openaiReasoningField: "reasoning_content" | "reasoning";
  /**
   * `POST /anthropic/v1/messages/count_tokens`: `"chars"` answers ceil(request chars / 4) (default),
   * a number answers exactly that many `input_tokens`, `"fail"` answers 404 (as a compatible
   * endpoint without counting does).
   */
  countTokens: "chars" | "fail" | number;
  /** `POST /remote-summarizer`: answer `remoteSummary`, or fail (see remote-summarizer.ts). Default "ok". */
  remoteSummarizer: "ok" | "http-500" | "bad-json" | "no-summary" | "no-cors";
  /** The summary the remote summarizer answers. */
  remoteSummary: string;
  /**
   * How a request nothing was queued for is answered (the fidelity bench's model ids aside):
   * `"echo"` (default) `Echo: <last user text>`; `"fidelity"` as a capable model would, by the task
   * Grove's request carries (fidelity.ts `taskReply`: summaries, memory-probe drafts and grades, answers).
   */
  unscripted: "echo" | "fidelity";
};

export type MockConfigPatch = Partial<Omit<MockConfig, "models">> & { models?: Partial<MockConfig["models"]> };

/** What became of a recorded request. */
export type RequestOutcome =
  /** Still being answered (streaming, or hanging). */
  | "pending"
  /** The response was sent completely (including error responses and mid-stream errors). */
  | "completed"
  /** The client went away before the response finished (e.g. the user pressed Stop). */
  | "client_aborted"
  /** The mock destroyed the socket on purpose (`fault.kind: "drop"`, or reset/close with a request in flight). */
  | "dropped";

export type RecordedRequest = {
  /** 1-based sequence number, in arrival order; restarts at 1 after `reset()`. */
  seq: number;
  /** null for paths outside `/anthropic` and `/openai` (recorded so a misconfigured base URL is visible). */
  api: Api | null;
  method: string;
  /** Path without the query string, e.g. `/anthropic/v1/messages`. */
  path: string;
  /** The raw query string including `?`, or "". */
  search: string;
  /** Header names lowercased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body parsed as JSON; the raw text when it is not JSON; null when there is no body. */
  body: unknown;
  /** Arrival time, ms since the epoch. */
  at: number;
  /** HTTP status sent (0 while none has been sent, or when the socket was dropped before headers). */
  status: number;
  outcome: RequestOutcome;
};

export type RequestFilter = {
  api?: Api;
  /** Include CORS preflights (OPTIONS). Default false, so counts and orders reflect what the app sent. */
  includePreflight?: boolean;
};

export type MockServerOptions = {
  /** 0 or absent: a free port. */
  port?: number;
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Initial config, applied on top of the defaults (and re-applied by `reset()`). */
  config?: MockConfigPatch;
};

export interface MockServer {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** `${url}/anthropic` — the Anthropic SDK's `baseURL` (the SDK adds `/v1/messages`). */
  readonly anthropicBaseUrl: string;
  /** `${url}/openai/v1` — the OpenAI SDK's `baseURL`. */
  readonly openaiBaseUrl: string;
  /** `POST` here is the mock remote summarizer (remote-summarizer.ts). */
  readonly remoteSummarizerUrl: string;
  /** Queue reply scripts (FIFO) for an api. */
  enqueue(api: Api, ...scripts: ReplyScript[]): void;
  /** How many scripts are still queued (for one api, or both). */
  queued(api?: Api): number;
  /** A snapshot (deep copy) of the recorded requests, oldest first. */
  requests(filter?: RequestFilter): RecordedRequest[];
  clearRequests(): void;
  /** How many responses are parked by a `hold` script right now (for one api, or both). */
  held(api?: Api): number;
  /** Let every parked response (of one api, or all) go on; returns how many were released. */
  release(api?: Api): number;
  /** Merge a patch into the config and return the whole config. `config()` just reads it. */
  config(patch?: MockConfigPatch): MockConfig;
  /** Clear queues, recordings and config (back to the start options), and drop in-flight (and parked) responses. */
  reset(): void;
  close(): Promise<void>;
}
