/**
 * One request/response pair of the mock, plus the HTTP plumbing every handler shares: CORS headers
 * (on every response, errors and SSE included), JSON and SSE writers that know when the client has gone,
 * and deliberate socket drops. No provider knowledge here.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RecordedRequest } from "./types";

/** Response headers a browser page may read cross-origin (the SDKs read retry-after and request ids). */
const EXPOSED_HEADERS = [
  "retry-after",
  "retry-after-ms",
  "request-id",
  "x-request-id",
  "x-should-retry",
  "anthropic-organization-id",
  "openai-processing-ms",
  "openai-version",
  "x-ratelimit-limit-requests",
  "x-ratelimit-remaining-requests",
  "x-ratelimit-reset-requests",
  "x-ratelimit-limit-tokens",
  "x-ratelimit-remaining-tokens",
  "x-ratelimit-reset-tokens",
].join(", ");

const ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
/** Browsers cache an answered preflight this long (seconds). */
const PREFLIGHT_MAX_AGE_S = 600;

export function corsHeaders(req: IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  return {
    "access-control-allow-origin": typeof origin === "string" && origin !== "" ? origin : "*",
    vary: "Origin",
    "access-control-expose-headers": EXPOSED_HEADERS,
  };
}

/** The answer to an OPTIONS preflight: every requested header and method is allowed. */
export function preflightHeaders(req: IncomingMessage): Record<string, string> {
  const requestedHeaders = req.headers["access-control-request-headers"];
  const requestedMethod = req.headers["access-control-request-method"];
  const headers: Record<string, string> = {
    ...corsHeaders(req),
    "access-control-allow-methods":
      typeof requestedMethod === "string" && !ALLOWED_METHODS.includes(requestedMethod.toUpperCase())
        ? `${ALLOWED_METHODS}, ${requestedMethod}`
        : ALLOWED_METHODS,
    "access-control-allow-headers":
      typeof requestedHeaders === "string" && requestedHeaders.trim() !== "" ? requestedHeaders : "*",
    "access-control-max-age": String(PREFLIGHT_MAX_AGE_S),
    "content-length": "0",
  };
  // Chrome's Private Network Access asks before a public page talks to a loopback server.
  if (req.headers["access-control-request-private-network"] === "true") {
    headers["access-control-allow-private-network"] = "true";
  }
  return headers;
}

export function lowercaseHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

/** Parsed JSON, the raw text when it is not JSON, or null for an empty body. */
export function parseBody(text: string): { value: unknown; isJson: boolean } {
  if (text.trim() === "") return { value: null, isJson: false };
  try {
    return { value: JSON.parse(text) as unknown, isJson: true };
  } catch {
    return { value: text, isJson: false };
  }
}

export class Exchange {
  #lastWrite: Promise<void> = Promise.resolve();
  #closeSeen = false;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    /** Mutated in place as the response progresses (status, outcome); snapshots are copied out. */
    readonly record: RecordedRequest,
  ) {
    res.on("close", () => {
      this.#closeSeen = true;
      if (record.outcome === "pending") record.outcome = res.writableFinished ? "completed" : "client_aborted";
    });
  }

  /** The client went away, or the response is over: nothing more can be written. */
  get closed(): boolean {
    return this.#closeSeen || this.res.writableEnded || this.res.destroyed;
  }

  writeHead(status: number, headers: Record<string, string>): void {
    this.record.status = status;
    this.res.writeHead(status, { ...corsHeaders(this.req), ...headers });
  }

  json(status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (this.closed) return;
    const text = JSON.stringify(body);
    this.writeHead(status, {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(text)),
      ...headers,
    });
    this.res.end(text);
  }

  html(status: number, text: string): void {
    this.writeHead(status, {
      "content-type": "text/html; charset=utf-8",
      "content-length": String(Buffer.byteLength(text)),
    });
    this.res.end(text);
  }

  /** Open an SSE response and push the headers out now, so the client sees the stream start. */
  startSse(headers: Record<string, string>): void {
    this.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      ...headers,
    });
    this.res.socket?.setNoDelay(true);
    this.res.flushHeaders();
  }

  write(text: string): void {
    if (this.closed) return;
    this.#lastWrite = new Promise((resolve) => {
      this.res.write(text, () => resolve());
    });
  }

  end(): void {
    if (!this.closed) this.res.end();
  }

  /** Destroy the socket mid-response, after what was already written has reached the kernel. */
  async drop(): Promise<void> {
    await this.#lastWrite;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.destroy();
  }

  /** Destroy the socket now (reset/close with a response in flight). */
  destroy(): void {
    if (this.record.outcome === "pending") this.record.outcome = "dropped";
    this.res.destroy();
    this.req.socket.destroy();
  }

  /** Resolves when the response closes (client abort, drop, reset or server close). */
  waitClosed(): Promise<void> {
    if (this.#closeSeen || this.res.destroyed) return Promise.resolve();
    return new Promise((resolve) => this.res.once("close", () => resolve()));
  }

  /** Sleep, waking early if the response closes meanwhile. */
  sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.res.off("close", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.res.once("close", done);
    });
  }
}
