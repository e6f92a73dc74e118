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
    expect(await getDb().composerAttachments.count()).toBe(0);
    expect(await getComposerDraftAttachments(newSessionId())).toEqual([]);
  });

  it("a save of the text after a 1 MB paste writes the small draft row only, never the pasted file again", async () => {
    const chat = newSessionId();
    const pasted: TextFileBlock = {
      type: "text_file",
      name: "pasted-text.txt",
      mimeType: "text/plain",
      text: "00000 INFO worker ok\n".repeat(50_000),
    };
    const writes: string[] = [];
    const table = getDb().composerAttachments;
    const onCreate = (id: string) => void writes.push(`create ${id}`);
    const onUpdate = (_changes: object, id: string) => void writes.push(`update ${id}`);
    table.hook("creating", onCreate);
    table.hook("updating", onUpdate);
    try {
      await saveComposerDraftAttachments(chat, [pasted]);
      expect(writes).toHaveLength(1); // written once, when attached
      const draftRow = await getDb().composerDrafts.get(chat);
      expect(JSON.stringify(draftRow).length).toBeLessThan(200);

      for (const text of ["what", "what is failing", "what is failing here?"]) await saveComposerDraft(chat, text);
      // The same list again (the tray re-saved, a second file attached next to it): the paste is kept as is.
      const note: TextFileBlock = { type: "text_file", name: "a.md", mimeType: "text/markdown", text: "# A" };
      await saveComposerDraftAttachments(chat, [{ ...pasted }, note]);
      expect(writes).toHaveLength(2); // only the new file
      expect(writes[0]).toBe(`create ${draftRow?.attachmentIds?.[0]}`);
      expect(await getComposerDraftAttachments(chat)).toEqual([pasted, note]);
      expect(await getComposerDraft(chat)).toBe("what is failing here?");
    } finally {
      table.hook("creating").unsubscribe(onCreate);
      table.hook("updating").unsubscribe(onUpdate);
    }
  });

  it("the same file attached twice is two rows, and removing one keeps the other", async () => {
    const chat = newSessionId();
    const note: TextFileBlock = { type: "text_file", name: "a.md", mimeType: "text/markdown", text: "# A" };
    await saveComposerDraftAttachments(chat, [note, note]);
    expect(await getDb().composerAttachments.count()).toBe(2);
    await saveComposerDraftAttachments(chat, [note]);
    expect(await getDb().composerAttachments.count()).toBe(1);
    expect(await getComposerDraftAttachments(chat)).toEqual([note]);
  });

  it("written before attachments were kept read as having none", async () => {
    const chat = newSessionId();
    await getDb().composerDrafts.put({ sessionId: chat, text: "old row", updatedAt: 1 });
    expect(await getComposerDraftAttachments(chat)).toEqual([]);
    expect(await getComposerDraft(chat)).toBe("old row");
  });

  it("go with their chat when it is deleted, attached files too", async () => {
    const session = makeSession();
    await createSession(session);
    await saveComposerDraft(session.id, "never sent");
    await saveComposerDraftAttachments(session.id, [
      { type: "text_file", name: "a.md", mimeType: "text/markdown", text: "# A" },
    ]);
    await deleteSession(session.id);
    expect(await getComposerDraft(session.id)).toBe("");
    expect(await getDb().composerAttachments.count()).toBe(0);
  });
});
