/** The exporters, gathered for one dynamic import (see export.ts). */
export { exportGroveJson } from "../../core/export/grove-json";
export { exportHtml } from "../../core/export/html";
export { exportMarkdown } from "../../core/export/markdown";
export { exportPiJsonl } from "../../core/export/pi/export";
