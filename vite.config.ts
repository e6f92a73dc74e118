import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { type Connect, defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { previewPageHtml } from "./src/preview-page";
import { pwaOptions } from "./src/pwa-options";
import {
  contentSecurityPolicy,
  hostingHeadersFile,
  PREVIEW_PAGE_PATH,
  previewPageHeaders,
  securityHeaders,
} from "./src/security-headers";

/**
 * The built app carries its Content-Security-Policy twice (src/security-headers.ts says why):
 * a `<meta>` first in index.html, for any static host, and a `_headers` file beside it, for hosts
 * that read one. Build only: in dev the policy comes as headers (React Refresh needs an inline script).
 */
function securityPolicy(): Plugin {
  return {
    name: "grove-security-policy",
    apply: "build",
    transformIndexHtml: () => [
      {
        tag: "meta",
        attrs: { "http-equiv": "Content-Security-Policy", content: contentSecurityPolicy("build") },
        injectTo: "head-prepend",
      },
    ],
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "_headers", source: hostingHeadersFile() });
    },
  };
}

/**
 * The code-block preview page (src/preview-page.ts) with its own policy instead of the app's:
 * emitted into the build, and answered by the dev and preview servers before their static files
 * (which would send the app-wide headers).
 */
function previewPage(): Plugin {
  const serve: Connect.NextHandleFunction = (req, res, next) => {
    if (req.url?.split(/[?#]/)[0] !== PREVIEW_PAGE_PATH) return next();
    for (const [name, value] of Object.entries(previewPageHeaders())) res.setHeader(name, value);
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Cache-Control", "no-cache");
    res.end(previewPageHtml());
  };
  return {
    name: "grove-preview-page",
    configureServer: (server) => void server.middlewares.use(serve),
    configurePreviewServer: (server) => void server.middlewares.use(serve),
    generateBundle() {
      this.emitFile({ type: "asset", fileName: PREVIEW_PAGE_PATH.slice(1), source: previewPageHtml() });
    },
  };
}

export default defineConfig({
  plugins: [react(), securityPolicy(), previewPage(), VitePWA(pwaOptions)],
  worker: { format: "es" },
  // PouchDB (sync) imports Node's `events`; browsers have none (src/db/sync/events-shim.ts).
  resolve: { alias: { events: fileURLToPath(new URL("./src/db/sync/events-shim.ts", import.meta.url)) } },
  server: { port: 5173, headers: securityHeaders("dev") },
  preview: { port: 4173, headers: securityHeaders("build") },
});
