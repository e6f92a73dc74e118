/**
 * A `fetch` that behaves like a browser page's at `pageOrigin`, for the MCP client's Node tests: a
 * cross-origin request that is not "simple" is preflighted (OPTIONS with the method and header names),
 * the answer must allow the origin, the page reads only the response headers the server exposes, and
 * every refusal is the browser's bare `TypeError: Failed to fetch`; `mode: "no-cors"` gets an opaque
 * answer from any server that is there. Test support only.
 */

const SAFELISTED_RESPONSE = new Set([
  "cache-control",
  "content-language",
  "content-length",
  "content-type",
  "expires",
  "last-modified",
  "pragma",
]);
const SIMPLE_HEADERS = new Set(["accept", "accept-language", "content-language"]);

const failed = (): TypeError => new TypeError("Failed to fetch");

function allowsOrigin(res: Response, origin: string): boolean {
  const allowed = res.headers.get("access-control-allow-origin");
  return allowed === "*" || allowed === origin;
}

function urlOf(input: string | URL | Request): URL {
  return new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
}

export function browserFetch(pageOrigin: string): typeof fetch {
  return async (input, init = {}) => {
    const url = urlOf(input as string | URL | Request);
    const method = (init.method ?? "GET").toUpperCase();
    const headers = new Headers(init.headers);
    if (init.mode === "no-cors") {
      const res = await fetch(url, { method, signal: init.signal ?? null }).catch(() => {
        throw failed();
      });
      await res.body?.cancel();
      // Opaque: the page learns only that something answered.
      return new Response(null, { status: 200 });
    }
    const cross = url.origin !== pageOrigin;
    if (cross) {
      headers.set("origin", pageOrigin);
      const names = [...headers.keys()].filter((h) => h !== "origin");
      const contentType = headers.get("content-type") ?? "";
      const simple =
        ["GET", "HEAD", "POST"].includes(method) &&
        names.every((h) => SIMPLE_HEADERS.has(h) || h === "content-type") &&
        (contentType === "" ||
          /^(text\/plain|application\/x-www-form-urlencoded|multipart\/form-data)/.test(contentType));
      if (!simple) {
        const pre = await fetch(url, {
          method: "OPTIONS",
          headers: {
            origin: pageOrigin,
            "access-control-request-method": method,
            "access-control-request-headers": names.sort().join(","),
          },
        }).catch(() => {
          throw failed();
        });
        await pre.body?.cancel();
        if (!pre.ok || !allowsOrigin(pre, pageOrigin)) throw failed();
      }
    }
    const res = await fetch(url, { ...init, method, headers }).catch((e: unknown) => {
      if (init.signal?.aborted) throw e;
      throw failed();
    });
    if (!cross) return res;
    if (!allowsOrigin(res, pageOrigin)) {
      await res.body?.cancel();
      throw failed();
    }
    const exposed = new Set(
      (res.headers.get("access-control-expose-headers") ?? "")
        .split(",")
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    );
    const visible = new Headers();
    for (const [name, value] of res.headers) {
      if (SAFELISTED_RESPONSE.has(name) || exposed.has(name) || exposed.has("*")) visible.set(name, value);
    }
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers: visible });
  };
}
