import { describe, expect, it } from "vitest";
import { blobIdsOfEntry } from "../attachments/blob-id";
import {
  codeFilesData,
  isCodeFilesEntry,
  missingCodeFiles,
  producedFiles,
  type StoredCodeFile,
  storedCodeFiles,
  storedFileName,
} from "./code-files";
import type { Entry, MessageEntry, ServerToolBlock } from "./entries";
import type { BlobId, EntryId, SessionId } from "./ids";

const S = "s1" as SessionId;

const code = (
  produced: ServerToolBlock["produced"],
  api: ServerToolBlock["api"] = "anthropic-messages",
): ServerToolBlock => ({
  type: "server_tool",
  api,
  provider: api === "anthropic-messages" ? "anthropic" : "openai",
  tool: "code_execution",
  name: "bash_code_execution",
  part: "result",
  callId: "srv_1",
  ...(produced ? { produced } : {}),
  raw: {},
});

const reply = (id: string, parentId: string | null, content: MessageEntry["content"]): MessageEntry => ({
  type: "message",
  id: id as EntryId,
  sessionId: S,
  parentId: parentId as EntryId | null,
  createdAt: 1,
  role: "assistant",
  content,
  status: "complete",
});

const stored = (key: string, fileId: string, blob: string): StoredCodeFile => ({
  key,
  fileId,
  name: `${fileId}.txt`,
  mimeType: "text/plain",
  size: 3,
  blobId: blob as BlobId,
});

const record = (id: string, parentId: string, files: StoredCodeFile[]): Entry => ({
  type: "custom",
  id: id as EntryId,
  sessionId: S,
  parentId: parentId as EntryId,
  createdAt: 2,
  ...codeFilesData(files),
});

describe("produced files (issue 28)", () => {
  it("reads both wire formats' refs from code execution blocks, each file once, with its provider", () => {
    const files = producedFiles([
      code([{ fileId: "file_a" }, { fileId: "file_a" }]),
      code([{ fileId: "cfile_b", containerId: "cntr_1", name: "b.csv" }], "openai-responses"),
      { ...code([{ fileId: "file_c" }]), tool: "web_search" },
      { type: "text", text: "no files" },
    ]);
    expect(files).toEqual([
      { key: "/file_a", api: "anthropic-messages", provider: "anthropic", fileId: "file_a" },
      {
        key: "cntr_1/cfile_b",
        api: "openai-responses",
        provider: "openai",
        fileId: "cfile_b",
        containerId: "cntr_1",
        name: "b.csv",
      },
    ]);
  });

  it("a record on the path stores its files (the last wins); the rest are missing", () => {
    const r = reply("e1", null, [code([{ fileId: "file_a" }, { fileId: "file_b" }])]);
    const first = record("e2", "e1", [stored("/file_a", "file_a", "blob1")]);
    const later = record("e3", "e2", [stored("/file_a", "file_a", "blob2")]);
    expect(missingCodeFiles([r]).map((f) => f.fileId)).toEqual(["file_a", "file_b"]);
    expect(missingCodeFiles([r, first]).map((f) => f.fileId)).toEqual(["file_b"]);
    expect(storedCodeFiles([r, first, later]).get("/file_a")?.blobId).toBe("blob2");
  });

  it("a record keeps its blobs alive and exported; a malformed one is not a record", () => {
    const ok = record("e2", "e1", [stored("/file_a", "file_a", "blob1"), stored("/file_b", "file_b", "blob2")]);
    expect(isCodeFilesEntry(ok)).toBe(true);
    expect(blobIdsOfEntry(ok)).toEqual(["blob1", "blob2"]);
    const bad: Entry = { ...ok, data: { files: [{ key: "/x" }] } } as Entry;
    expect(isCodeFilesEntry(bad)).toBe(false);
    expect(blobIdsOfEntry(bad)).toEqual([]);
    expect(blobIdsOfEntry({ ...ok, customType: "grove.pin" } as Entry)).toEqual([]);
  });
});

describe("code execution images (issue 28)", () => {
  it("an image output's ref carries its URL to the file to fetch", () => {
    const url = "data:image/png;base64,iVBORw0KGgo=";
    const [file] = producedFiles([code([{ fileId: "ci_1/image-1", url }], "openai-responses")]);
    expect(file).toEqual({
      key: "/ci_1/image-1",
      api: "openai-responses",
      provider: "openai",
      fileId: "ci_1/image-1",
      url,
    });
  });

  it("a block stored before it carried refs: its files are read as Anthropic file ids, OpenAI image URLs", () => {
    const anthropic = { ...code(undefined), files: ["file_a"] };
    const openai = {
      ...code([{ fileId: "cfile_b", containerId: "cntr_1", name: "b.csv" }], "openai-responses"),
      callId: "ci_1",
      files: ["data:image/png;base64,iVBORw0KGgo="],
    };
    expect(producedFiles([anthropic, openai]).map((f) => [f.key, f.url])).toEqual([
      ["/file_a", undefined],
      ["/ci_1/image-1", "data:image/png;base64,iVBORw0KGgo="],
      ["cntr_1/cfile_b", undefined],
    ]);
  });

  it("a stored file is named by the provider, else 'chart'; its type adds a missing extension", () => {
    expect(storedFileName(undefined, "image/png")).toBe("chart.png");
    expect(storedFileName("", "image/jpeg")).toBe("chart.jpg");
    expect(storedFileName("plot", "image/webp")).toBe("plot.webp");
    expect(storedFileName("plot.png", "image/png")).toBe("plot.png");
    expect(storedFileName("data.csv", undefined)).toBe("data.csv");
    // An SVG is not sniffed as anything: its claimed type names the download.
    expect(storedFileName(undefined, "image/svg+xml")).toBe("chart.svg");
    expect(storedFileName("drawing.svg", "image/svg+xml")).toBe("drawing.svg");
    expect(storedFileName(undefined, "application/octet-stream")).toBe("chart");
  });
});
