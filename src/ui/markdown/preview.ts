/**
 * Code-block previews (HTML, SVG, Mermaid): which blocks get one, and the document the sandboxed
 * iframe shows. Pure string building; the iframe and the lazy Mermaid render live in
 * CodePreview.tsx.
 *
 * By default a preview runs no script: a `srcdoc` frame with an empty `sandbox` (HTML and SVG still
 * display). "Run scripts" is the user's choice per block; then two walls keep it away from the keys:
 * - the iframe is `sandbox="allow-scripts"` WITHOUT `allow-same-origin`: its document has an opaque
 *   origin, so it cannot touch the app's IndexedDB/localStorage, cookies or DOM, cannot navigate
 *   the top page, submit forms or open popups;
 * - it loads the app's preview page (src/preview-page.ts), served with a policy of its own that
 *   forbids every network load (`default-src 'none'`) but lets inline script run, and the document
 *   is posted to it; the document also starts with that policy as a `<meta>`.
 * (A `srcdoc` would inherit the app's own `script-src 'self'`: the previewed page's scripts would
 * never run.)
 */
import { PREVIEW_CSP } from "../../security-headers";

export type PreviewKind = "html" | "svg" | "mermaid";

/**
 * The iframe's sandbox once the user chose "Run scripts": scripts may run, but never with the app's
 * origin. By default a preview has no scripts at all (PREVIEW_SANDBOX_INERT): the page's CSP stops
 * fetch and images but not WebRTC, and a script once sent the page out in a TURN username (issue 24.3).
 */
export const PREVIEW_SANDBOX = "allow-scripts";

/** The default sandbox: nothing may run (HTML and SVG still display). */
export const PREVIEW_SANDBOX_INERT = "";

/** Which previews can carry script (Mermaid is drawn by the app, never by the model's code). */
export const canRunScripts = (kind: PreviewKind): boolean => kind === "html" || kind === "svg";

/** Which preview a fenced block gets from its language tag (and, for xml, its content). */
export function previewKindOf(language: string | undefined, text: string): PreviewKind | undefined {
  const lang = language?.toLowerCase();
  if (lang === "html" || lang === "htm" || lang === "xhtml") return "html";
  if (lang === "svg") return "svg";
  if (lang === "mermaid" || lang === "mmd") return "mermaid";
  if (lang === "xml" && isSvgMarkup(text)) return "svg";
  return undefined;
}

/** True when the markup's root element is `<svg>` (after an optional XML declaration, doctype, comments). */
export function isSvgMarkup(text: string): boolean {
  const rest = text
    .trimStart()
    .replace(/^<\?xml[\s\S]*?\?>\s*/i, "")
    .replace(/^(?:<!--[\s\S]*?-->\s*|<!doctype[^>]*>\s*)*/i, "");
  return /^<svg[\s>]/i.test(rest);
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/** Base look: follows the user's colour scheme, so a preview in dark mode is not a white flash. */
const BASE_STYLE =
  ":root{color-scheme:light dark}body{margin:8px;font:14px/1.5 system-ui,sans-serif}" +
  "body.grove-figure{display:flex;justify-content:center}body.grove-figure>svg{max-width:100%;height:auto}";

/**
 * The whole `srcdoc` for a preview. `body` is the HTML/SVG markup to show (for Mermaid, the SVG
 * Mermaid rendered). The CSP `<meta>` is the very first element, before any content can run or load.
 */
export function buildSrcdoc(kind: PreviewKind, body: string): string {
  const head =
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(PREVIEW_CSP)}">` +
    '<meta charset="utf-8"><meta name="color-scheme" content="light dark">' +
    `<style>${BASE_STYLE}</style>`;
  if (kind === "html") return `${head}${body}`;
  // An SVG (the user's or Mermaid's) is shown as a centred figure inside an HTML body.
  return `${head}<body class="grove-figure">${body}</body>`;
}

/**
 * The drawing size an `<svg>` root declares (viewBox first, else numeric width/height), so the
 * frame can be sized to a figure from outside: nothing inside the sandbox can report its height.
 */
export function svgIntrinsicSize(markup: string): { width: number; height: number } | undefined {
  const root = /<svg\b[^>]*>/i.exec(markup)?.[0];
  if (!root) return undefined;
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, "i").exec(root)?.[1];
  const box = attr("viewBox")
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (box && box.length === 4 && box.every(Number.isFinite) && (box[2] ?? 0) > 0 && (box[3] ?? 0) > 0) {
    return { width: box[2] ?? 0, height: box[3] ?? 0 };
  }
  const px = (value: string | undefined) =>
    value && /^\s*[\d.]+\s*(px)?\s*$/i.test(value) ? Number.parseFloat(value) : NaN;
  const width = px(attr("width"));
  const height = px(attr("height"));
  return width > 0 && height > 0 ? { width, height } : undefined;
}

/** Frame height (px) for a figure shown in a frame `available` px wide: scaled down to fit, never up. */
export function figureFrameHeight(size: { width: number; height: number }, available: number): number {
  const scale = Math.min(1, available > 0 ? (available - 16) / size.width : 1);
  return Math.ceil(size.height * Math.max(scale, 0) + 16);
}
