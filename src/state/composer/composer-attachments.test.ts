/**
 * Composer attachments survive a reload (issue 11 item 1): every change is written to the chat's
 * draft, a fresh page reads them back, and a send or a removed chip leaves nothing to come back.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AttachmentBlock } from "../../core/session/entries";
import { newSessionId } from "../../core/session/ids";
import { BLOB_GC_GRACE_MS, collectUnreferencedBlobs, storeBlob } from "../../db/blobs";
import { getComposerDraftAttachments } from "../../db/composer-drafts";
import { closeDb, freshDatabase } from "../../db/testing/database";
import {
  composerAttachments,
  composerBlobIds,
  loadComposerAttachments,
  resetComposerAttachments,
  setComposerAttachments,
} from "./composer-attachments";

beforeEach(() => {
  freshDatabase();
  resetComposerAttachments();
});
afterEach(closeDb);

async function image(name: string, createdAt = 0): Promise<AttachmentBlock> {
  const blobId = await storeBlob(new TextEncoder().encode(`bytes of ${name}`), "image/png", createdAt);
  return { type: "image", blobId, mimeType: "image/png", name, size: 12 + name.length, width: 2, height: 2 };
}

describe("composer attachments", () => {
  it("come back after a reload, in order, and their blobs are never collected meanwhile", async () => {
    const chat = newSessionId();
    const files = [await image("chart.png"), await image("map.png")];
    await setComposerAttachments(chat, files);
    resetComposerAttachments(); // the reload: this page's memory is gone
    expect(composerAttachments(chat)).toEqual([]);
    expect(composerBlobIds().size).toBe(0);
    expect(await collectUnreferencedBlobs(BLOB_GC_GRACE_MS + 1)).toBe(0);
    expect(await loadComposerAttachments(chat)).toEqual(files);
    expect(composerAttachments(chat)).toEqual(files);
  });

  it("a removed chip or a send clears them from the draft, and reopening the chat does not bring them back", async () => {
    const chat = newSessionId();
    const [a, b] = [await image("a.png"), await image("b.png")];
    await setComposerAttachments(chat, [a, b]);
    expect(await loadComposerAttachments(chat)).toEqual([a, b]);
    await setComposerAttachments(chat, [b]); // Remove a.png
    expect(await getComposerDraftAttachments(chat)).toEqual([b]);
    expect(await collectUnreferencedBlobs(BLOB_GC_GRACE_MS + 1)).toBe(1); // a.png's bytes went
    await setComposerAttachments(chat, []); // sent
    expect(await getComposerDraftAttachments(chat)).toEqual([]);
    expect(await loadComposerAttachments(chat)).toEqual([]);
  });

  it("a file attached while the stored ones are being read comes after them", async () => {
    const chat = newSessionId();
    const stored = await image("stored.png");
    await setComposerAttachments(chat, [stored]);
    resetComposerAttachments();
    const added = await image("added.png");
    const loading = loadComposerAttachments(chat);
    await setComposerAttachments(chat, [added]);
    expect(await loading).toEqual([stored, added]);
    await expect.poll(() => getComposerDraftAttachments(chat)).toEqual([stored, added]);
  });

  it("the new-chat screen keeps its own", async () => {
    const file = await image("first.png");
    await setComposerAttachments(null, [file]);
    resetComposerAttachments();
    expect(await loadComposerAttachments(null)).toEqual([file]);
    expect(await loadComposerAttachments(newSessionId())).toEqual([]);
  });
});
