/**
 * The conversation data model (DESIGN §2): append-only, immutable entries linked by parentId.
 * Closed unions: every switch over `type` ends in an exhaustiveness check (`assertNever`).
 * No I/O here.
 */
import type { ChatParams } from "./chat-params";
import type { ChatTools } from "./chat-tools";
import type { BlobId, EntryId, SessionId } from "./ids";

// ---- content blocks -------------------------------------------------------------------------

/**
 * Text. `citations`: the sources a reply's text cites (a provider's web search: Anthropic citations,
 * OpenAI `url_citation` annotations), shown as links; kept for display and export, never sent back.
 */
export type TextBlock = { type: "text"; text: string; citations?: Citation[] };
/** A source a reply cites: shown as a link with its title. */
export type Citation = { url: string; title?: string; citedText?: string };
/**
 * An attached image; its bytes live in the `blobs` table under `blobId` (the SHA-256 of the bytes).
 * `name`, `size` and the pixel size are absent on blocks written before attachments existed.
 */
export type ImageBlock = {
  type: "image";
  blobId: BlobId;
  mimeType: string;
  name?: string;
  size?: number;
  width?: number;
  height?: number;
};
/** An attached PDF; its bytes live in the `blobs` table. `pages` is counted when it is attached (an estimate). */
export type DocumentBlock = {
  type: "document";
  blobId: BlobId;
  mimeType: string;
  name: string;
  size: number;
  pages?: number;
};
/**
 * An attached text file (code, Markdown, CSV, JSON): its text is kept in the block itself, because
 * the model is sent that text (fenced, under the file name) and every pure reader — counting,
 * compaction, search, exports — needs it without a blob read.
 */
export type TextFileBlock = { type: "text_file"; name: string; mimeType: string; text: string };
/** What the composer attaches. */
export type AttachmentBlock = ImageBlock | DocumentBlock | TextFileBlock;
export const isAttachmentBlock = (b: Block): b is AttachmentBlock =>
  b.type === "image" || b.type === "document" || b.type === "text_file";
/**
 * Reasoning the provider streamed. `signature` (Anthropic) or `redacted` data must go back only to
 * the provider api that produced it (`signedBy`); elsewhere the block is dropped (DESIGN §3).
 */
export type ThinkingBlock = {
  type: "thinking";
  text: string;
  signature?: string;
  /** Anthropic `redacted_thinking` payload: opaque, only meaningful to Anthropic. */
  redactedData?: string;
  signedBy?: ApiKind;
  /**
   * What the app that produced it called this reasoning, shown on the folded block (an imported
   * ChatGPT reply's "Thought for 16s"). Display only: never sent.
   */
  label?: string;
};
/**
 * A function tool call the model made (its arguments parsed from JSON). `id` pairs it with its
 * `tool_result`; whether it goes back to the provider as a native call or as text is decided per path
 * by build-context.ts (only to the api + provider of the message that holds it). An OpenAI Responses
 * call's id is `<call_id>|<item id>` (pi's convention, so pi sessions map one to one); its adapter
 * splits it.
 */
export type ToolCallBlock = { type: "tool_call"; id: string; name: string; args: unknown };
/**
 * A tool's answer to the call `callId`. `text` is kept whole; what the model is sent is
 * `toolResultModelText` (entry-text.ts): cut to `shownChars` with a note when the result was larger
 * than the model may see. A tool result never approves or triggers anything: it is data.
 */
export type ToolResultBlock = {
  type: "tool_result";
  callId: string;
  toolName?: string;
  text: string;
  isError: boolean;
  /**
   * Set when the result was longer than the model may see (decided once, when the loop stored it):
   * the model gets the first `shownChars` characters and a note saying how much was left out.
   */
  shownChars?: number;
  /** Set when even storing it whole was over the limit: its length in characters before `text` was cut. */
  originalChars?: number;
};
/** Provider-run ("server") tools Grove shows apart: the rest are "other" (their provider name in `name`). */
export type ServerToolKind = "web_search" | "web_fetch" | "code_execution" | "mcp" | "other";
/**
 * A tool the provider ran itself (web search, web fetch, code execution, its MCP connector), kept
 * verbatim: `raw` is the wire block or item exactly as it came, sent back only to the same api AND
 * provider id (as reasoning items are); every other target gets `serverToolText` (entry-text.ts).
 * One block per wire block: Anthropic's use and result are two blocks (`part` "use" / "result", same
 * `callId`); a Responses item holds both (`part` "item").
 */
export type ServerToolBlock = {
  type: "server_tool";
  api: ApiKind;
  /** Provider config id that produced it. */
  provider: string;
  tool: ServerToolKind;
  /** The provider's name of the tool (`web_search`, `bash_code_execution`, an MCP tool's name). */
  name: string;
  part: "use" | "result" | "item";
  /** The provider's id of the call (a use's `id`, a result's `tool_use_id`, a Responses item's `id`). */
  callId: string;
  /** The MCP server, for the MCP connector. */
  server?: string;
  /** What the model asked for (query, URL, code, arguments). */
  input?: unknown;
  /** What came back, as readable text (search results, fetched text, code output, the MCP result). */
  output?: string;
  /** Sources found (web search), shown as links. */
  sources?: Citation[];
  /** Files the tool produced (code execution), by the provider's file id. */
  files?: string[];
  /**
   * Files a code execution produced that Grove downloads after the reply (code-files.ts): Anthropic's
   * result `file_id`s; OpenAI's `container_file_citation`s of the reply's text (container + file id + name)
   * and its code interpreter's `image` outputs (by their `url`).
   */
  produced?: ProducedFileRef[];
  isError?: boolean;
  /** The wire block or item, verbatim. */
  raw: Readonly<Record<string, unknown>>;
};
/**
 * A file a provider's code execution produced, by the provider's ids; an image output (OpenAI code
 * interpreter's `{type: "image", url}`) has no file id of its own: `fileId` is made from the call's id
 * and the bytes come from `url` (a `data:` URL, or https).
 */
export type ProducedFileRef = { fileId: string; containerId?: string; name?: string; url?: string };
/**
 * An OpenAI Responses reasoning item, kept as data: `summary` is shown like thinking; `id` and
 * `encryptedContent` go back verbatim, and only to the provider that produced it (same `api` and
 * same `provider` id, normalize-messages.ts), never to another one.
 */
export type ReasoningBlock = {
  type: "reasoning";
  api: ApiKind;
  /** Provider config id that produced it ("openai" or a custom provider's id). */
  provider: string;
  id: string;
  encryptedContent?: string;
  summary: string[];
};
export type Block =
  | TextBlock
  | ImageBlock
  | DocumentBlock
  | TextFileBlock
  | ThinkingBlock
  | ReasoningBlock
  | ToolCallBlock
  | ToolResultBlock
  | ServerToolBlock;

// ---- provider-facing facts stored on messages ----------------------------------------------

/** The wire protocol a provider speaks. Custom providers pick one. */
export type ApiKind = "anthropic-messages" | "openai-responses" | "openai-chat";

export type Usage = {
  /** Input tokens the provider billed for the request, cache reads and writes included. */
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
};

/** Why a reply ended, normalized across providers. */
export type StopReason = "end" | "length" | "tool_use" | "refusal" | "aborted" | "error";

/** Failure classes, decided in one place (providers/classify-error.ts). */
export type ErrorKind =
  | "context_overflow"
  | "output_length"
  | "rate_limit"
  /** Out of credit or quota (OpenAI insufficient_quota, Anthropic/OpenRouter credit): waiting cannot help. */
  | "quota"
  | "auth"
  | "overloaded"
  | "server"
  | "network"
  | "invalid_request"
  | "aborted"
  | "unknown";

export type MessageError = {
  kind: ErrorKind;
  message: string;
  status?: number;
  /** How long the provider asked us to wait before retrying (retry-after), when it said. */
  retryAfterMs?: number;
};

export type MessageStatus = "complete" | "stopped" | "interrupted" | "error";
type Role = "user" | "assistant" | "tool";

// ---- entries ----------------------------------------------------------------------------------

type EntryBase = {
  readonly id: EntryId;
  readonly sessionId: SessionId;
  /** null for a root. Children are derived, never stored. */
  readonly parentId: EntryId | null;
  /** ms since epoch */
  readonly createdAt: number;
  /**
   * What an imported pi line held beyond what Grove interprets (usage.cost, responseId, details,
   * textSignature, …): opaque to Grove, written back by the pi export (core/export/pi/patch.ts).
   */
  readonly piExtra?: unknown;
};

export type MessageEntry = EntryBase & {
  readonly type: "message";
  readonly role: Role;
  readonly content: Block[];
  readonly status: MessageStatus;
  readonly error?: MessageError;
  /** Provider config id (e.g. "anthropic", "openai", or a custom provider's id). */
  readonly provider?: string;
  readonly api?: ApiKind;
  readonly model?: string;
  readonly usage?: Usage;
  readonly stopReason?: StopReason;
  /** Set on a reply produced by "Continue" after an output-length stop: the partial it extends. */
  readonly continues?: EntryId;
};

/**
 * What one model reported for the requests made for a maintenance entry (the summarizer calls of a
 * compaction or branch summary, the handoff document's request): summed per model, since a job can
 * call two (the summarizer, then the chat model after it failed). Priced like a reply's usage.
 */
export type ModelUsage = { readonly model: string; readonly usage: Usage };

export type CompactionReason = "manual" | "threshold" | "overflow" | "length" | "preflight" | "idle";

export type CompactionEntry = EntryBase & {
  readonly type: "compaction";
  /** Exactly the text the model sees after the framing (digest + `<verbatim_tail>`). */
  readonly summary: string;
  readonly shortSummary: string;
  readonly firstKeptEntryId: EntryId | null;
  readonly keptUserTurnIds: EntryId[];
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly reason: CompactionReason;
  readonly instructions?: string;
  readonly model: string;
  /**
   * The framing the summary is sent in (prompts/compaction-summary-context.md) when the user had
   * changed it (Settings → Prompts) as this compaction was made; absent: the shipped framing.
   */
  readonly framing?: string;
  /** Opaque extra data (pi's read/modified files, eviction notes): kept and exported unchanged. */
  readonly details?: unknown;
  /**
   * Who wrote the compaction the chat's provider sees: Grove's summary (absent = "grove"), or the
   * provider's own (native) compaction kept in `preserveData`. `summary` is always Grove's own, so
   * any other provider is sent that (build-context.ts).
   */
  readonly compactedBy?: CompactionMethod;
  /** Set when provider-native compaction was asked for and failed: why Grove's summary stands instead. */
  readonly nativeFallback?: string;
  /** The provider's native compaction material, kept verbatim (data, never code paths). */
  readonly preserveData?: CompactionPreserveData;
  /** The usage the providers reported for the summarizer calls that made it (absent: none reported). */
  readonly sideUsage?: readonly ModelUsage[];
};

export type CompactionMethod = "grove" | "openai" | "anthropic";

/** OpenAI `responses.compact` output items, verbatim, and who may receive them back. */
export type OpenAIRemoteCompaction = {
  readonly api: ApiKind;
  /** Provider config id that made them: they go back to that provider only. */
  readonly provider: string;
  readonly model: string;
  /** The returned `output` items (user messages, then one `compaction` item), unchanged. */
  readonly items: readonly unknown[];
};

/** Anthropic's `compaction` content block, verbatim (`content`, `encrypted_content`, `signature`). */
export type AnthropicCompaction = {
  readonly api: ApiKind;
  readonly provider: string;
  readonly model: string;
  readonly block: { readonly type: "compaction"; readonly content: string | null } & Readonly<Record<string, unknown>>;
};

export type CompactionPreserveData = {
  readonly openaiRemoteCompaction?: OpenAIRemoteCompaction;
  readonly anthropicCompaction?: AnthropicCompaction;
};

export type BranchSummaryEntry = EntryBase & {
  readonly type: "branch_summary";
  readonly fromId: EntryId;
  readonly summary: string;
  readonly instructions?: string;
  readonly model: string;
  readonly details?: unknown;
  /** The usage reported for the summarizer call that made it (absent: none reported). */
  readonly sideUsage?: readonly ModelUsage[];
};

export type HandoffEntry = EntryBase & {
  readonly type: "handoff";
  readonly document: string;
  readonly fromSessionId: SessionId;
  readonly fromEntryId: EntryId;
  /** The usage reported for the request that wrote the document (in the chat it came from). */
  readonly sideUsage?: readonly ModelUsage[];
};

/** Session metadata (from pi): the model changed here. Never sent; shown as a small marker. */
export type ModelChangeEntry = EntryBase & {
  readonly type: "model_change";
  readonly provider: string;
  readonly modelId: string;
};

/** Session metadata (from pi): the thinking level changed here. Never sent; shown as a small marker. */
export type ThinkingLevelChangeEntry = EntryBase & {
  readonly type: "thinking_level_change";
  readonly thinkingLevel: string;
};

/** Extension state (a pi `custom` entry): opaque, never sent, not shown, kept for export. */
export type CustomDataEntry = EntryBase & {
  readonly type: "custom";
  readonly customType: string;
  readonly data?: unknown;
};

/**
 * A note an extension put into the context (a pi `custom_message`, or a `custom`-role message):
 * sent as a user-role message of its content, shown only when `display` says so.
 */
export type ContextNoteEntry = EntryBase & {
  readonly type: "context_note";
  readonly customType: string;
  readonly content: Block[];
  readonly display: boolean;
  readonly details?: unknown;
  /** pi wrote it as a `message` entry with role `custom` (not a `custom_message` entry). */
  readonly asMessage?: boolean;
};

/**
 * A shell command the user ran (pi's `!cmd`, a `bashExecution` message): sent as pi's text for it
 * unless `excludeFromContext` (pi's `!!cmd`); shown as a collapsed command block.
 */
export type CommandEntry = EntryBase & {
  readonly type: "command";
  readonly command: string;
  readonly output: string;
  readonly exitCode?: number | null;
  readonly cancelled?: boolean;
  readonly truncated?: boolean;
  readonly fullOutputPath?: string;
  readonly excludeFromContext?: boolean;
};

export type Entry =
  | MessageEntry
  | CompactionEntry
  | BranchSummaryEntry
  | HandoffEntry
  | ModelChangeEntry
  | ThinkingLevelChangeEntry
  | CustomDataEntry
  | ContextNoteEntry
  | CommandEntry;

// ---- sessions ---------------------------------------------------------------------------------

export type ModelRef = { providerId: string; modelId: string };

export type Session = {
  readonly id: SessionId;
  title: string;
  /** "auto" titles may be replaced by a better automatic title; "user" titles never are. */
  titleSource: "auto" | "user";
  readonly createdAt: number;
  updatedAt: number;
  leafId: EntryId | null;
  /** Per-session override of the global system prompt; undefined = use the global default. */
  systemPrompt?: string;
  /** The model this session talks to; undefined = the global default. */
  model?: ModelRef;
  /** Temperature, output limit, thinking chosen for this chat; undefined = the model's defaults. */
  params?: ChatParams;
  /** The tools this chat may use (issue 28); undefined = none. */
  tools?: ChatTools;
  parentSessionId?: SessionId;
  parentEntryId?: EntryId;
  /**
   * Where an imported session came from, as `<tool>:<its id>` (`chatgpt:<conversation id>`,
   * `pi:<session id>`), so importing the same conversation again is recognized ("Keep both" / "Skip").
   */
  importedFrom?: string;
  /** Shown at the top of the chat list, under "Pinned". */
  pinned?: boolean;
  /** Moved out of the chat list into its "Archived" view (nothing is deleted). */
  archived?: boolean;
  /** The pi session header's fields Grove does not interpret (`cwd`, `parentSession`, …), written back by the pi export. */
  piHeader?: Record<string, unknown>;
};

export function assertNever(x: never, what = "value"): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(x)}`);
}

/** The plain text of a message's text blocks, joined. */
export function messageText(content: readonly Block[]): string {
  return content
    .filter((b): b is TextBlock => b.type === "text")
    .map((b) => b.text)
    .join("\n\n");
}
