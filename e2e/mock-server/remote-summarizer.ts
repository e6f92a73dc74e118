/**
 * A remote summarizer (seed 002 `compaction.remoteEndpoint`) as Grove calls it: `POST
 * /remote-summarizer` with JSON `{ systemPrompt, prompt }`, answered `{ summary }`. The request is
 * recorded like provider traffic (api null), so tests read exactly what Grove sent and which
 * headers it carried. `MockConfig.remoteSummarizer` picks a failure mode: `http-500`, `bad-json`,
 * `no-summary`, or `no-cors` (the answer lacks CORS headers, so the browser's fetch fails with a
 * TypeError as for a server that does not allow the page).
 */
import type { Exchange } from "./exchange";
import type { HandlerContext } from "./handler-context";
import { isRecord } from "./wire";

export const REMOTE_SUMMARIZER_PATH = "/remote-summarizer";

export function handleRemoteSummarizer(ex: Exchange, ctx: HandlerContext): void {
  const config = ctx.config();
  if (ex.record.method !== "POST") {
    ex.json(405, { error: "POST only" });
    return;
  }
  const body = ex.record.body;
  if (!isRecord(body) || typeof body.systemPrompt !== "string" || typeof body.prompt !== "string") {
    ex.json(400, { error: "expected JSON { systemPrompt, prompt }" });
    return;
  }
  switch (config.remoteSummarizer) {
    case "http-500":
      ex.json(500, { error: "remote summarizer is down" });
      return;
    case "bad-json":
      ex.record.status = 200;
      ex.res.writeHead(200, { "content-type": "application/json", "access-control-allow-origin": "*" });
      ex.res.end("{ not json");
      return;
    case "no-summary":
      ex.json(200, { text: "no summary field" });
      return;
    case "no-cors": {
      const text = JSON.stringify({ summary: config.remoteSummary });
      ex.record.status = 200;
      ex.res.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) });
      ex.res.end(text);
      return;
    }
    case "ok":
      ex.json(200, { summary: config.remoteSummary, model: "mock-remote-summarizer" });
      return;
  }
}
