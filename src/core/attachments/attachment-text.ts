/**
 * Attachments as text, in one place: the label that names an image or a PDF wherever its pixels or
 * pages are not sent (the summarizer, a provider that gets no data for it, Markdown), and the fenced
 * form a text file is sent as. Pure: no I/O.
 */
import { fenceFor } from "../markdown-fence";
import type { DocumentBlock, ImageBlock, TextFileBlock } from "../session/entries";

/** `[image: name.png]`, `[PDF: report.pdf]`; `[image]` for an image stored without a name. */
export function attachmentLabel(block: ImageBlock | DocumentBlock): string {
  if (block.type === "document") return `[PDF: ${block.name}]`;
  return block.name ? `[image: ${block.name}]` : "[image]";
}

/** The file's language for the fence (a hint to the model and to Markdown renderers), from its name. */
export function fenceLanguage(name: string): string {
  const ext = /\.([A-Za-z0-9+#-]{1,12})$/.exec(name)?.[1]?.toLowerCase() ?? "";
  return ext === "txt" ? "text" : ext || "text";
}

/**
 * A text file as the model reads it: its name, then its text in a fence longer than any backtick run
 * inside (so the file's own fences cannot close it).
 */
export function textFileText(block: Pick<TextFileBlock, "name" | "text">): string {
  const fence = fenceFor(block.text);
  return `${block.name}:\n${fence}${fenceLanguage(block.name)}\n${block.text}\n${fence}`;
}
