/**
 * Files waiting in the composer survive a reload (issue 11, item 1): they are kept with the chat's
 * composer draft (their bytes in the blobs table), come back as chips with their preview, and go out
 * with the next message; sending or removing one leaves nothing to come back.
 */
import type { Page } from "@playwright/test";
import { chatRequests, openConfigured, send, userMessages, waitIdle } from "./app";
import { attachmentItems, attachmentList, NOTE, PNG, pickFiles } from "./attachments-helpers";
import { expect, test } from "./fixtures";

const SHOTS = "test-results/attachments";

/** The names of the files kept in every composer draft, read straight from IndexedDB (no app code). */
async function draftAttachmentNames(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open("grove");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const all = <T>(store: string) =>
      new Promise<T[]>((resolve, reject) => {
        const req = db.transaction(store, "readonly").objectStore(store).getAll();
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    // Each attached file is a row of its own (schema v11); the draft lists them by id, in order.
    const drafts = await all<{ attachmentIds?: string[] }>("composerDrafts");
    const files = new Map(
      (await all<{ id: string; block: { name: string } }>("composerAttachments")).map((r) => [r.id, r.block.name]),
    );
    db.close();
    return drafts.flatMap((d) => (d.attachmentIds ?? []).map((id) => files.get(id) ?? `missing ${id}`));
  });
}

test("an attached image survives a reload with its preview, and goes out with the next message", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock);
  await pickFiles(page, [PNG, NOTE]);
  await expect(attachmentItems(page)).toHaveCount(2);
  await page.getByRole("button", { name: `Remove ${NOTE.name}` }).click();
  await expect(attachmentItems(page)).toHaveCount(1);
  await expect.poll(() => draftAttachmentNames(page)).toEqual([PNG.name]);

  await page.reload();
  const chip = attachmentItems(page).filter({ hasText: PNG.name });
  await expect(chip).toBeVisible();
  await expect(attachmentItems(page)).toHaveCount(1);
  await expect(chip.locator("img")).toHaveJSProperty("naturalWidth", 96);
  await expect(chip).toContainText("≈9 tokens");
  await page.locator(".composer").screenshot({ path: `${SHOTS}/composer-after-reload.png` });

  mock.enqueue("anthropic", { text: "High tide at noon." });
  await send(page, "What does the chart say?");
  await expect(userMessages(page)).toHaveCount(1);
  await waitIdle(page);
  await expect(attachmentList(page)).toHaveCount(0);
  const [request] = chatRequests(mock, "anthropic");
  const body = request?.body as { messages: Array<{ role: string; content: unknown }> };
  expect(body.messages.at(-1)?.content).toEqual([
    { type: "text", text: "What does the chart say?" },
    {
      type: "image",
      source: { type: "base64", media_type: "image/png", data: PNG.buffer.toString("base64") },
    },
  ]);

  // Sent: the draft holds no files any more (the message references the image), so a reload shows none.
  await expect.poll(() => draftAttachmentNames(page)).toEqual([]);
  await page.reload();
  await expect(userMessages(page).first()).toBeVisible();
  await expect(attachmentList(page)).toHaveCount(0);
});
