/**
 * Downloads a file a provider's code execution produced (issue 28 item 2), with the user's key for
 * that provider, through its SDK client (so the key reaches only that provider's host, clientFetch):
 * Anthropic's Files API (`beta.files.retrieveMetadata` for its name and type, `beta.files.download`
 * for its bytes, beta `files-api-2025-04-14`); OpenAI's container files
 * (`containers.files.content.retrieve`). An image output (OpenAI code interpreter's `{type: "image",
 * url}`) comes from its URL: a `data:` URL is decoded here; an address on the provider's own host is
 * fetched with the key (clientFetch: that host only); an https address elsewhere is fetched without
 * key, cookies or Referer. Never an `<img src>` to a remote host: the bytes are stored and shown from
 * the blob. Throws on any failure, with the provider's words, keys redacted; the caller shows it on
 * the file.
 */
import { decodeDataUrl } from "../core/attachments/data-url";
import { redactSecrets } from "../core/net/redact";
import type { ProducedFile } from "../core/session/code-files";
import { type ClientDeps, clientApiKey, clientFetch, endpointBaseUrl } from "./client-config";
import type { ProviderConfig } from "./types";

const FILES_API_BETA = "files-api-2025-04-14";

type DownloadedFile = { name: string; mimeType: string; bytes: Uint8Array };

export type DownloadCodeFileFn = (
  provider: ProviderConfig,
  file: ProducedFile,
  signal?: AbortSignal,
) => Promise<DownloadedFile>;

const FALLBACK_TYPE = "application/octet-stream";

/** The bytes of a response body, and its type (without parameters) when it names one. */
async function bodyOf(res: Response): Promise<{ bytes: Uint8Array; type: string }> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const type = res.headers.get("content-type")?.split(";")[0]?.trim() ?? "";
  return { bytes, type };
}

/**
 * A failure in plain words: an SDK's API error as its status and the provider's message (both SDKs keep
 * the body in `error`: Anthropic `{error: {message}}`, OpenAI `{message}`), else the error's message.
 */
function plainError(e: unknown): string {
  const status = (e as { status?: unknown } | null)?.status;
  const body = (e as { error?: unknown } | null)?.error as
    | { message?: unknown; error?: { message?: unknown } }
    | undefined;
  const said = body?.error?.message ?? body?.message;
  if (typeof status === "number" && typeof said === "string") return `${status} ${said}`;
  if (typeof status === "number") return `${status} (the provider said no more)`;
  return e instanceof Error ? e.message : String(e);
}

/** The last segment of an address's path when it looks like a file name (`chart.png`). */
function nameInUrl(url: URL): string | undefined {
  let last: string;
  try {
    last = decodeURIComponent(url.pathname.split("/").at(-1) ?? "");
  } catch {
    return undefined;
  }
  return /^[^/\\]{1,120}\.[A-Za-z0-9]{1,5}$/.test(last) ? last : undefined;
}

/** An image output's bytes from its URL (see the module's comment for who gets the key). */
async function fetchImageOutput(
  provider: ProviderConfig,
  url: string,
  deps: ClientDeps,
  signal?: AbortSignal,
): Promise<DownloadedFile> {
  if (url.trim().toLowerCase().startsWith("data:")) {
    const decoded = decodeDataUrl(url);
    if (!decoded) throw new Error("its data: address does not decode.");
    return { name: "", mimeType: decoded.mimeType, bytes: decoded.bytes };
  }
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new Error("its address is not a URL.");
  }
  const own = target.origin === new URL(endpointBaseUrl(provider)).origin;
  if (!own && target.protocol !== "https:") throw new Error(`its address is not https (${target.protocol}).`);
  let res: Response;
  try {
    res = own
      ? await clientFetch(deps, provider)(target.href, {
          headers: { authorization: `Bearer ${clientApiKey(provider)}` },
          ...(signal ? { signal } : {}),
        })
      : await (deps.fetch ?? globalThis.fetch)(target.href, {
          credentials: "omit",
          referrerPolicy: "no-referrer",
          ...(signal ? { signal } : {}),
        });
  } catch (e) {
    if (e instanceof DOMException && e.name === "AbortError") throw e;
    throw new Error(
      `${target.host} could not be reached from this browser (offline, or it does not allow this page to read it: CORS).`,
    );
  }
  if (!res.ok)
    throw new Error(`${res.status.toString()} from ${target.host}${res.statusText ? ` (${res.statusText})` : ""}.`);
  const { bytes, type } = await bodyOf(res);
  return { name: nameInUrl(target) ?? "", mimeType: type || FALLBACK_TYPE, bytes };
}

/** The download through `deps.fetch` (tests hand it one). */
export function createDownloadCodeFile(deps: ClientDeps = {}): DownloadCodeFileFn {
  return async (provider, file, signal) => {
    try {
      if (file.url !== undefined) return await fetchImageOutput(provider, file.url, deps, signal);
      switch (provider.api) {
        case "anthropic-messages": {
          const { makeAnthropicClient } = await import("./anthropic-client");
          const client = makeAnthropicClient(provider, deps);
          const params = { betas: [FILES_API_BETA] };
          const meta = await client.beta.files.retrieveMetadata(file.fileId, params, { signal });
          const { bytes, type } = await bodyOf(await client.beta.files.download(file.fileId, params, { signal }));
          return {
            name: meta.filename || file.name || file.fileId,
            mimeType: meta.mime_type || type || FALLBACK_TYPE,
            bytes,
          };
        }
        case "openai-responses":
        case "openai-chat": {
          if (!file.containerId) throw new Error("the reply did not say which container holds it.");
          const { makeOpenAIClient } = await import("./openai-client");
          const client = makeOpenAIClient(provider, deps);
          const res = await client.containers.files.content.retrieve(
            file.fileId,
            { container_id: file.containerId },
            { signal },
          );
          const { bytes, type } = await bodyOf(res);
          return { name: file.name || file.fileId, mimeType: type || FALLBACK_TYPE, bytes };
        }
      }
    } catch (e) {
      throw new Error(redactSecrets(plainError(e), [provider.apiKey]));
    }
  };
}

export const downloadCodeFile: DownloadCodeFileFn = createDownloadCodeFile();
