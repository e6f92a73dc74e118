/**
 * The files a mock code execution "produced" (issue 28): Anthropic's Files API
 * (`GET /v1/files/{id}` metadata, `GET /v1/files/{id}/content`, beta `files-api-2025-04-14` required)
 * and OpenAI's container files (`GET /v1/containers/{container}/files/{file}/content`). A file's
 * bytes and name follow from its id (the specs compute what to expect; an id ending in `png` is the
 * bar chart of png.ts, served as `image/png`); an id containing `flaky`
 * answers its first download with a 404 and the next ones with its bytes (Retry). Every request is
 * recorded like any other (the specs check the key header went there).
 */
import type { Exchange } from "./exchange";
import { CHART_PNG } from "./png";

export const FILES_BETA = "files-api-2025-04-14";

/** What the mock serves for file `id` (not a chart). */
export const producedFileText = (id: string): string => `Produced by the mock's code execution: ${id}\n`;

/** Whether file `id` is the mock's bar chart (an id or name ending in `png`: `file_chart_png`, `cfile_chart.png`). */
export const isChartId = (id: string): boolean => /[._]png$/.test(id);

/** Anthropic's file name for `id` (its metadata's `filename`): `file_report` → `report.txt`, `file_chart_png` → `chart.png`. */
export const producedFileName = (id: string): string =>
  isChartId(id) ? `${id.replace(/^file_/, "").replace(/_png$/, "")}.png` : `${id.replace(/^file_/, "")}.txt`;

/** The bytes and type the mock serves for file `id`. */
const producedFile = (id: string): { body: Buffer; type: string } =>
  isChartId(id)
    ? { body: CHART_PNG, type: "image/png" }
    : { body: Buffer.from(producedFileText(id)), type: "text/plain" };

/** Flaky ids already failed once (per server; cleared on reset). */
export type FlakyFiles = Set<string>;

function sendBytes(ex: Exchange, id: string): void {
  const { body, type } = producedFile(id);
  ex.writeHead(200, { "content-type": type, "content-length": String(body.length) });
  ex.res.end(body);
}

/** Whether this download of `id` fails (the first of a flaky id). */
function failsNow(id: string, flaky: FlakyFiles): boolean {
  if (!id.includes("flaky") || flaky.has(id)) return false;
  flaky.add(id);
  return true;
}

/** Anthropic `/v1/files/...` GETs; false when `route` is not one. */
export function handleAnthropicFile(ex: Exchange, route: string, flaky: FlakyFiles): boolean {
  const m = /^\/v1\/files\/([^/]+)(\/content)?$/.exec(route);
  if (ex.record.method !== "GET" || !m?.[1]) return false;
  const id = decodeURIComponent(m[1]);
  const error = (status: number, type: string, message: string) =>
    ex.json(status, { type: "error", error: { type, message } });
  if (!(ex.record.headers["anthropic-beta"] ?? "").split(",").includes(FILES_BETA)) {
    error(400, "invalid_request_error", `the Files API needs the anthropic-beta header ${FILES_BETA}`);
    return true;
  }
  if (!m[2]) {
    const { body, type } = producedFile(id);
    ex.json(200, {
      id,
      type: "file",
      filename: producedFileName(id),
      mime_type: type,
      size_bytes: body.length,
      created_at: "2026-11-28T00:00:00Z",
      downloadable: true,
    });
    return true;
  }
  if (failsNow(id, flaky)) error(404, "not_found_error", `File not found: ${id}`);
  else sendBytes(ex, id);
  return true;
}

/** OpenAI `/v1/containers/{c}/files/{f}/content` GETs; false when `route` is not one. */
export function handleOpenAIContainerFile(ex: Exchange, route: string, flaky: FlakyFiles): boolean {
  const m = /^\/v1\/containers\/([^/]+)\/files\/([^/]+)\/content$/.exec(route);
  if (ex.record.method !== "GET" || !m?.[2]) return false;
  const id = decodeURIComponent(m[2]);
  if (failsNow(id, flaky))
    ex.json(404, { error: { message: `No such file: ${id}`, type: "invalid_request_error", param: null, code: null } });
  else sendBytes(ex, id);
  return true;
}
