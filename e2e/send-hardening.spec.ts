/**
 * Sending, hardened (issue 9, hardening 0 and the composer / full-disk findings): a follow-up sent
 * while the first reply is still loading queues behind it instead of forking; the reply shows at
 * once with Stop; a failed Retry does not pile up empty error versions; the composer's text belongs
 * to its chat and survives a reload; a reply the disk cannot hold stays on screen and is saved when
 * space returns. Every wait is on state (the mock's `hold`, held script requests), never on time.
 */
import type { Page } from "@playwright/test";
import {
  assistantMessages,
  chatRequests,
  openConfigured,
  send,
  sendAndWait,
  streamingMessage,
  userMessages,
  waitIdle,
} from "./app";
import { errorNotices, expectHeld, holdAppCode, messageAlert, reloadSession, setApiKey } from "./faults-helpers";
import { expect, test } from "./fixtures";
import { lastUserText, requestMessages } from "./mock-server/index";

test.describe("a follow-up sent while the reply is still loading", () => {
  test("queues behind the reply on the same branch and is answered; the placeholder with Stop shows at once", async ({
    page,
    mock,
  }) => {
    await openConfigured(page, mock);
    await sendAndWait(page, "Earlier question");
    // A fresh tab: the provider code and the worker are not loaded yet, and stay loading.
    const code = await holdAppCode(page, ["anthropic", "compaction.worker"]);
    await reloadSession(page);
    mock.enqueue("anthropic", { text: "Answer to the first.", hold: true });

    await send(page, "First follow-up");
    // The reply placeholder and Stop are there while the provider code is still loading.
    await expect(streamingMessage(page)).toBeVisible();
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
    await send(page, "Second follow-up");
    const queued = page.getByRole("note", { name: "Queued message" });
    await expect(queued).toContainText("Second follow-up");
    await expect(userMessages(page)).toHaveCount(2);
    expect(code.held()).toBeGreaterThan(0);

    await code.release();
    await expectHeld(mock, "anthropic");
    mock.release("anthropic");
    await expect(assistantMessages(page).nth(1)).toContainText("Answer to the first.");
    // The queued message goes out as the child of that answer, and is answered in turn.
    await expect(assistantMessages(page)).toHaveCount(3, { timeout: 15_000 });
    await expect(assistantMessages(page).last()).toContainText("Echo: Second follow-up");
    await waitIdle(page);
    await expect(queued).toHaveCount(0);
    await expect(userMessages(page)).toHaveText([/Earlier question/, /First follow-up/, /Second follow-up/]);
    // No fork anywhere: nothing hides behind "1 / 2".
    await expect(page.locator(".versions")).toHaveCount(0);
    const last = chatRequests(mock, "anthropic").at(-1);
    expect(last && lastUserText(last)).toBe("Second follow-up");
    expect(last && JSON.stringify(requestMessages(last))).toContain("Answer to the first.");

    await reloadSession(page);
    await expect(userMessages(page)).toHaveCount(3);
    await expect(page.locator(".versions")).toHaveCount(0);
  });
});

test.describe("a Retry that fails again", () => {
  test("does not add another empty error version; a Retry that works replaces it (issue 27)", async ({
    page,
    mock,
  }) => {
    const rightKey = "sk-ant-the-right-key-789";
    mock.config({ apiKey: rightKey });
    await openConfigured(page, mock);
    await send(page, "Are you there?");
    const reply = assistantMessages(page).last();
    await expect(messageAlert(reply)).toContainText(/API key/, { timeout: 10_000 });

    for (let i = 0; i < 2; i++) {
      await messageAlert(assistantMessages(page).last()).getByRole("button", { name: "Retry" }).click();
      await expect(errorNotices(page).last()).toContainText(/Retry failed/);
      await waitIdle(page);
      await page.locator(".notices").getByRole("button", { name: "Dismiss" }).click();
    }
    await expect(assistantMessages(page)).toHaveCount(1);
    await expect(page.locator(".versions")).toHaveCount(0);
    expect(chatRequests(mock, "anthropic")).toHaveLength(3);
    await reloadSession(page);
    await expect(page.locator(".versions")).toHaveCount(0);
    await expect(messageAlert(assistantMessages(page).last())).toContainText(/API key/);

    await setApiKey(page, "Anthropic", rightKey);
    mock.enqueue("anthropic", { text: "Yes, now it works." });
    await messageAlert(assistantMessages(page).last()).getByRole("button", { name: "Retry" }).click();
    await expect(assistantMessages(page).last()).toContainText("Yes, now it works.", { timeout: 10_000 });
    // The failed attempt is not a version: no "1 / 2" error card to flip back to.
    await expect(assistantMessages(page).last().locator(".versions")).toHaveCount(0);
    await expect(messageAlert(assistantMessages(page).last())).toHaveCount(0);
  });
});

test.describe("the composer's text", () => {
  test("belongs to its chat: it stays there when another chat opens, and survives a reload", async ({ page, mock }) => {
    await openConfigured(page, mock);
    await sendAndWait(page, "Chat A begins");
    const chatA = page.url();
    await page.getByRole("button", { name: "New chat" }).click();
    await sendAndWait(page, "Chat B begins");
    const chatB = page.url();
    const box = page.getByRole("textbox", { name: "Message" });
    const sessions = page.getByRole("navigation", { name: "Sessions" });

    await box.fill("Half a thought for B");
    await sessions.getByRole("link", { name: /Chat A begins/ }).click();
    await expect(userMessages(page).first()).toContainText("Chat A begins");
    await expect(box).toHaveValue("");
    await box.fill("Half a thought for A");
    await sessions.getByRole("link", { name: /Chat B begins/ }).click();
    await expect(userMessages(page).first()).toContainText("Chat B begins");
    await expect(box).toHaveValue("Half a thought for B");

    await page.goto(chatA);
    await page.reload();
    await expect(userMessages(page).first()).toContainText("Chat A begins");
    await expect(box).toHaveValue("Half a thought for A");

    // Enter sends the chat's own text to the chat on screen, and the draft is gone with it.
    await box.press("Enter");
    await expect(userMessages(page)).toHaveCount(2);
    await expect(userMessages(page).last()).toContainText("Half a thought for A");
    await waitIdle(page);
    await page.goto(chatB);
    await expect(userMessages(page)).toHaveCount(1);
    await expect(box).toHaveValue("Half a thought for B");
    await page.goto(chatA);
    await page.reload();
    await expect(userMessages(page)).toHaveCount(2);
    await expect(box).toHaveValue("");
  });
});

/** Every IndexedDB write throws QuotaExceededError while `window.__groveDiskFull` is true (all stores). */
async function installDiskFullSwitch(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const proto = IDBObjectStore.prototype;
    const full = () => Reflect.get(window, "__groveDiskFull") === true;
    const quotaError = () => new DOMException("The quota has been exceeded.", "QuotaExceededError");
    const add = proto.add;
    const put = proto.put;
    proto.add = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore["add"]>): IDBRequest<IDBValidKey> {
      if (full()) throw quotaError();
      return add.apply(this, args);
    };
    proto.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore["put"]>): IDBRequest<IDBValidKey> {
      if (full()) throw quotaError();
      return put.apply(this, args);
    };
  });
}

const setDiskFull = (page: Page, full: boolean) =>
  page.evaluate((on) => Reflect.set(window, "__groveDiskFull", on), full);

test.describe("a full disk during a reply", () => {
  test("keeps the whole reply on screen, says it is not saved, and saves it when space returns", async ({
    page,
    mock,
  }) => {
    await installDiskFullSwitch(page);
    await openConfigured(page, mock);
    const chunks = Array.from({ length: 40 }, (_, i) => `${`[chunk ${i}]`.padEnd(3_000, "x")}`);
    const whole = chunks.join("");
    mock.enqueue("anthropic", { chunks, chunkDelayMs: 1, hold: { afterChunks: 2 } });
    await send(page, "A long answer, please");
    await expectHeld(mock, "anthropic");
    await setDiskFull(page, true);
    mock.release("anthropic");

    const unsaved = page.getByRole("article", { name: "Assistant message (not saved)" });
    await expect(unsaved.getByRole("alert")).toContainText(/Not saved: the browser's storage for Grove is full/);
    await expect(unsaved).toContainText("[chunk 39]");
    // The composer is usable (Send, not Stop): the reply is finished, only its saving waits.
    await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);

    await setDiskFull(page, false);
    await unsaved.getByRole("button", { name: "Save now" }).click();
    await expect(unsaved).toHaveCount(0);
    await expect(assistantMessages(page).last()).toContainText("[chunk 39]");

    await reloadSession(page);
    const saved = assistantMessages(page).last();
    await expect(saved).toContainText("[chunk 39]");
    const length = await page.evaluate(async () => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open("grove");
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const rows = await new Promise<Array<{ role?: string; content?: Array<{ text?: string }> }>>((resolve) => {
        const req = db.transaction("entries", "readonly").objectStore("entries").getAll();
        req.onsuccess = () => resolve(req.result);
      });
      db.close();
      return rows.find((r) => r.role === "assistant")?.content?.[0]?.text?.length ?? 0;
    });
    expect(length).toBe(whole.length);
  });
});
