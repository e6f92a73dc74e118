import react from "@vitejs/plugin-react";
import { type Connect, defineConfig, type Plugin, type Rolldown } from "vite";
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
 * Workers have no DOM. A package whose "browser" export builds on `document` is given, inside a
 * worker, the export it publishes for workers: decode-named-character-reference (micromark, in
 * the transfer worker's HTML export) creates an element as it loads.
 */
function workerSafeExports(): Plugin {
  const DOM_ONLY = /[\\/]decode-named-character-reference[\\/]index\.dom\.js$/;
  return {
    name: "grove-worker-safe-exports",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (source !== "decode-named-character-reference") return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && DOM_ONLY.test(resolved.id)
        ? { ...resolved, id: resolved.id.replace(/index\.dom\.js$/, "index.js") }
        : resolved;
    },
  };
}

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

/** Where the build lists the first screen's files (bench/lib/entry-size.mjs reads it). */
const FIRST_SCREEN_FILE = ".vite/first-screen.json";

/**
 * The files a fresh tab loads before its first screen can render: index.html's script with its
 * static imports and stylesheets, and the parts src/main.tsx imports at start, each with its static
 * imports (main.tsx evaluates them a part per task). index.html gets a modulepreload link for each
 * part's scripts too, so they are fetched at once, in parallel, not one part after the other; and
 * the list is written to `.vite/first-screen.json` for the bench. Chunks loaded on demand
 * (Markdown, the graph, Settings…) are in neither.
 */
function firstScreenFiles(): Plugin {
  return {
    name: "grove-first-screen-files",
    apply: "build",
    enforce: "post",
    generateBundle: {
      // After Vite has written index.html and dropped the chunks that held only CSS.
      order: "post",
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === "chunk");
        const entry = chunks.find((c) => c.isEntry && c.facadeModuleId?.endsWith("/index.html"));
        const main = entry?.moduleIds.find((id) => id.endsWith("/src/main.tsx"));
        const html = bundle["index.html"];
        if (!entry || !main || html?.type !== "asset") return;
        const files = new Set<string>();
        const add = (chunk: Rolldown.OutputChunk | undefined) => {
          if (!chunk || files.has(chunk.fileName)) return;
          files.add(chunk.fileName);
          for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
          for (const name of chunk.imports) add(chunks.find((c) => c.fileName === name));
        };
        add(entry);
        const named = new Set(files);
        for (const id of this.getModuleInfo(main)?.dynamicallyImportedIds ?? [])
          add(chunks.find((c) => c.moduleIds.includes(id)));
        const preloads = [...files]
          .filter((f) => f.endsWith(".js") && !named.has(f))
          .map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`)
          .join("\n    ");
        html.source = String(html.source).replace("</head>", `    ${preloads}\n  </head>`);
        this.emitFile({ type: "asset", fileName: FIRST_SCREEN_FILE, source: JSON.stringify({ files: [...files] }) });
      },
    },
  };
}

/**
 * The modules index.html's script imports statically, as one chunk. They are all fetched and
 * evaluated before the entry runs anyway (one task); left to the automatic splitting, those that a
 * chunk loaded on demand shares were twenty-odd small files, each compressed on its own (about
 * 4 kB gzip more than the same code in one file). The parts src/main.tsx imports later keep their
 * own chunks (each is evaluated in a task of its own).
 */
function entryClosureChunk(): Rolldown.CodeSplittingGroup {
  let closure: Set<string> | null = null;
  const staticClosure = (ctx: Rolldown.ChunkingContext, from: string): Set<string> => {
    const seen = new Set<string>([from]);
    const queue = [from];
    for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
      for (const next of ctx.getModuleInfo(id)?.importedIds ?? []) {
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    return seen;
  };
  return {
    name: (id, ctx) => {
      closure ??= staticClosure(ctx, `${import.meta.dirname}/index.html`);
      return closure.has(id) ? "index" : null;
    },
  };
}

export default defineConfig({
  plugins: [react(), securityPolicy(), previewPage(), firstScreenFiles(), VitePWA(pwaOptions)],
  worker: { format: "es", plugins: () => [workerSafeExports()] },
  build: {
    rolldownOptions: { output: { codeSplitting: { groups: [entryClosureChunk()] } } },
    modulePreload: {
      // A chunk loaded on demand brings its stylesheets (the loader must add those), but no
      // modulepreload link for each of its JavaScript dependencies: adding them was main-thread work
      // in the task that asked (tens of ms for the reply code's dozens of chunks in a fresh tab),
      // where the browser finds the same imports itself when the chunk arrives (from the service
      // worker's cache, one short round trip per level). index.html keeps its preloads.
      resolveDependencies: (_file, deps, { hostType }) =>
        hostType === "html" ? deps : deps.filter((dep) => dep.endsWith(".css")),
    },
  },
  server: { port: 5173, headers: securityHeaders("dev") },
  preview: { port: 4173, headers: securityHeaders("build") },
});
