/**
 * A scripted `fetch` for adapter tests: each call takes the next reply from a queue and answers
 * with a real `Response` whose body is a ReadableStream of hand-written wire text (SSE for
 * streams, JSON for errors), so the SDKs parse exactly what a server would send.
 * Test support only; nothing in the app imports it.
 */

export type FakeReply = {
  status?: number;
  headers?: Record<string, string>;
  /** Body pieces, enqueued one by one (an SSE event may be split across pieces). */
  chunks?: string[];
  /** After the chunks: close (default), fail like a dropped socket, or stay open until aborted. */
  end?: "close" | "drop" | "hang";
};

type RecordedRequest = {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
};

export type FakeFetch = {
  fetch: typeof fetch;
  requests: RecordedRequest[];
};

/** One SSE event with a named type (Anthropic's framing). */
export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/** One SSE data line (OpenAI's framing). */
export function sseData(data: unknown): string {
  return `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): FakeReply {
  return {
    status,
    headers: { "content-type": "application/json", ...headers },
    chunks: [JSON.stringify(body)],
  };
}

export function sseReply(chunks: string[], end: FakeReply["end"] = "close"): FakeReply {
  return { status: 200, headers: { "content-type": "text/event-stream" }, chunks, end };
}

function abortError(): DOMException {
  return new DOMException("This operation was aborted", "AbortError");
}

/** Builds a fetch that answers each call with the next reply; a call beyond the script fails the test. */
export function createFakeFetch(replies: FakeReply[]): FakeFetch {
  const queue = [...replies];
  const requests: RecordedRequest[] = [];
  const encoder = new TextEncoder();

  const fakeFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    let body: unknown;
    if (typeof init?.body === "string") {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    }
    requests.push({ url, method: init?.method ?? "GET", headers, body });

    const signal = init?.signal ?? undefined;
    if (signal?.aborted) throw abortError();
    const reply = queue.shift();
    if (!reply) throw new Error(`fake fetch: no scripted reply for request #${requests.length} (${url})`);

    const chunks = reply.chunks ?? [];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        let closed = false;
        const onAbort = () => {
          if (closed) return;
          closed = true;
          controller.error(abortError());
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        // Pieces arrive on later macrotasks, as from a socket, so aborts can land between them.
        let i = 0;
        const pump = () => {
          if (closed) return;
          const piece = chunks[i++];
          if (piece !== undefined) {
            controller.enqueue(encoder.encode(piece));
            setTimeout(pump, 0);
            return;
          }
          if (reply.end === "hang") return;
          closed = true;
          signal?.removeEventListener("abort", onAbort);
          // undici's message when the peer resets the socket mid-body.
          if (reply.end === "drop") controller.error(new TypeError("terminated"));
          else controller.close();
        };
        setTimeout(pump, 0);
      },
    });
    return new Response(stream, { status: reply.status ?? 200, headers: reply.headers ?? {} });
  };

  return { fetch: fakeFetch, requests };
}
