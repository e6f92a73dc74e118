import "fake-indexeddb/auto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { strToU8, zipSync } from "fflate";
import { beforeEach, describe, expect, it } from "vitest";
import { blobIdOf } from "../../core/attachments/blob-id";
import type { Block, MessageEntry } from "../../core/session/entries";
import { readAllForExport } from "../export";
import { listSessions } from "../sessions";
import { freshDatabase, getDb, snapshot } from "../testing/database";
import { createImportJob } from "./import-job";

const SAMPLES = resolve(__dirname, "../../core/export/testing/fixtures");
const sample = (name: string) => readFileSync(resolve(SAMPLES, name), "utf8");

/** Real file signatures: the import tells images and PDFs by their first bytes. */
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
const PDF = strToU8("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
const AUDIO = strToU8("RIFF....WAVEfmt ");

/** The bike-chain conversation of the 2026 sample, with its uploads and generated image in a zip. */
function bikeZip(layout: "named" | "dat"): Uint8Array {
  const all = JSON.parse(sample("chatgpt-2026-conversations.json")) as { title: string }[];
  const conversations = strToU8(
    JSON.stringify(all.filter((c) => c.title === "Photo of my bike chain" || c.title === "Corrupted entry")),
  );
  if (layout === "named") {
    return zipSync({
      "conversations.json": conversations,
      "file-7Hc2Q9wRkLpXz3VbN1-IMG_4821.jpeg": JPEG,
      "file-Pq8Ls2Mn4Bv6Cx1Zt9-service-manual.pdf": PDF,
      "user-k2x/file_00000000a1b2c3d4e5f60718293a4b5c-8c1d0e2f-9a3b-4c5d-8e6f-7a8b9c0d1e2f.png": PNG,
      "file-unused0000-other.png": PNG,
      "chat.html": strToU8("<html><script>alert(1)</script></html>"),
    });
  }
  return zipSync({
    "conversations-000.json": conversations,
    "file-7Hc2Q9wRkLpXz3VbN1.dat": JPEG,
    "file-Pq8Ls2Mn4Bv6Cx1Zt9.dat": PDF,
    "file_00000000a1b2c3d4e5f60718293a4b5c.dat": PNG,
    "file_0000000099999999.dat": AUDIO,
    "conversation_asset_file_names.json": strToU8(
      JSON.stringify({ "file-7Hc2Q9wRkLpXz3VbN1.dat": "IMG_4821.jpeg", "file_0000000099999999.dat": "voice.wav" }),
    ),
  });
}

beforeEach(() => freshDatabase());

const blocksOf = async (title: string): Promise<Block[]> => {
  const s = (await readAllForExport()).find((x) => x.session.title === title);
  return (s?.entries ?? []).flatMap((e) => (e.type === "message" ? (e as MessageEntry).content : []));
};

describe("import job: real exports", () => {
  it.each(["named", "dat"] as const)(
    "a ChatGPT .zip (%s files): its images and PDF are stored by content address with the chat, and shown",
    async (layout) => {
      const job = createImportJob();
      const analysis = await job.analyze(
        new Blob([bikeZip(layout) as Uint8Array<ArrayBuffer>]),
        "export.zip",
        () => {},
      );
      expect(analysis).toMatchObject({
        kind: "ready",
        format: "chatgpt",
        sessions: [{ title: "Photo of my bike chain" }],
        unreadable: [{ title: "Corrupted entry", reason: "no messages" }],
      });
      const outcome = await job.commit("keep-both", () => {});
      expect(outcome).toMatchObject({
        kind: "done",
        unreadable: [{ title: "Corrupted entry", reason: "no messages" }],
      });

      const blocks = await blocksOf("Photo of my bike chain");
      const images = blocks.filter((b) => b.type === "image");
      const docs = blocks.filter((b) => b.type === "document");
      expect(images.map((b) => b.type === "image" && [b.blobId, b.mimeType, b.name])).toEqual([
        [await blobIdOf(JPEG), "image/jpeg", "IMG_4821.jpeg"],
        [await blobIdOf(PNG), "image/png", "file_00000000a1b2c3d4e5f60718293a4b5c"],
      ]);
      expect(docs.map((b) => b.type === "document" && [b.blobId, b.name])).toEqual([
        [await blobIdOf(PDF), "service-manual.pdf"],
      ]);
      // Exactly the files the chat shows: not the unused image, the audio or chat.html.
      const rows = await getDb().blobs.toArray();
      expect(rows.map((r) => [r.mimeType, r.size]).sort()).toEqual(
        [
          ["application/pdf", PDF.length],
          ["image/jpeg", JPEG.length],
          ["image/png", PNG.length],
        ].sort(),
      );
      const stored = await getDb().blobs.get(await blobIdOf(PNG));
      expect(new Uint8Array(await stored!.data.arrayBuffer())).toEqual(PNG);
    },
  );

  it("a cancelled import keeps neither the chats nor the zip's files: one transaction", async () => {
    const before = await snapshot();
    const job = createImportJob();
    await job.analyze(new Blob([bikeZip("named") as Uint8Array<ArrayBuffer>]), "export.zip", () => {});
    const outcome = await job.commit("keep-both", (p) => {
      if (p.phase === "writing" && p.entriesWritten === 0) job.cancel();
    });
    expect(outcome).toEqual({ kind: "cancelled" });
    expect(await snapshot()).toEqual(before);
  });

  it("a ChatGPT export with stubs: the rest imported, the stubs listed by title and reason up to the outcome", async () => {
    const job = createImportJob();
    const f = new Blob([sample("chatgpt-2026-conversations.json")]);
    const analysis = await job.analyze(f, "conversations.json", () => {});
    const unreadable = [
      { title: "Corrupted entry", reason: "no messages" },
      { title: "Broken record", reason: "no messages" },
    ];
    expect(analysis).toMatchObject({ kind: "ready", unreadable });
    const outcome = await job.commit("keep-both", () => {});
    expect(outcome).toMatchObject({ kind: "done", skipped: 0, unreadable });
    if (outcome.kind !== "done") throw new Error(outcome.kind);
    expect(outcome.imported).toHaveLength(5);
    expect(await listSessions()).toHaveLength(5);
  });

  it("a file with only stubs is refused, nothing written", async () => {
    const before = await snapshot();
    const stubs = JSON.stringify([{ title: "Corrupted entry" }, { title: "Broken record", mapping: {} }]);
    const analysis = await createImportJob().analyze(new Blob([stubs]), "conversations.json", () => {});
    expect(analysis).toEqual({
      kind: "error",
      message:
        'This looks like a ChatGPT export, but none of its 2 conversations could be read (no messages: "Corrupted entry", "Broken record").',
    });
    expect(await snapshot()).toEqual(before);
  });

  it("an Open WebUI export: its pasted image is stored by content address and the block points at it", async () => {
    const job = createImportJob();
    await job.analyze(new Blob([sample("open-webui-export.json")]), "chat-export.json", () => {});
    await job.commit("keep-both", () => {});
    const image = (await blocksOf("Rust lifetimes: returning a reference")).find((b) => b.type === "image");
    expect(image?.type === "image" && image.blobId).toBe(await blobIdOf(PNG));
    expect(await getDb().blobs.get(await blobIdOf(PNG))).toMatchObject({ mimeType: "image/png", size: PNG.length });
  });

  it.each([
    ["claude-2026-conversations.json", "claude", 3],
    ["librechat-tree.json", "librechat", 1],
    ["chatbot-ui-export.json", "chatbot-ui", 2],
  ])("%s imports as %s (%i chats)", async (name, format, chats) => {
    const job = createImportJob();
    expect(await job.analyze(new Blob([sample(name)]), name, () => {})).toMatchObject({ kind: "ready", format });
    await job.commit("keep-both", () => {});
    expect(await listSessions()).toHaveLength(chats);
  });
});
