/**
 * What the first screen downloads before it can run: the entry script of the built index.html, the
 * chunks it names for preload (its static imports) and its stylesheets, raw and gzip-compressed.
 * Lazily imported chunks (Markdown, graph, settings, providers, …) are not counted.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export function entrySize(outDir) {
  const html = readFileSync(join(outDir, "index.html"), "utf8");
  const refs = [
    ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1]);
  const files = [...new Set(refs)].map((ref) => {
    const bytes = readFileSync(join(outDir, ref.replace(/^\//, "")));
    return { file: ref, raw: bytes.length, gzip: gzipSync(bytes).length };
  });
  const sum = (key) => files.reduce((n, f) => n + f[key], 0);
  const js = files.filter((f) => f.file.endsWith(".js"));
  return { files, raw: sum("raw"), gzip: sum("gzip"), jsGzip: js.reduce((n, f) => n + f.gzip, 0) };
}
