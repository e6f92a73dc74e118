/**
 * One side request from the main thread (Check memory): a context sent to a model, its whole text
 * and the usage the provider reported, never shown as a reply and never stored in the tree. The
 * images and PDFs the context names are read here, as the send path reads them.
 */
import type { LlmContext } from "../../core/session/context";
import type { Usage } from "../../core/session/entries";
import type { AttachmentData } from "../../providers/attachment-data";
import { stream as providerStream } from "../../providers/registry";
import type { ProviderConfig, StreamFn } from "../../providers/types";

export type SideRequest = {
  readonly provider: ProviderConfig;
  readonly model: string;
  readonly context: LlmContext;
  readonly maxOutputTokens: number;
  readonly attachments?: AttachmentData;
};

export type SideAnswer = { readonly text: string; readonly usage?: Usage };

/** Sends `req` (no thinking, no tools) and resolves with its text; a failed request rejects with its error. */
export async function askModel(req: SideRequest, stream: StreamFn = providerStream): Promise<SideAnswer> {
  const controller = new AbortController();
  let text = "";
  for await (const event of stream({
    provider: req.provider,
    model: req.model,
    context: req.context,
    maxOutputTokens: req.maxOutputTokens,
    thinking: { kind: "off" },
    signal: controller.signal,
    ...(req.attachments ? { attachments: req.attachments } : {}),
  })) {
    if (event.type === "text_delta") text += event.delta;
    else if (event.type === "done") return { text, ...(event.partial.usage ? { usage: event.partial.usage } : {}) };
    else if (event.type === "error") throw event.error;
  }
  throw new Error("The side request ended without a final event.");
}
