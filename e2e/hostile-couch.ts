/**
 * A hostile (or broken) CouchDB-protocol server for the sync security specs: a proxy on 127.0.0.1
 * (a free port) in front of the real pouchdb-server (sync-server.ts) that passes everything through
 * until a test sets what it does instead. It records every request (method, path, whether it carried
 * credentials). CORS is answered like pouchdb-server's own (scripts/couch-server.mjs).
 *
 * @example
 * const hostile = await startHostileCouch(couch.url);
 * hostile.set({ kind: "salt", iterations: 1 }); // the salt document asks for 1 iteration
 * hostile.set({ kind: "html" }); // a web page for every request
 * hostile.set({ kind: "refuse-writes", reason: "Only admins may write here" }); // 403 per document
 * hostile.set({ kind: "stall" }); // never answers (until set again)
 * hostile.set({ kind: "pass" });
 * await hostile.close();
 */
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import { freePort } from "../scripts/free-port.mjs";
import { keepIdleConnections } from "../scripts/keep-idle-connections.mjs";

export type HostileMode =
  | { kind: "pass" }
  | { kind: "html" }
  /** The salt document's `iterations` replaced (any JSON value). */
  | { kind: "salt"; iterations: unknown }
  /** Every document write refused as CouchDB's validation does: 403 per document in `_bulk_docs`. */
  | { kind: "refuse-writes"; reason: string }
  /** Every request held, unanswered, until the mode changes. */
  | { kind: "stall" }
  /** Every request answered with this status and a CouchDB error body whose reason is `reason`. */
  | { kind: "error"; status: number; reason: string };

export type SeenRequest = { method: string; path: string; authorized: boolean };

export type HostileCouch = {
  /** The proxy's base URL (http://127.0.0.1:port). */
  url: string;
  port: number;
  set(mode: HostileMode): void;
  requests: SeenRequest[];
  close(): Promise<void>;
};

const CORS_HEADERS = "accept, authorization, content-type, origin, referer";

function cors(req: IncomingMessage): Record<string, string> {
  return {
    "access-control-allow-origin": req.headers.origin ?? "*",
    "access-control-allow-credentials": "true",
    "access-control-allow-methods": "GET, PUT, POST, HEAD, DELETE",
    "access-control-allow-headers": CORS_HEADERS,
  };
}

function json(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { ...cors(req), "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Forwards the request to `target`; `rewrite` may change a JSON answer. */
function forward(
  target: URL,
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  rewrite?: (value: unknown) => unknown,
): void {
  const upstream = request(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, host: target.host, "content-length": String(body.length) },
    },
    (answer) => {
      if (!rewrite) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      void readBody(answer).then((raw) => {
        let text = raw.toString("utf8");
        try {
          text = JSON.stringify(rewrite(JSON.parse(text)));
        } catch {
          // Not JSON: passed through as it came.
        }
        const headers = { ...answer.headers, "content-length": String(Buffer.byteLength(text)) };
        delete headers["transfer-encoding"];
        res.writeHead(answer.statusCode ?? 502, headers);
        res.end(text);
      });
    },
  );
  upstream.on("error", () => {
    if (!res.headersSent) json(req, res, 502, { error: "bad_gateway", reason: "upstream down" });
    else res.destroy();
  });
  upstream.end(body);
}

export async function startHostileCouch(targetUrl: string): Promise<HostileCouch> {
  const target = new URL(targetUrl);
  const port = await freePort();
  let mode: HostileMode = { kind: "pass" };
  const held: ServerResponse[] = [];
  const requests: SeenRequest[] = [];

  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      requests.push({ method: req.method ?? "GET", path, authorized: Boolean(req.headers.authorization) });
      if (req.method === "OPTIONS") {
        res.writeHead(204, cors(req));
        res.end();
        return;
      }
      switch (mode.kind) {
        case "pass":
          return forward(target, req, res, body);
        case "html":
          res.writeHead(200, { ...cors(req), "content-type": "text/html" });
          res.end("<!doctype html><html><body><h1>Welcome to our portal</h1></body></html>");
          return;
        case "stall":
          held.push(res);
          return;
        case "error":
          return json(req, res, mode.status, { error: "unknown_error", reason: mode.reason });
        case "salt": {
          const iterations = mode.iterations;
          if (req.method === "GET" && path.endsWith("/grove-sync-salt")) {
            return forward(target, req, res, body, (doc) => ({ ...(doc as object), iterations }));
          }
          return forward(target, req, res, body);
        }
        case "refuse-writes": {
          const reason = mode.reason;
          const isLocal = path.includes("/_local/");
          if (req.method === "POST" && path.endsWith("/_bulk_docs")) {
            const docs = (JSON.parse(body.toString("utf8") || "{}") as { docs?: Array<{ _id?: string }> }).docs ?? [];
            return json(
              req,
              res,
              201,
              docs.map((d) => ({ id: d._id, error: "forbidden", reason })),
            );
          }
          // Validation never applies to _local documents (replication checkpoints).
          if (req.method === "PUT" && !isLocal && path.split("/").length > 2) {
            return json(req, res, 403, { error: "forbidden", reason });
          }
          return forward(target, req, res, body);
        }
      }
    })();
  });
  keepIdleConnections(server);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));

  const release = () => {
    for (const res of held.splice(0)) res.destroy();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    set(next) {
      if (mode.kind === "stall" && next.kind !== "stall") release();
      mode = next;
    },
    async close() {
      release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
