import { gzipSync } from "node:zlib";
import { writeFileSync } from "node:fs";
import base from "./vite.config";
import type { Plugin, Rolldown } from "vite";

function analyze(): Plugin {
  return {
    name: "analyze",
    apply: "build",
    enforce: "post",
    generateBundle: {
      order: "post",
      handler(_o, bundle) {
        const fs = this.getModuleInfo ? null : null;
        const listed = bundle[".vite/first-screen.json"];
        const files: string[] = listed && listed.type === "asset" ? JSON.parse(String(listed.source)).files : [];
        const rows: Array<[string, string, number, number]> = [];
        for (const f of files) {
          const c = bundle[f];
          if (!c || c.type !== "chunk") continue;
          for (const [id, m] of Object.entries((c as Rolldown.OutputChunk).modules)) {
            const code = (m as { code?: string | null }).code ?? "";
            rows.push([f, id.replace(/.*\/wt-light2\//, ""), m.renderedLength, gzipSync(code).length]);
          }
        }
        rows.sort((a, b) => b[3] - a[3]);
        writeFileSync("/tmp/light2/modules.tsv", rows.map((r) => r.join("\t")).join("\n"));
        // also importers graph
        const graph: Record<string, { imp: string[]; dyn: string[] }> = {};
        for (const id of this.getModuleIds()) {
          const info = this.getModuleInfo(id);
          if (!info) continue;
          graph[id.replace(/.*\/wt-light2\//, "")] = {
            imp: info.importedIds.map((x) => x.replace(/.*\/wt-light2\//, "")),
            dyn: info.dynamicallyImportedIds.map((x) => x.replace(/.*\/wt-light2\//, "")),
          };
        }
        writeFileSync("/tmp/light2/graph.json", JSON.stringify(graph));
      },
    },
  };
}
export default { ...base, plugins: [...(base.plugins ?? []), analyze()] };
