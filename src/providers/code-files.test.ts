/**
 * A code execution's image output fetched from its URL (issue 28 item 2): a data: URL never touches
 * the network; an address on the provider's host gets the key; any other https host gets neither key,
 * cookies nor Referer; failures say what went wrong in plain words.
 */
import { describe, expect, it } from "vitest";
import type { ProducedFile } from "../core/session/code-files";
import { createDownloadCodeFile } from "./code-files";
import type { ProviderConfig } from "./types";

const KEY = "sk-openai-secret-123456";
const OPENAI: ProviderConfig = {
  id: "openai",
  name: "OpenAI",
  api: "openai-responses",
  baseUrl: "https://api.openai.com/v1",
  apiKey: KEY,
  customModels: [],
  builtIn: true,
};

const image = (url: string): ProducedFile => ({
  key: "/ci_1/image-1",
  api: "openai-responses",
  provider: "openai",
  fileId: "ci_1/image-1",
  url,
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

type Call = { url: string; init: RequestInit | undefined };

function recordingFetch(answer: () => Response | Promise<Response>): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init });
    return answer();
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

describe("an image output's bytes from its URL", () => {
  it("a data: URL is decoded here, with no request", async () => {
    const net = recordingFetch(() => new Response("never"));
    const got = await createDownloadCodeFile({ fetch: net.fetch })(OPENAI, image("data:image/png;base64,iVBORw0KGgo="));
    expect(net.calls).toEqual([]);
    expect(got).toEqual({ name: "", mimeType: "image/png", bytes: PNG });
  });

  it("an address on the provider's host is fetched with the key; its file name is kept", async () => {
    const net = recordingFetch(() => new Response(PNG, { headers: { "content-type": "image/png" } }));
    const got = await createDownloadCodeFile({ fetch: net.fetch })(
      OPENAI,
      image("https://api.openai.com/v1/images/plot%201.png"),
    );
    expect(net.calls).toHaveLength(1);
    expect(new Headers(net.calls[0]?.init?.headers).get("authorization")).toBe(`Bearer ${KEY}`);
    expect(net.calls[0]?.init?.redirect).toBe("error");
    expect(got).toEqual({ name: "plot 1.png", mimeType: "image/png", bytes: PNG });
  });

  it("an https address elsewhere is fetched without the key, cookies or Referer", async () => {
    const net = recordingFetch(() => new Response(PNG));
    const got = await createDownloadCodeFile({ fetch: net.fetch })(OPENAI, image("https://cdn.example.com/x/abc"));
    const init = net.calls[0]?.init;
    expect(JSON.stringify(init)).not.toContain(KEY);
    expect(new Headers(init?.headers).get("authorization")).toBeNull();
    expect(init?.credentials).toBe("omit");
    expect(init?.referrerPolicy).toBe("no-referrer");
    expect(got.name).toBe("");
    expect(got.bytes).toEqual(PNG);
  });

  it("says plainly what failed: a refused status, an unreachable host (CORS), plain http, bad data", async () => {
    const download = (answer: () => Response | Promise<Response>) =>
      createDownloadCodeFile({ fetch: recordingFetch(answer).fetch });
    await expect(
      download(() => new Response("gone", { status: 404, statusText: "Not Found" }))(
        OPENAI,
        image("https://cdn.example.com/a.png"),
      ),
    ).rejects.toThrow("404 from cdn.example.com (Not Found).");
    await expect(
      download(() => Promise.reject(new TypeError("Failed to fetch")))(OPENAI, image("https://cdn.example.com/a.png")),
    ).rejects.toThrow("cdn.example.com could not be reached from this browser (offline, or it does not allow");
    await expect(download(() => new Response(PNG))(OPENAI, image("http://cdn.example.com/a.png"))).rejects.toThrow(
      "its address is not https (http:).",
    );
    await expect(download(() => new Response(PNG))(OPENAI, image("data:image/png;base64,@@"))).rejects.toThrow(
      "its data: address does not decode.",
    );
  });
});
