/**
 * What the first screen downloads before it can render, raw and gzip-compressed: the files the
 * build lists in `.vite/first-screen.json` (vite.config.ts, firstScreenFiles: index.html's script
 * with its static imports and stylesheets, and the parts src/main.tsx imports at start, each with
 * its static imports). Without that list (an older build): index.html's script, the chunks it
 * names for preload and its stylesheets. Chunks loaded on demand (Markdown, graph, settings,
 * providers, …) are not counted.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const FIRST_SCREEN_FILE = ".vite/first-screen.json";

function listedFiles(outDir) {
  const listed = join(outDir, FIRST_SCREEN_FILE);
  if (existsSync(listed)) return JSON.parse(readFileSync(listed, "utf8")).files.map((f) => `/${f}`);
  const html = readFileSync(join(outDir, "index.html"), "utf8");
  return [
    ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1]);
}

export function entrySize(outDir) {
  const files = [...new Set(listedFiles(outDir))].map((ref) => {
    const bytes = readFileSync(join(outDir, ref.replace(/^\//, "")));
    return { file: ref, raw: bytes.length, gzip: gzipSync(bytes).length };
  });
  const sum = (key) => files.reduce((n, f) => n + f[key], 0);
  const js = files.filter((f) => f.file.endsWith(".js"));
  return { files, raw: sum("raw"), gzip: sum("gzip"), jsGzip: js.reduce((n, f) => n + f.gzip, 0) };
}
