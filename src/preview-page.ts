/**
 * The code-block preview page (served at PREVIEW_PAGE_PATH, see security-headers.ts): a blank
 * document whose one inline script waits for the document to show, posted by the app (the
 * parent window), and writes it in with `document.open/write`, so the previewed HTML's own
 * scripts run — under this page's policy, which has no network and, in the app's sandboxed
 * iframe, an opaque origin. Only a message from the parent window is taken, and only the first.
 *
 * Pure string building: imported by vite.config.ts (served in dev and preview, emitted at build).
 */
import { PREVIEW_CSP } from "./security-headers";

/** The message the app posts to the preview frame. */
export type PreviewMessage = { type: "grove-preview"; document: string };

const BOOTSTRAP = `addEventListener("message", function show(event) {
  var data = event.data;
  if (event.source !== parent || !data || data.type !== "grove-preview" || typeof data.document !== "string") return;
  removeEventListener("message", show);
  document.open();
  document.write(data.document);
  document.close();
});`;

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

export function previewPageHtml(): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(PREVIEW_CSP)}">`,
    '<meta charset="utf-8">',
    '<meta name="color-scheme" content="light dark">',
    "<title>Preview</title>",
    "</head>",
    `<body><script>${BOOTSTRAP}</script></body>`,
    "</html>",
    "",
  ].join("\n");
}
