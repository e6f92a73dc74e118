/**
 * Code execution's files stored (issue 28 item 2): what the bytes are decides how they are stored. A
 * chart is stored as the image its bytes are (whatever type was claimed) under a name with its
 * extension; an SVG (it could carry script) keeps its claimed type and is never taken for an image.
 * A failed fetch leaves a status for Retry and stores nothing.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isCodeFilesEntry, type ProducedFile, type StoredCodeFile } from "../../core/session/code-files";
import type { SessionId } from "../../core/session/ids";
import { getBlob } from "../../db/blobs";
import { getEntries } from "../../db/entries";
import { freshDatabase } from "../../db/testing/database";
import type { DownloadCodeFileFn } from "../../providers/code-files";
import { resetStores } from "../app/store-registry";
import { chatWithQuestion, thresholdSettings } from "../testing/conversation";
import { downloadCodeFiles, useCodeFilesStore } from "./code-files";

const download = vi.hoisted(() => ({ fn: null as DownloadCodeFileFn | null }));
vi.mock("../../providers/code-files", () => ({
  downloadCodeFile: ((...args) => {
    if (!download.fn) throw new Error("no download set");
    return download.fn(...args);
  }) satisfies DownloadCodeFileFn,
}));

const MODEL = { providerId: "openai", modelId: "gpt-5" } as const;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

const image = (n: number): ProducedFile => ({
  key: `/ci_1/image-${n.toString()}`,
  api: "openai-responses",
  provider: "openai",
  fileId: `ci_1/image-${n.toString()}`,
  url: `data:image/png;base64,x${n.toString()}`,
});

async function storedFiles(sessionId: SessionId): Promise<StoredCodeFile[]> {
  return (await getEntries(sessionId)).flatMap((e) => (isCodeFilesEntry(e) ? e.data.files : []));
}

beforeEach(() => {
  freshDatabase();
  resetStores();
  thresholdSettings(MODEL, {}, { enabled: false });
});
afterEach(() => {
  download.fn = null;
  resetStores();
});

describe("storing code execution's images", () => {
  it("a chart is stored as the image its bytes are; an SVG keeps its claimed type (a download)", async () => {
    const { sessionId } = await chatWithQuestion(MODEL);
    download.fn = async (_provider, file) =>
      file.fileId.endsWith("1")
        ? { name: "", mimeType: "application/octet-stream", bytes: PNG }
        : { name: "", mimeType: "image/svg+xml", bytes: SVG };
    await downloadCodeFiles(sessionId, [image(1), image(2)]);

    const [chart, svg] = await storedFiles(sessionId);
    expect(chart).toMatchObject({ key: "/ci_1/image-1", name: "chart.png", mimeType: "image/png", size: PNG.length });
    expect(svg).toMatchObject({ key: "/ci_1/image-2", name: "chart.svg", mimeType: "image/svg+xml" });
    if (!chart) throw new Error("the chart was not recorded");
    expect((await getBlob(chart.blobId))?.type).toBe("image/png");
    expect(useCodeFilesStore.getState().status).toEqual({});
  });

  it("a failed fetch is kept on its file for Retry, and nothing is recorded", async () => {
    const { sessionId } = await chatWithQuestion(MODEL);
    download.fn = async () => {
      throw new Error("404 from cdn.example.com.");
    };
    await downloadCodeFiles(sessionId, [image(1)]);
    expect(await storedFiles(sessionId)).toEqual([]);
    expect(useCodeFilesStore.getState().status["/ci_1/image-1"]).toEqual({
      kind: "failed",
      message: "404 from cdn.example.com.",
    });
  });
});
