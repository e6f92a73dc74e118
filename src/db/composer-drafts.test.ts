import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ImageBlock, TextFileBlock } from "../core/session/entries";
import { newSessionId } from "../core/session/ids";
import { storeBlob } from "./blobs";
import {
  getComposerDraft,
  getComposerDraftAttachments,
  saveComposerDraft,
  saveComposerDraftAttachments,
} from "./composer-drafts";
import { createSession, deleteSession } from "./sessions";
import { closeDb, freshDatabase, getDb, makeSession } from "./testing/database";

beforeEach(freshDatabase);
afterEach(closeDb);

describe("composer drafts", () => {
  it("are kept per chat, replaced by the newer text, removed when emptied", async () => {
    const a = newSessionId();
    const b = newSessionId();
    await saveComposerDraft(a, "half a thought");
    expect(await getComposerDraft(a)).toBe("half a thought");
    expect(await getComposerDraft(b)).toBe("");
    await saveComposerDraft(a, "a whole thought");
    expect(await getComposerDraft(a)).toBe("a whole thought");
    await saveComposerDraft(a, "   ");
    expect(await getComposerDraft(a)).toBe("");
  });

  it("keep the attached files with the text: each is written without losing the other, and the row goes when both are empty", async () => {
    const chat = newSessionId();
    const blobId = await storeBlob(new TextEncoder().encode("png bytes"), "image/png");
    const image: ImageBlock = {
      type: "image",
      blobId,
      mimeType: "image/png",
      name: "chart.png",
      size: 9,
      width: 4,
      height: 3,
    };
    const note: TextFileBlock = { type: "text_file", name: "notes.md", mimeType: "text/markdown", text: "# Notes" };
    await saveComposerDraftAttachments(chat, [image, note]);
    await saveComposerDraft(chat, "what does it say?");
    expect(await getComposerDraftAttachments(chat)).toEqual([image, note]);
    expect(await getComposerDraft(chat)).toBe("what does it say?");

    await saveComposerDraft(chat, ""); // the text cleared: the files stay
    expect(await getComposerDraftAttachments(chat)).toEqual([image, note]);
    await saveComposerDraftAttachments(chat, [note]); // a chip removed
    expect(await getComposerDraftAttachments(chat)).toEqual([note]);
    await saveComposerDraftAttachments(chat, []);
    expect(await getDb().composerDrafts.get(chat)).toBeUndefined();
    expect(await getComposerDraftAttachments(newSessionId())).toEqual([]);
  });

  it("written before attachments were kept read as having none", async () => {
    const chat = newSessionId();
    await getDb().composerDrafts.put({ sessionId: chat, text: "old row", updatedAt: 1 });
    expect(await getComposerDraftAttachments(chat)).toEqual([]);
    expect(await getComposerDraft(chat)).toBe("old row");
  });

  it("go with their chat when it is deleted", async () => {
    const session = makeSession();
    await createSession(session);
    await saveComposerDraft(session.id, "never sent");
    await deleteSession(session.id);
    expect(await getComposerDraft(session.id)).toBe("");
  });
});
