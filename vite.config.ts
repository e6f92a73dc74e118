import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { contentSecurityPolicy, hostingHeadersFile, securityHeaders } from "./src/security-headers";

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

export default defineConfig({
  plugins: [react(), securityPolicy()],
  worker: { format: "es" },
  // PouchDB (sync) imports Node's `events`; browsers have none (src/db/sync/events-shim.ts).
  resolve: { alias: { events: fileURLToPath(new URL("./src/db/sync/events-shim.ts", import.meta.url)) } },
  server: { port: 5173, headers: securityHeaders("dev") },
  preview: { port: 4173, headers: securityHeaders("build") },
});
