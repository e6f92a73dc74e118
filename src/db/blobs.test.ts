import "fake-indexeddb/auto";
import Dexie from "dexie";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { base64ToBytes } from "../core/attachments/blob-id";
import type { ContextNoteEntry, DocumentBlock, ImageBlock } from "../core/session/entries";
import { type BlobId, newEntryId } from "../core/session/ids";
import { BLOB_GC_GRACE_MS, collectUnreferencedBlobs, exportedBlobsOf, readBlobsBase64, storeBlob } from "./blobs";
import { saveComposerDraftAttachments } from "./composer-drafts";
import { createSession, deleteSession } from "./sessions";
import { closeDb, freshDatabase, getDb, makeSession, userMessage } from "./testing/database";

beforeEach(freshDatabase);
afterEach(closeDb);

const bytes = (text: string) => new TextEncoder().encode(text);
// SHA-256("abc"), the FIPS 180-2 test vector.
const ABC_SHA256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

function withImage(sessionId: ReturnType<typeof makeSession>["id"], blobId: BlobId) {
  const entry = userMessage(sessionId, null, "look");
  const image: ImageBlock = { type: "image", blobId, mimeType: "image/png", name: "a.png" };
  return { ...entry, content: [...entry.content, image] };
}

describe("blobs", () => {
  it("are content-addressed: the id is the SHA-256 of the bytes, and the same file twice is one row", async () => {
    const first = await storeBlob(bytes("abc"), "image/png", 1);
    const again = await storeBlob(bytes("abc"), "image/png", 2);
    const other = await storeBlob(bytes("abd"), "image/png", 3);
    expect(first).toBe(ABC_SHA256);
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    expect(await getDb().blobs.count()).toBe(2);
    // Storing again refreshed the row (the collector's grace starts over).
    expect((await getDb().blobs.get(first))?.createdAt).toBe(2);
  });

  it("are read back as base64, for requests and exports", async () => {
    const id = await storeBlob(bytes("hello"), "image/png");
    const data = await readBlobsBase64([id, "missing" as BlobId]);
    expect([...data.keys()]).toEqual([id]);
    expect(new TextDecoder().decode(base64ToBytes(data.get(id) ?? ""))).toBe("hello");
    const session = makeSession();
    expect(await exportedBlobsOf([withImage(session.id, id)])).toEqual([
      { id, mimeType: "image/png", data: data.get(id) },
    ]);
  });
});

describe("collectUnreferencedBlobs", () => {
  const old = 0;
  const now = BLOB_GC_GRACE_MS + 1;

  it("deletes old blobs no entry references, keeps referenced, young and kept ones", async () => {
    const referenced = await storeBlob(bytes("in a message"), "image/png", old);
    const orphan = await storeBlob(bytes("removed from the composer"), "image/png", old);
    const young = await storeBlob(bytes("just attached"), "image/png", now - 1);
    const inComposer = await storeBlob(bytes("in this tab's composer"), "image/png", old);
    const session = makeSession();
    await createSession(session, [withImage(session.id, referenced)]);

    expect(await collectUnreferencedBlobs(now, new Set([inComposer]))).toBe(1);
    const left = (await getDb().blobs.toCollection().primaryKeys()).sort();
    expect(left).toEqual([referenced, young, inComposer].sort());
    expect(left).not.toContain(orphan);
  });

  it("keeps an image only a context note shows (a pi custom_message's, imported)", async () => {
    const inNote = await storeBlob(bytes("a screenshot an extension added"), "image/png", old);
    const session = makeSession();
    const u = userMessage(session.id, null, "hello");
    const note: ContextNoteEntry = {
      id: newEntryId(),
      sessionId: session.id,
      parentId: u.id,
      createdAt: 3_000,
      type: "context_note",
      customType: "screenshot",
      content: [{ type: "image", blobId: inNote, mimeType: "image/png" }],
      display: true,
    };
    await createSession({ ...session, leafId: note.id }, [u, note]);
    expect(await collectUnreferencedBlobs(now)).toBe(0);
    expect(await getDb().blobs.get(inNote)).toBeDefined();
    expect((await exportedBlobsOf([u, note])).map((b) => b.id)).toEqual([inNote]);
  });

  it("collects a deleted chat's images, unless another chat still shows them", async () => {
    const shared = await storeBlob(bytes("shared"), "image/png", old);
    const own = await storeBlob(bytes("own"), "image/png", old);
    const a = makeSession();
    const b = makeSession();
    const entryA = withImage(a.id, own);
    await createSession(a, [
      { ...entryA, content: [...entryA.content, { ...entryA.content[1], blobId: shared } as ImageBlock] },
    ]);
    await createSession(b, [withImage(b.id, shared)]);
    await deleteSession(a.id);
    expect(await collectUnreferencedBlobs(now)).toBe(1);
    expect(await getDb().blobs.toCollection().primaryKeys()).toEqual([shared]);
  });

  it("keeps the blobs a composer draft's attachments reference, and releases them once the draft drops them", async () => {
    const pending = await storeBlob(bytes("attached, not sent"), "image/png", old);
    const pdf = await storeBlob(bytes("%PDF attached, not sent"), "application/pdf", old);
    const chat = makeSession().id;
    const image: ImageBlock = { type: "image", blobId: pending, mimeType: "image/png", name: "chart.png" };
    const document: DocumentBlock = {
      type: "document",
      blobId: pdf,
      mimeType: "application/pdf",
      name: "a.pdf",
      size: 23,
    };
    // Another tab's composer (or this one after a reload): nothing passed as `keep`.
    await saveComposerDraftAttachments(chat, [image, document]);
    expect(await collectUnreferencedBlobs(now)).toBe(0);
    expect(await getDb().blobs.count()).toBe(2);

    await saveComposerDraftAttachments(chat, [document]); // the image's chip was removed
    expect(await collectUnreferencedBlobs(now)).toBe(1);
    expect(await getDb().blobs.get(pending)).toBeUndefined();
    expect(await getDb().blobs.get(pdf)).toBeDefined();

    await saveComposerDraftAttachments(chat, []); // sent: the entry references it from now on
    expect(await collectUnreferencedBlobs(now)).toBe(1);
  });

  it("spares a draft's attachment sent while it scans the entries (the draft is cleared before the entry is written)", async () => {
    const attached = await storeBlob(bytes("attached yesterday, sent now"), "image/png", old);
    const session = makeSession();
    await createSession(session, [userMessage(session.id, null, "hello")]);
    const image: ImageBlock = { type: "image", blobId: attached, mimeType: "image/png", name: "a.png" };
    await saveComposerDraftAttachments(session.id, [image]);
    // The send lands while the collector is between its scan and its delete.
    const entries = getDb().entries;
    const scan = entries.each.bind(entries);
    vi.spyOn(entries, "each").mockImplementationOnce((fn) =>
      Dexie.Promise.resolve(
        (async () => {
          await scan(fn);
          await saveComposerDraftAttachments(session.id, []);
          const sent = withImage(session.id, attached);
          await getDb().entries.add({ ...sent, parentId: null });
        })(),
      ),
    );
    expect(await collectUnreferencedBlobs(now)).toBe(0);
    expect(await getDb().blobs.get(attached)).toBeDefined();
  });

  it("does nothing when there are no blobs", async () => {
    expect(await collectUnreferencedBlobs(now)).toBe(0);
  });
});
