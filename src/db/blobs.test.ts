import "fake-indexeddb/auto";
import { afterEach, beforeEach, expect, it } from "vitest";
import { newBlobId } from "../core/session/ids";
import { getBlob, putBlob } from "./blobs";
import { closeDb, freshDatabase } from "./test-utils";

beforeEach(freshDatabase);
afterEach(closeDb);

it("stores a blob apart from entries and reads it back with its type and size", async () => {
  const id = newBlobId();
  const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
  await putBlob(id, new Blob([bytes], { type: "image/png" }), 1_000);
  const row = await getBlob(id);
  expect(row).toMatchObject({ id, mimeType: "image/png", size: 4, createdAt: 1_000 });
  expect(new Uint8Array((await row?.data.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(bytes);
  expect(await getBlob(newBlobId())).toBeUndefined();
});
