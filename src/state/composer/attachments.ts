/**
 * Attachments, from a file the user picked, dropped or pasted to a block a message can carry: the
 * file is classified (core/attachments/kinds.ts), images and PDFs are stored once in the blobs table
 * (content-addressed) and measured (pixel size, page count: what the token estimate needs), text
 * files are decoded into the block. Also the check before sending (limits per provider, what the
 * model reads), and the data a request carries, read here at the edge.
 */

import { classifyFile, countPdfPages } from "../../core/attachments/kinds";
import { attachmentProblem } from "../../core/attachments/limits";
import type { ContextAttachment, LlmContext } from "../../core/session/context";
import type { AttachmentBlock, Block, Entry, Session, TextFileBlock } from "../../core/session/entries";
import { modelInput } from "../../core/tokens/models";
import { readBlobsBase64, storeBlob } from "../../db/blobs";
import type { AttachmentData } from "../../providers/attachment-data";
import { buildCounted } from "../context/context-builds";
import { type ChatTarget, chatTarget, isTargetError } from "../models/chat-target";
import { useSettingsStore } from "../settings/settings-store";

export type AttachOutcome = { kind: "ok"; block: AttachmentBlock } | { kind: "error"; message: string };

/** Pixel size of an image, or undefined when the browser cannot decode it (then the estimate assumes the most). */
async function imageSize(file: Blob): Promise<{ width: number; height: number } | undefined> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return undefined;
  }
}

/** A name for a pasted file that has none (a screenshot pasted from the clipboard is "image.png"). */
const nameOf = (file: File): string => file.name || "pasted file";

/** Turns one file into an attachment block, storing its bytes where they belong. Never throws. */
export async function attachFile(file: File): Promise<AttachOutcome> {
  const name = nameOf(file);
  const kind = classifyFile(name, file.type);
  if (!kind) {
    return {
      kind: "error",
      message: `${name}: Grove attaches images (PNG, JPEG, GIF, WebP), PDFs and text files (code, Markdown, CSV, JSON).`,
    };
  }
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    switch (kind.kind) {
      case "image": {
        const blobId = await storeBlob(bytes, kind.mimeType);
        const size = await imageSize(file);
        return {
          kind: "ok",
          block: { type: "image", blobId, mimeType: kind.mimeType, name, size: bytes.length, ...size },
        };
      }
      case "pdf": {
        const blobId = await storeBlob(bytes, kind.mimeType);
        const pages = countPdfPages(bytes);
        return {
          kind: "ok",
          block: {
            type: "document",
            blobId,
            mimeType: kind.mimeType,
            name,
            size: bytes.length,
            ...(pages !== null ? { pages } : {}),
          },
        };
      }
      case "text": {
        let text: string;
        try {
          text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
        } catch {
          return { kind: "error", message: `${name} is not UTF-8 text, so Grove cannot attach it as a text file.` };
        }
        return { kind: "ok", block: { type: "text_file", name, mimeType: kind.mimeType, text } };
      }
      default: {
        const never: never = kind.kind;
        return { kind: "error", message: `${name}: unknown kind ${String(never)}` };
      }
    }
  } catch (e) {
    return { kind: "error", message: `${name} could not be attached: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/**
 * Pasted text as a text-file attachment, straight from the string: through a File it was encoded to
 * UTF-8 and decoded back, a megabyte copied twice in the paste's task (issue 24 item 10). The same
 * block a `.txt` file of that text becomes.
 */
export function pastedTextBlock(name: string, text: string): TextFileBlock {
  return { type: "text_file", name, mimeType: "text/plain", text };
}

/**
 * Why `fresh` cannot go to the chat's model after `path` (the path to the new message's parent), in
 * a sentence; null when it can (or when there is no target: the send then fails with the target's
 * own message). What is already in the context counts toward the per-request limits: the context as
 * built, so images folded away by a compaction no longer count.
 */
export function attachmentProblemFor(
  fresh: readonly AttachmentBlock[],
  path: readonly Entry[],
  session: Session | undefined,
): string | null {
  if (fresh.length === 0) return null;
  const target = chatTarget(session, useSettingsStore.getState().settings);
  if (isTargetError(target)) return null;
  const earlier: Block[] = buildCounted(path, { systemPrompt: "", targetApi: target.api }).messages.flatMap((m) =>
    m.role === "user" ? m.content : [],
  );
  return attachmentProblem(fresh, earlier, {
    api: target.api,
    modelLabel: target.model.info.label,
    input: modelInput(target.model.info),
  });
}

/**
 * The data of the images and PDFs in `context` that `target`'s model reads, by blob id. Attachments
 * the model does not read get none: the adapter sends their names instead of failing the request.
 */
export async function attachmentDataFor(context: LlmContext, target: ChatTarget): Promise<AttachmentData | undefined> {
  const input = modelInput(target.model.info);
  const wanted: ContextAttachment[] = [];
  for (const m of context.messages) {
    if (m.role !== "user") continue;
    for (const b of m.content) {
      if ((b.type === "image" && input.images) || (b.type === "document" && input.pdfs)) wanted.push(b);
    }
  }
  if (wanted.length === 0) return undefined;
  return readBlobsBase64(wanted.map((b) => b.blobId));
}
