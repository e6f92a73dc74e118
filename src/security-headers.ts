/**
 * The app's Content-Security-Policy and companion headers, written once and shipped three ways
 * (vite.config.ts): as a `<meta>` in the built index.html (any static host), as HTTP headers from
 * `vite preview` / `vite dev`, and as a `_headers` file next to the build (Netlify, Cloudflare Pages).
 * The headers matter: workers (compaction, transfer) take the policy of their own script's
 * response, never the page's `<meta>`, and `frame-ancestors` works only as a header.
 *
 * connect-src cannot name the configured provider hosts: a `<meta>` policy is fixed when the page
 * loads (a later one can only narrow it, so a newly added provider would need a reload), the
 * workers' policy comes from static headers that cannot know a user's settings, and a user may
 * point a provider at any https host or a confirmed plain-http server on the LAN. So it allows
 * http(s) and nothing else (no ws:, data:, blob: connections); which host gets which key is
 * enforced in the app (providers/endpoint.ts, Settings commits a key with its base URL).
 * img-src has no remote hosts: a model's Markdown image (or injected markup) cannot beacon out.
 *
 * Pure data and string building: imported by vite.config.ts (Node) and by tests.
 */

export type CspMode = "build" | "dev";

/** Directives as name → sources. */
function directives(mode: CspMode): Array<[string, string[]]> {
  return [
    ["default-src", ["'self'"]],
    // Dev only: @vitejs/plugin-react puts the React Refresh preamble inline in index.html.
    ["script-src", mode === "dev" ? ["'self'", "'unsafe-inline'"] : ["'self'"]],
    // React sets style attributes through the CSSOM (allowed); dev injects <style> tags. Remote CSS
    // cannot leak anything: url() loads are img-src / font-src, which stay on this origin.
    ["style-src", ["'self'", "'unsafe-inline'"]],
    ["img-src", ["'self'", "data:", "blob:"]],
    ["font-src", ["'self'", "data:"]],
    // Dev: Vite's HMR socket.
    ["connect-src", mode === "dev" ? ["'self'", "https:", "http:", "ws:", "wss:"] : ["'self'", "https:", "http:"]],
    ["worker-src", ["'self'"]],
    ["manifest-src", ["'self'"]],
    ["media-src", ["'none'"]],
    ["object-src", ["'none'"]],
    // Code-block previews: the app's own /preview.html only (see previewPageHeaders).
    ["frame-src", ["'self'"]],
    ["base-uri", ["'none'"]],
    ["form-action", ["'none'"]],
  ];
}

function serialize(list: Array<[string, string[]]>): string {
  return list.map(([name, sources]) => `${name} ${sources.join(" ")}`).join("; ");
}

/** The policy for a `<meta http-equiv>` (frame-ancestors is ignored there, with a console warning). */
export function contentSecurityPolicy(mode: CspMode = "build"): string {
  return serialize(directives(mode));
}

/** The policy as an HTTP header: the meta policy plus what only a header can say. */
export function contentSecurityPolicyHeader(mode: CspMode = "build"): string {
  return serialize([...directives(mode), ["frame-ancestors", ["'none'"]]]);
}

/** Every security header the app's responses carry. */
export function securityHeaders(mode: CspMode = "build"): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicyHeader(mode),
    // The app's URL (and so a chat id) is nobody's business: providers get no Referer.
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
  };
}

/**
 * The page that shows a code-block preview (issue 11): the model's HTML runs there, scripts and
 * all, but with no network at all (`default-src 'none'`: no fetch, beacon, frame, font or remote
 * image) and, because the iframe is `sandbox="allow-scripts"` without `allow-same-origin`, with an
 * opaque origin (no IndexedDB, storage, cookies, or access to the app's window). Its document is
 * also the first element of every previewed document, as a `<meta>`.
 */
export const PREVIEW_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; form-action 'none'; base-uri 'none'";

/** Where the preview page is served (a path of its own: it needs a policy of its own). */
export const PREVIEW_PAGE_PATH = "/preview.html";

/**
 * Headers for the preview page, replacing the app's: its inline scripts must run (the app's
 * `script-src 'self'` would stop them), and only the app itself may frame it.
 */
export function previewPageHeaders(): Record<string, string> {
  return {
    "Content-Security-Policy": `${PREVIEW_CSP}; frame-ancestors 'self'`,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
  };
}

/**
 * A `_headers` file (Netlify / Cloudflare Pages syntax) applying the headers to every path, and
 * the preview page's own policy to it. `! Content-Security-Policy` detaches the app-wide policy
 * there (Cloudflare Pages syntax); a host that merges the two instead enforces both, and the
 * preview then shows nothing (its bootstrap script is blocked): it fails closed.
 */
export function hostingHeadersFile(): string {
  const lines = Object.entries(securityHeaders("build")).map(([name, value]) => `  ${name}: ${value}`);
  const preview = Object.entries(previewPageHeaders()).map(([name, value]) => `  ${name}: ${value}`);
  return `/*\n${lines.join("\n")}\n\n${PREVIEW_PAGE_PATH}\n  ! Content-Security-Policy\n${preview.join("\n")}\n`;
}
