import { describe, expect, it } from "vitest";
import { serializeEntry } from "../compaction/serialize";
import type { MessageEntry, Session } from "../session/entries";
import type { BlobId, EntryId, SessionId } from "../session/ids";
import { type ExportedSession, exportGroveJson, parseGroveJson } from "./grove-json";
import { exportHtml } from "./html";
import { exportMarkdown } from "./markdown";

const sessionId = "s1" as SessionId;
const blobId = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" as BlobId;
const entry: MessageEntry = {
  id: "e1" as EntryId,
  sessionId,
  parentId: null,
  createdAt: 1,
  type: "message",
  role: "user",
  status: "complete",
  content: [
    { type: "text", text: "Look" },
    { type: "image", blobId, mimeType: "image/png", name: "chart.png", size: 3, width: 96, height: 64 },
    { type: "document", blobId, mimeType: "application/pdf", name: "table.pdf", size: 3, pages: 1 },
    { type: "text_file", name: "notes.md", mimeType: "text/markdown", text: "# Notes" },
  ],
};
const session: Session = {
  id: sessionId,
  title: "Chart",
  titleSource: "auto",
  createdAt: 1,
  updatedAt: 1,
  leafId: entry.id,
};
const exported: ExportedSession = {
  session,
  entries: [entry],
  labels: {},
  blobs: [{ id: blobId, mimeType: "image/png", data: "YWJj" }],
};

describe("attachments in exports", () => {
  it("Grove JSON carries the blocks and the bytes (base64), and reads them back unchanged", () => {
    const text = exportGroveJson([exported]);
    const back = parseGroveJson(text);
    expect(back).toEqual({ kind: "ok", sessions: [exported] });
  });

  it("Grove JSON refuses blob data that is not base64", () => {
    const text = exportGroveJson([
      { ...exported, blobs: [{ id: blobId, mimeType: "image/png", data: "<not base64>" }] },
    ]);
    expect(parseGroveJson(text)).toMatchObject({ kind: "error", message: expect.stringContaining("blobs") });
  });

  it("a file without blobs (written before attachments) still reads", () => {
    const { blobs: _none, ...plain } = exported;
    expect(parseGroveJson(exportGroveJson([plain]))).toEqual({ kind: "ok", sessions: [plain] });
  });

  it("HTML carries the attachments inline: the image as a data: URL (its CSP allows img-src data: only), the PDF as a download, the text file's text", () => {
    const html = exportHtml(exported, { now: 0 });
    expect(html).toContain('<img src="data:image/png;base64,YWJj" alt="chart.png">');
    expect(html).toContain('PDF: <a download="table.pdf" href="data:image/png;base64,YWJj">table.pdf</a>');
    expect(html).toContain("notes.md");
    expect(html).toContain("# Notes");
    expect(html).toContain("img-src data:");
    // Without the bytes, a note stands in.
    const bare = exportHtml({ ...exported, blobs: [] }, { now: 0 });
    expect(bare).toContain("[image: chart.png]");
    expect(bare).toContain("[PDF: table.pdf]");
  });

  it("Markdown names the image and the PDF and includes the text file fenced", () => {
    const md = exportMarkdown(exported, { allBranches: false });
    expect(md).toContain("*[image: chart.png]*");
    expect(md).toContain("*[PDF: table.pdf]*");
    expect(md).toContain("```md\n# Notes\n```");
  });

  it("the summarizer is told the names, never sent the pixels", () => {
    const text = serializeEntry(entry);
    expect(text).toContain("[image: chart.png]");
    expect(text).toContain("[PDF: table.pdf]");
    expect(text).toContain("# Notes");
    expect(text).not.toContain(blobId);
  });
});
