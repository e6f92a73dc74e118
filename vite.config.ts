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
 * React's renderer is all called on the first render, but V8 compiles a function only when it is
 * first called, on the main thread: the bundler wraps react-dom's CommonJS body in one function, so
 * its whole compile (about 200 kB) landed in the task that evaluated the chunk, 51–60 ms on a loaded
 * 2-core machine. The explicit compile hint (Chrome 136+; a comment, ignored elsewhere) makes V8
 * compile the chunk's functions eagerly while it streams the script, off the main thread. It must be
 * the file's first line.
 */
function eagerCompileRenderer(): Plugin {
  const RENDERER = /[\\/]react-dom[\\/]cjs[\\/]react-dom-client\.production\.js$/;
  const HINT = "//# allFunctionsCalledOnLoad\n";
  const isRenderer = (chunk: Rolldown.RenderedChunk) => chunk.moduleIds.some((id) => RENDERER.test(id));
  return {
    name: "grove-eager-compile-renderer",
    apply: "build",
    // The minifier drops comments after renderChunk, so the hint goes in once the bundle is final;
    // the file name's hash says it is there.
    augmentChunkHash: (chunk) => (isRenderer(chunk) ? HINT : undefined),
    generateBundle: {
      order: "post",
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type === "chunk" && isRenderer(chunk)) chunk.code = HINT + chunk.code;
        }
      },
    },
  };
}

/**
 * The first screen's code in fewer files. Left to the automatic splitting, every module the first
 * screen shares with a chunk loaded on demand was a small file of its own, compressed on its own
 * (thirty-odd files; about 6 kB gzip more than the same code in a few). Three groups:
 * - `index`: what index.html's script imports statically. All of it is fetched and evaluated
 *   before the entry runs anyway, in one task.
 * - `first-screen-shared`: the rest of the first screen's own code (the parts src/main.tsx
 *   imports, a part per task) that is not one part's alone; evaluated with the first part that
 *   needs it. What only one part uses stays in that part's chunk: the parts keep their own tasks.
 * - `first-screen-libs`: the same for libraries, apart, so React's renderer (the first part) brings
 *   only its own few (react-dom's index), not the app's shared code.
 * Nothing loaded on demand joins a group, so the first screen fetches nothing more; a chunk loaded
 * later that needs a grouped module imports the group, already there.
 */
function firstScreenChunks(): Rolldown.CodeSplittingGroup[] {
  let groupOf: Map<string, string> | null = null;
  const closure = (ctx: Rolldown.ChunkingContext, from: string): Set<string> => {
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
  const groups = (ctx: Rolldown.ChunkingContext): Map<string, string> => {
    const root = `${import.meta.dirname}/index.html`;
    // Every chunk entry: index.html and each module something imports dynamically.
    const entries = [root];
    const seen = new Set<string>([root]);
    const queue = [root];
    for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
      const info = ctx.getModuleInfo(id);
      for (const next of info?.dynamicallyImportedIds ?? []) if (!entries.includes(next)) entries.push(next);
      for (const next of [...(info?.importedIds ?? []), ...(info?.dynamicallyImportedIds ?? [])]) {
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    const entryClosure = closure(ctx, root);
    const main = [...entryClosure].find((id) => id.endsWith("/src/main.tsx"));
    const parts = main ? (ctx.getModuleInfo(main)?.dynamicallyImportedIds ?? []) : [];
    const firstScreen = new Set(parts.flatMap((part) => [...closure(ctx, part)]));
    // Which entries reach each first-screen module: the automatic splitting puts the modules reached
    // by the same entries as a part into that part's chunk, and each other set into a chunk of its own.
    const reachedBy = new Map<string, string>();
    entries.forEach((entry, n) => {
      for (const id of closure(ctx, entry)) {
        if (firstScreen.has(id)) reachedBy.set(id, `${reachedBy.get(id) ?? ""},${n}`);
      }
    });
    const partSets = new Set(parts.map((part) => reachedBy.get(part)));
    const out = new Map<string, string>();
    for (const id of entryClosure) out.set(id, "index");
    for (const [id, set] of reachedBy) {
      if (partSets.has(set) || out.has(id)) continue;
      out.set(id, id.includes("/node_modules/") ? "first-screen-libs" : "first-screen-shared");
    }
    return out;
  };
  const group = (name: string, priority: number): Rolldown.CodeSplittingGroup => ({
    name: (id, ctx) => {
      groupOf ??= groups(ctx);
      return groupOf.get(id) === name ? name : null;
    },
    priority,
  });
  return [group("index", 3), group("first-screen-libs", 2), group("first-screen-shared", 1)];
}

export default defineConfig({
  plugins: [react(), securityPolicy(), previewPage(), firstScreenFiles(), eagerCompileRenderer(), VitePWA(pwaOptions)],
  worker: { format: "es", plugins: () => [workerSafeExports()] },
  build: {
    rolldownOptions: { output: { codeSplitting: { groups: firstScreenChunks() } } },
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
