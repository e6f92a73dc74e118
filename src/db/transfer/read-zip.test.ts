import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { IMPORT_LIMITS } from "../../core/export/import-file";
import { inflateZipFiles, isZip, readZipExport } from "./read-zip";

describe("readZipExport", () => {
  it("finds conversations.json and the split conversations-NNN.json files at any depth, ignoring the rest", () => {
    const zip = zipSync({
      "chat.html": strToU8("<html>"),
      "export/conversations-001.json": strToU8("[1]"),
      "export/conversations-000.json": strToU8("[0]"),
      "user.json": strToU8("{}"),
      "file-abc.png": new Uint8Array([1, 2, 3]),
    });
    expect(isZip(zip)).toBe(true);
    const r = readZipExport(zip, "export.zip");
    if (r.kind !== "ok") throw new Error(r.message);
    expect(r.files).toEqual([
      { name: "export/conversations-000.json", text: "[0]" },
      { name: "export/conversations-001.json", text: "[1]" },
    ]);
    // The image is listed by its file id, not inflated.
    expect(r.assets).toEqual([{ path: "file-abc.png", id: "file-abc", size: 3 }]);
  });

  it("lists the files asset pointers may name, in both layouts ChatGPT has used, with their real names", async () => {
    const zip = zipSync({
      "conversations.json": strToU8("[]"),
      "file-7Hc2Q9wRkLpXz3VbN1-IMG_4821.jpeg": new Uint8Array([1]),
      "dalle-generations/file-Ab12-3f0c9a.webp": new Uint8Array([2]),
      "user-x/file_00000000a1b2c3d4-9f8e7d6c.png": new Uint8Array([3]),
      "file_00000000ffee.dat": new Uint8Array([4, 4]),
      "conversation_asset_file_names.json": strToU8(JSON.stringify({ "file_00000000ffee.dat": "scan.png" })),
      "audio/0a1b2c.wav": new Uint8Array([5]),
      "chat.html": strToU8("<html>"),
      "../file-evil.png": new Uint8Array([6]),
    });
    const r = readZipExport(zip, "export.zip");
    if (r.kind !== "ok") throw new Error(r.message);
    expect(r.assets.map((a) => [a.id, a.path, a.name])).toEqual([
      ["file-7Hc2Q9wRkLpXz3VbN1", "file-7Hc2Q9wRkLpXz3VbN1-IMG_4821.jpeg", undefined],
      ["file-Ab12", "dalle-generations/file-Ab12-3f0c9a.webp", undefined],
      ["file_00000000a1b2c3d4", "user-x/file_00000000a1b2c3d4-9f8e7d6c.png", undefined],
      ["file_00000000ffee", "file_00000000ffee.dat", "scan.png"],
    ]);
    const seen: [string, number[]][] = [];
    await inflateZipFiles(zip, r.assets, async (f, data) => {
      seen.push([f.id, [...data]]);
    });
    expect(seen).toEqual([
      ["file-7Hc2Q9wRkLpXz3VbN1", [1]],
      ["file-Ab12", [2]],
      ["file_00000000a1b2c3d4", [3]],
      ["file_00000000ffee", [4, 4]],
    ]);
  });

  it("ignores names that climb out of the folder", () => {
    const zip = zipSync({ "../conversations.json": strToU8("[]"), "a/../../conversations-000.json": strToU8("[]") });
    const r = readZipExport(zip, "evil.zip");
    expect(r.kind === "error" && r.message).toMatch(/evil\.zip holds no conversations file/);
  });

  it("says plainly when the zip holds no conversations file", () => {
    const r = readZipExport(zipSync({ "notes.txt": strToU8("hi") }), "photos.zip");
    expect(r.kind === "error" && r.message).toMatch(/^photos\.zip holds no conversations file/);
  });

  it("stops a zip bomb whose sizes lie, from the bytes it produces, and says the archive expands too far (issue 30.5)", () => {
    // 3 MB of conversations that deflate to a few kB, and every size field says 10 bytes.
    const big = strToU8(`[${" ".repeat(3 * MB)}]`);
    const zip = zipSync({ "conversations.json": big });
    expect(zip.length).toBeLessThan(64 * 1024);
    patchOriginalSizes(zip, 10);
    const r = readZipExport(zip, "bomb.zip", MB);
    expect(r.kind === "error" && r.message).toBe(
      "This archive expands beyond 1.0 MB: bomb.zip was not imported (Grove imports up to 1.0 MB).",
    );
  });

  it("inflates assets that lie about their sizes only up to the budget, counted as they come out", async () => {
    const zip = zipSync({
      "conversations.json": strToU8("[]"),
      "file-small.png": new Uint8Array([1, 2, 3]),
      "file-bomb.png": new Uint8Array(2 * MB),
      "file-after.png": new Uint8Array([4]),
    });
    patchOriginalSizes(zip, 1);
    const r = readZipExport(zip, "assets.zip");
    if (r.kind !== "ok") throw new Error(r.message);
    const seen: string[] = [];
    await inflateZipFiles(zip, r.assets, async (f) => void seen.push(f.id), MB);
    expect(seen).toEqual(["file-small"]);
  });

  it("reads a zip whose files stay within the limit though they claim more", () => {
    const zip = zipSync({ "conversations.json": strToU8("[]") });
    patchOriginalSizes(zip, IMPORT_LIMITS.maxFileBytes + 1);
    const r = readZipExport(zip, "claims.zip");
    expect(r.kind === "ok" && r.files).toEqual([{ name: "conversations.json", text: "[]" }]);
  });

  it("a file that is not a zip is not taken for one", () => {
    expect(isZip(strToU8("[]"))).toBe(false);
  });
});

const MB = 1024 * 1024;

/**
 * Writes `size` as the uncompressed size in every central-directory record ("PK\x01\x02", offset
 * 24) and local file header ("PK\x03\x04", offset 22): a zip that lies about what it unpacks to.
 */
function patchOriginalSizes(zip: Uint8Array, size: number): void {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let i = 0; i + 4 <= zip.length; i++) {
    const sig = view.getUint32(i, true);
    if (sig === 0x02014b50) view.setUint32(i + 24, size, true);
    if (sig === 0x04034b50) view.setUint32(i + 22, size, true);
  }
}
