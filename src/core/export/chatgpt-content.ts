/**
 * One node of a ChatGPT export's `mapping`, read: what it is (a message, reasoning, a hidden
 * context node) and, for a message, its Grove blocks. The content types as exported in 2023-2026:
 * `text`, `multimodal_text` (text, `image_asset_pointer` with `file-service://file-…` or
 * `sediment://file_…`, audio transcriptions), `code` (with its `language`), `execution_output`,
 * `tether_browsing_display`, `tether_quote`, `sonic_webpage`, `system_error`, `thoughts`
 * (`thoughts: [{summary, content}]`), `reasoning_recap` ("Thought for 16s"), and the hidden
 * `user_editable_context` / `model_editable_context`. Pure: JSON in, blocks out.
 *
 * Nothing here is a placeholder for the model: reasoning becomes a thinking block (never sent to
 * another provider), an assistant part Grove cannot show is left out, and a note stands only for
 * what a user or a tool really sent (an image that is not in the export).
 */
import type { Block, ImageBlock, MessageStatus, StopReason } from "../session/entries";
import type { BlobId } from "../session/ids";
import { mayHaveCitations, resolveCitations } from "./chatgpt-citations";
import { codeFence } from "./inert-markdown";
import { asRecord, epochMs, str } from "./message-tree";

/** A file of the export .zip (an upload or a generated image), stored as a blob before parsing. */
export type ChatGptAsset = {
  readonly blobId: BlobId;
  readonly mimeType: string;
  readonly size: number;
  /** The file's own name, where the export gives one. */
  readonly name?: string;
};

/** The .zip's files by ChatGPT's file id (`file-AbC…`, `file_00…`): what asset pointers name. */
export type ChatGptAssets = ReadonlyMap<string, ChatGptAsset>;

export type ChatGptMessage = {
  readonly id: string;
  readonly role: string;
  readonly authorName: string | undefined;
  readonly createdAt: number | undefined;
  readonly type: string;
  readonly content: Record<string, unknown>;
  readonly status: string | undefined;
  readonly recipient: string | undefined;
  readonly metadata: Record<string, unknown> | undefined;
};

/** What a node is, for the tree walk (chatgpt.ts). */
export type ChatGptNode =
  | { readonly kind: "pass" }
  | { readonly kind: "thoughts"; readonly text: string }
  | { readonly kind: "recap"; readonly label: string }
  | { readonly kind: "message"; readonly role: "user" | "assistant" | "tool"; readonly content: Block[] };

/** A node's `message` as read, or undefined for a null or unreadable one (the node is kept for structure). */
export function readMessage(raw: unknown, key: string): ChatGptMessage | undefined {
  const msg = asRecord(raw);
  const author = asRecord(msg?.author);
  const role = str(author?.role);
  if (!msg || !role) return undefined;
  const content = asRecord(msg.content) ?? {};
  return {
    id: str(msg.id) ?? key,
    role,
    authorName: str(author?.name) ?? undefined,
    createdAt: epochMs(msg.create_time),
    type: str(content.content_type) ?? "text",
    content,
    status: str(msg.status),
    recipient: str(msg.recipient),
    metadata: asRecord(msg.metadata),
  };
}

/** Context ChatGPT kept out of the conversation view: custom instructions, memory, system prompts. */
const HIDDEN_TYPES = new Set(["user_editable_context", "model_editable_context"]);

function isHidden(m: ChatGptMessage): boolean {
  const meta = m.metadata;
  return (
    m.role === "system" ||
    HIDDEN_TYPES.has(m.type) ||
    meta?.is_visually_hidden_from_conversation === true ||
    meta?.is_contextual_answers_system_message === true ||
    meta?.is_user_system_message === true
  );
}

export function classifyNode(m: ChatGptMessage | undefined, assets: ChatGptAssets | undefined): ChatGptNode {
  if (!m || isHidden(m)) return PASS;
  if (m.role === "assistant" && m.type === "thoughts") return { kind: "thoughts", text: thoughtsText(m.content) };
  if (m.role === "assistant" && m.type === "reasoning_recap") return { kind: "recap", label: recapLabel(m.content) };
  if (m.role === "tool") {
    const content = toolResultBlocks(m, assets);
    return content.length > 0 ? { kind: "message", role: "tool", content } : PASS;
  }
  if (m.role === "user") {
    const content = userBlocks(m, assets);
    return content.length > 0 ? { kind: "message", role: "user", content } : PASS;
  }
  if (m.role !== "assistant") return PASS;
  const content = m.recipient && m.recipient !== "all" ? toolCallBlocks(m) : assistantBlocks(m);
  return content.length > 0 ? { kind: "message", role: "assistant", content } : PASS;
}

const PASS: ChatGptNode = { kind: "pass" };

// ---- reasoning ----------------------------------------------------------------------------------

/** Each thought's summary, then its words; empty thoughts give "". */
function thoughtsText(content: Record<string, unknown>): string {
  const pieces: string[] = [];
  const thoughts = Array.isArray(content.thoughts) ? content.thoughts : [];
  for (const raw of thoughts) {
    const t = asRecord(raw);
    const summary = str(t?.summary)?.trim() ?? "";
    const words = str(t?.content)?.trim() ?? "";
    const piece = [summary, words === summary ? "" : words].filter((s) => s !== "").join("\n\n");
    if (piece !== "") pieces.push(piece);
  }
  // An older shape carried the text in parts.
  if (pieces.length === 0) pieces.push(...stringParts(content));
  return pieces.join("\n\n");
}

function recapLabel(content: Record<string, unknown>): string {
  return (str(content.content) ?? stringParts(content)[0] ?? "").trim();
}

// ---- messages -----------------------------------------------------------------------------------

/** The non-blank string parts, or `text`. */
function stringParts(content: Record<string, unknown>): string[] {
  if (Array.isArray(content.parts)) {
    return content.parts.filter((p): p is string => typeof p === "string" && p.trim() !== "");
  }
  const text = str(content.text);
  return text !== undefined && text.trim() !== "" ? [text] : [];
}

function assistantBlocks(m: ChatGptMessage): Block[] {
  if (m.type === "code") {
    const text = str(m.content.text) ?? "";
    return text.trim() === "" ? [] : [{ type: "text", text: codeFence(text, languageOf(m.content) ?? "") }];
  }
  const out: Block[] = [];
  for (const piece of partBlocks(m, undefined, "assistant")) out.push(piece);
  return out.map((b) =>
    b.type === "text" && mayHaveCitations(b.text) ? { type: "text", text: resolveCitations(b.text, m.metadata) } : b,
  );
}

function userBlocks(m: ChatGptMessage, assets: ChatGptAssets | undefined): Block[] {
  const out = partBlocks(m, assets, "user");
  // Files the user attached that no part shows (a PDF, a spreadsheet): the PDF itself when the .zip
  // has it, else its name.
  const shown = new Set(out.filter((b): b is ImageBlock => b.type === "image").map((b) => b.name));
  for (const a of attachmentsOf(m)) {
    if (a.isImagePart || shown.has(a.name)) continue;
    const asset = assets?.get(a.id);
    if (asset && asset.mimeType === "application/pdf") {
      out.push({ type: "document", blobId: asset.blobId, mimeType: asset.mimeType, name: a.name, size: asset.size });
    } else {
      appendText(out, `[file: ${a.name}]`);
    }
  }
  return out;
}

/** An assistant message addressed to a tool (`recipient`): a tool call, its code keeping its language. */
function toolCallBlocks(m: ChatGptMessage): Block[] {
  const text = m.type === "code" ? (str(m.content.text) ?? "") : stringParts(m.content).join("\n\n");
  if (text.trim() === "") return [];
  return [{ type: "tool_call", id: m.id, name: m.recipient ?? "tool", args: toolArgs(m, text) }];
}

function toolArgs(m: ChatGptMessage, text: string): unknown {
  if (m.type !== "code") return { input: text };
  const language = languageOf(m.content);
  if (language === "json") {
    try {
      const parsed: unknown = JSON.parse(text);
      if (asRecord(parsed)) return parsed;
    } catch {
      // not JSON after all: kept as code
    }
  }
  return language ? { code: text, language } : { code: text };
}

/** A code node's language; "unknown" (what ChatGPT writes when it has none) is none. */
function languageOf(content: Record<string, unknown>): string | undefined {
  const language = str(content.language)?.trim();
  return language && language !== "unknown" ? language : undefined;
}

/** A tool's message: its output as a tool result, and any image it made. */
function toolResultBlocks(m: ChatGptMessage, assets: ChatGptAssets | undefined): Block[] {
  const c = m.content;
  let text: string;
  let isError = false;
  switch (m.type) {
    case "execution_output":
      text = str(c.text) ?? "";
      break;
    case "tether_browsing_display":
      text = str(c.result) || str(c.summary) || "";
      break;
    case "tether_quote":
    case "sonic_webpage":
      text = [str(c.title), str(c.url), str(c.text)].filter((s) => s && s.trim() !== "").join("\n\n");
      break;
    case "system_error":
      text = [str(c.name), str(c.text)].filter((s) => s && s.trim() !== "").join(": ");
      isError = true;
      break;
    default: {
      const images = partBlocks(m, assets, "tool");
      text = images
        .filter((b) => b.type === "text")
        .map((b) => (b.type === "text" ? b.text : ""))
        .join("\n\n");
      const media = images.filter((b) => b.type !== "text");
      if (text.trim() === "") text = searchResultsText(m.metadata);
      const result: Block[] =
        text.trim() === "" ? [] : [{ type: "tool_result", callId: m.id, toolName: m.authorName, text, isError }];
      return [...result, ...media];
    }
  }
  if (text.trim() === "") return [];
  return [{ type: "tool_result", callId: m.id, toolName: m.authorName, text, isError }];
}

/** web.run's result is in `metadata.search_result_groups`; its text part is empty. */
function searchResultsText(metadata: Record<string, unknown> | undefined): string {
  const groups = Array.isArray(metadata?.search_result_groups) ? metadata.search_result_groups : [];
  const lines: string[] = [];
  for (const g of groups) {
    const entries = asRecord(g)?.entries;
    for (const raw of Array.isArray(entries) ? entries : []) {
      const e = asRecord(raw);
      const title = str(e?.title)?.trim();
      const url = str(e?.url)?.trim();
      if (title || url) lines.push([title, url].filter(Boolean).join(" — "));
    }
  }
  return lines.join("\n");
}

/**
 * Text, images and transcriptions of a `text` or `multimodal_text` message, in order. An image
 * that is in the .zip becomes an image block; one that is not is named (a user's or a tool's), or
 * left out (an assistant's). Audio is left out: its transcription carries the words.
 */
function partBlocks(
  m: ChatGptMessage,
  assets: ChatGptAssets | undefined,
  role: "user" | "assistant" | "tool",
): Block[] {
  const out: Block[] = [];
  const parts = Array.isArray(m.content.parts) ? m.content.parts : undefined;
  if (!parts) {
    const text = str(m.content.text);
    if (text !== undefined && text.trim() !== "") appendText(out, text);
    return out;
  }
  for (const part of parts) {
    if (typeof part === "string") {
      if (part.trim() !== "") appendText(out, part);
      continue;
    }
    const p = asRecord(part);
    const type = str(p?.content_type);
    if (!p || !type) continue;
    if (type === "image_asset_pointer") {
      const image = imageBlock(m, p, assets);
      if (image) out.push(image);
      else if (role !== "assistant") appendText(out, `[image: ${imageName(m, p)} — not in this export]`);
    } else if (type === "audio_transcription") {
      const text = str(p.text);
      if (text && text.trim() !== "") appendText(out, text);
    } else if (str(p.text)?.trim()) {
      appendText(out, str(p.text) ?? "");
    }
  }
  return out;
}

/** Adds text to the last text block (parts of one message read as paragraphs), or a new block. */
function appendText(out: Block[], text: string): void {
  const last = out[out.length - 1];
  if (last?.type === "text") out[out.length - 1] = { type: "text", text: `${last.text}\n\n${text}` };
  else out.push({ type: "text", text });
}

/** `file-service://file-AbC` → `file-AbC`; `sediment://file_00ab` → `file_00ab`. */
function assetId(pointer: string): string {
  return pointer.replace(/^[a-z-]+:\/\//, "").trim();
}

function imageBlock(m: ChatGptMessage, p: Record<string, unknown>, assets: ChatGptAssets | undefined): Block | null {
  const pointer = str(p.asset_pointer);
  const asset = pointer ? assets?.get(assetId(pointer)) : undefined;
  if (!asset?.mimeType.startsWith("image/")) return null;
  const width = p.width;
  const height = p.height;
  return {
    type: "image",
    blobId: asset.blobId,
    mimeType: asset.mimeType,
    name: imageName(m, p, asset),
    size: asset.size,
    ...(typeof width === "number" && width > 0 ? { width } : {}),
    ...(typeof height === "number" && height > 0 ? { height } : {}),
  };
}

/** An image's name: the attachment's, else the one the .zip lists for the file, else its id. */
function imageName(m: ChatGptMessage, p: Record<string, unknown>, asset?: ChatGptAsset): string {
  const id = assetId(str(p.asset_pointer) ?? "");
  return attachmentsOf(m).find((a) => a.id === id)?.name || asset?.name || id || "image";
}

type Attachment = { id: string; name: string; isImagePart: boolean };

function attachmentsOf(m: ChatGptMessage): Attachment[] {
  const list = Array.isArray(m.metadata?.attachments) ? m.metadata.attachments : [];
  const pointers = new Set<string>();
  for (const part of Array.isArray(m.content.parts) ? m.content.parts : []) {
    const pointer = str(asRecord(part)?.asset_pointer);
    if (pointer) pointers.add(assetId(pointer));
  }
  const out: Attachment[] = [];
  for (const raw of list) {
    const a = asRecord(raw);
    const id = str(a?.id);
    if (!a || !id) continue;
    out.push({ id, name: str(a.name)?.trim() || id, isImagePart: pointers.has(id) });
  }
  return out;
}

// ---- status -------------------------------------------------------------------------------------

export function statusOf(m: ChatGptMessage): MessageStatus {
  switch (m.status) {
    case "in_progress":
      return "interrupted";
    case "finished_partial_completion":
      return "stopped";
    default:
      return "complete";
  }
}

export function stopReasonOf(m: ChatGptMessage): StopReason | undefined {
  const type = str(asRecord(m.metadata?.finish_details)?.type);
  switch (type) {
    case "stop":
      return "end";
    case "max_tokens":
      return "length";
    case "interrupted":
      return "aborted";
    default:
      return undefined;
  }
}

export const modelOf = (m: ChatGptMessage): string | undefined => str(m.metadata?.model_slug) || undefined;
