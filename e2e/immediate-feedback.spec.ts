/**
 * Immediate feedback after Enter (issue 12, item 2): in a fresh tab the user's message and the reply
 * placeholder with Stop are in the DOM by the next animation frame after the Enter keydown, before
 * any database write or provider code; automatic compaction of a chat too big for the window shows
 * its bar before any token is counted (the compaction worker's script is held back, so no count can
 * happen). Every check is on state: the frame is `requestAnimationFrame`, the rest waits on the
 * mock's `hold` and on held routes, never on time.
 */
import type { Page } from "@playwright/test";
import { assistantMessages, chatRequests, openConfigured, streamingMessage, userMessages, waitIdle } from "./app";
import {
  compactionCards,
  FIRST_SUMMARY,
  openSmallWindow,
  prose,
  SHORT_SUMMARY,
  summarizerReply,
  summarizerRequests,
} from "./compaction-helpers";
import {
  errorNotices,
  expectHeld,
  holdAppCode,
  installQuotaSwitch,
  reloadSession,
  setQuotaFull,
} from "./faults-helpers";
import { expect, test } from "./fixtures";
import { openSeeded, type Row, seed } from "./seed";

/** What is on screen one animation frame after an Enter keydown dispatched on the composer. */
type AfterOneFrame = { userMessage: boolean; placeholder: boolean; stop: boolean };

/**
 * Types `text`, then, inside the page: dispatches Enter on the composer and looks at the DOM in
 * the next `requestAnimationFrame` callback (before that frame paints).
 */
async function enterAndLookOneFrameLater(page: Page, text: string): Promise<AfterOneFrame> {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  return page.evaluate(async (text) => {
    const textarea = document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]');
    if (!textarea) throw new Error("no composer");
    textarea.dispatchEvent(
      new KeyboardEvent("keydown", { key: "Enter", code: "Enter", bubbles: true, cancelable: true }),
    );
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const users = [...document.querySelectorAll('article[aria-label^="User message"]')];
    return {
      userMessage: users.some((a) => a.textContent?.includes(text)),
      placeholder: document.querySelector('article[aria-busy="true"]') !== null,
      stop: [...document.querySelectorAll("button")].some((b) => b.textContent?.trim() === "Stop"),
    };
  }, text);
}

test.describe("a send shows its placeholder within one frame of Enter", () => {
  test("in a fresh tab, in a chat that exists: the message, the placeholder and Stop, then the reply in the same rows", async ({
    page,
    mock,
  }) => {
    await openConfigured(page, mock);
    mock.enqueue("anthropic", { text: "First answer." });
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill("First question");
    await box.press("Enter");
    await expect(assistantMessages(page)).toHaveCount(1, { timeout: 15_000 });
    await waitIdle(page);
    // A fresh tab: a new page that has not sent yet.
    await reloadSession(page);
    await expect(userMessages(page)).toHaveCount(1);
    mock.enqueue("anthropic", { text: "Second answer.", hold: true });

    const seen = await enterAndLookOneFrameLater(page, "Second question");
    expect(seen).toEqual({ userMessage: true, placeholder: true, stop: true });

    // The rows shown at once are the rows the stored entries take over: the same element stays.
    const mark = await page.evaluate(() => {
      const users = document.querySelectorAll('article[aria-label^="User message"]');
      const last = users[users.length - 1];
      last?.setAttribute("data-test-mark", "shown-at-once");
      return users.length;
    });
    expect(mark).toBe(2);
    await expectHeld(mock, "anthropic");
    mock.release("anthropic");
    await expect(assistantMessages(page).last()).toContainText("Second answer.", { timeout: 15_000 });
    await waitIdle(page);
    await expect(userMessages(page)).toHaveCount(2);
    await expect(page.locator('[data-test-mark="shown-at-once"]')).toContainText("Second question");
    await reloadSession(page);
    await expect(userMessages(page)).toHaveText([/First question/, /Second question/]);
  });

  test("in a fresh tab, the first message of a new chat, while the provider code is still loading", async ({
    page,
    mock,
  }) => {
    await openConfigured(page, mock);
    await page.reload();
    await expect(page.getByRole("heading", { name: "What are we exploring?" })).toBeVisible();
    const code = await holdAppCode(page, ["anthropic", "openai", "compaction.worker"]);
    mock.enqueue("anthropic", { text: "Hello back." });

    const seen = await enterAndLookOneFrameLater(page, "Hello there");
    expect(seen).toEqual({ userMessage: true, placeholder: true, stop: true });
    await page.screenshot({ path: "test-results/e2e-artifacts/immediate-feedback-new-chat.png" });

    await code.release();
    await expect(assistantMessages(page)).toHaveCount(1, { timeout: 15_000 });
    await expect(assistantMessages(page).last()).toContainText("Hello back.");
    await waitIdle(page);
    await expect(page).toHaveURL(/#\/s\//);
    await reloadSession(page);
    await expect(userMessages(page)).toHaveText([/Hello there/]);
  });
});

test("a fresh tab loads the chat's provider code before the first send (a key is set), so Enter waits for no download", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock, { model: { provider: "openai", id: "gpt-4o" } });
  mock.enqueue("openai", { text: "Noted." });
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Remember this");
  await box.press("Enter");
  await expect(assistantMessages(page)).toHaveCount(1, { timeout: 15_000 });
  await waitIdle(page);
  const providerChunks: string[] = [];
  page.on("request", (r) => {
    if (/\/assets\/openai-[^/]*\.js$/.test(r.url())) providerChunks.push(r.url());
  });
  await reloadSession(page);
  await expect.poll(() => providerChunks.length).toBeGreaterThan(0);
  expect(mock.requests({ api: "openai" }).filter((r) => r.method === "POST")).toHaveLength(1);
});

const BIG = "0196b000-0000-7000-8000-00000000b100";

/** A chat of `turns` exchanges of ~`words` words each, far over a 16,000-token window. */
function bigChatRows(turns: number, words: number): { sessions: Row[]; entries: Row[] } {
  const entries: Row[] = [];
  const id = (n: number) => `${BIG.slice(0, 24)}e${String(n).padStart(11, "0")}`;
  let parent: string | null = null;
  for (let i = 1; i <= turns * 2; i++) {
    const role = i % 2 === 1 ? "user" : "assistant";
    entries.push({
      id: id(i),
      sessionId: BIG,
      parentId: parent,
      createdAt: Date.UTC(2025, 4, 1, 9, 0, 0) + i * 60_000,
      type: "message",
      role,
      content: [{ type: "text", text: prose(`(${role === "user" ? "U" : "A"}${i})`, words) }],
      status: "complete",
      ...(role === "assistant" ? { provider: "openai", model: "gpt-4o" } : {}),
    });
    parent = id(i);
  }
  const now = Date.UTC(2025, 4, 1, 12, 0, 0);
  return {
    sessions: [
      {
        id: BIG,
        title: "A long chat",
        titleSource: "user",
        createdAt: now,
        updatedAt: now,
        leafId: parent,
        model: { providerId: "openai", modelId: "gpt-4o" },
      },
    ],
    entries,
  };
}

test("automatic compaction before a send shows its bar at once: before any token is counted", async ({
  page,
  mock,
}) => {
  test.setTimeout(90_000);
  await openSmallWindow(page, mock, { window: 16_000, maxOutput: 1_000, reserve: 2_000, keepRecent: 600 });
  // ~40 × 500 words: well over the window, so the send must make room first (preflight).
  await seed(page, bigChatRows(20, 500));
  // A fresh tab whose compaction worker cannot start: nothing can be counted until released.
  const code = await holdAppCode(page, ["anthropic", "openai", "compaction.worker"]);
  await openSeeded(page, BIG);
  await expect(userMessages(page).last()).toBeVisible();
  mock.enqueue(
    "openai",
    summarizerReply(FIRST_SUMMARY, {
      chunks: ["## Standing facts & constraints\n\n", "- LONG-CHAT-SUMMARY\n", "\n## Goal\n\nGo on."],
      hold: { afterChunks: 1 },
    }),
    summarizerReply(SHORT_SUMMARY, { text: "The long chat so far" }),
    { text: "Answer after the compaction.", match: { lastUser: "(Q) After all that" } },
  );
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("(Q) After all that, what next?");
  await box.press("Enter");

  const bar = page.getByRole("status", { name: "Automatic compaction" });
  await expect(bar).toBeVisible();
  await expect(bar).toContainText("would not fit");
  // Shown while the worker that counts tokens has not even loaded, and before any summarizer call.
  await expect.poll(() => code.held()).toBeGreaterThan(0);
  expect(summarizerRequests(mock)).toHaveLength(0);
  await expect(userMessages(page).last()).toContainText("(Q) After all that");
  // The reply placeholder stays in view above the bar that took height from the list.
  await expect(streamingMessage(page)).toBeInViewport();
  await page.screenshot({ path: "test-results/e2e-artifacts/immediate-feedback-compaction-bar.png" });

  await code.release();
  await expectHeld(mock, "openai");
  await expect(bar).toContainText(/Summarizing/);
  await page.screenshot({ path: "test-results/e2e-artifacts/immediate-feedback-compaction-summarizing.png" });
  mock.release("openai");
  await expect(compactionCards(page)).toHaveCount(1, { timeout: 20_000 });
  await expect(compactionCards(page)).toContainText("before sending");
  await expect(bar).toBeHidden();
  await expect(assistantMessages(page).last()).toContainText("Answer after the compaction.", { timeout: 15_000 });
});

/** What is on screen one animation frame after an Edit or a Regenerate. */
type AfterVerb = { users: string[]; assistants: string[]; versions: string[]; placeholder: boolean; stop: boolean };

/**
 * Inside the page: runs `act` (an Enter keydown on the edit box, or a click on Regenerate) and reads
 * the chat in the next `requestAnimationFrame` callback (before that frame paints).
 */
async function actAndLookOneFrameLater(page: Page, act: { edit: true } | { regenerate: number }): Promise<AfterVerb> {
  return page.evaluate(async (act) => {
    if ("edit" in act) {
      const box = document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Edit message"]');
      if (!box) throw new Error("no edit box");
      box.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", code: "Enter", bubbles: true, cancelable: true }));
    } else {
      const replies = document.querySelectorAll('article[aria-label^="Assistant message"]');
      const button = [...(replies[act.regenerate]?.querySelectorAll("button") ?? [])].find(
        (b) => b.textContent?.trim() === "Regenerate",
      );
      if (!button) throw new Error("no Regenerate button");
      button.click();
    }
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const texts = (selector: string) =>
      [...document.querySelectorAll(selector)].map((a) => a.querySelector(".message-body")?.textContent?.trim() ?? "");
    return {
      users: texts('article[aria-label^="User message"]'),
      assistants: texts('article[aria-label^="Assistant message"]:not([aria-busy="true"])'),
      versions: [...document.querySelectorAll("article .versions > span")].map((s) => s.textContent?.trim() ?? ""),
      placeholder: document.querySelector('article[aria-busy="true"]') !== null,
      stop: [...document.querySelectorAll("button")].some((b) => b.textContent?.trim() === "Stop"),
    };
  }, act);
}

/** A chat of two exchanges (the mock echoes), opened again in a fresh tab. */
async function twoExchangesInAFreshTab(page: Page, mock: Parameters<typeof openConfigured>[1]): Promise<void> {
  await openConfigured(page, mock);
  const box = page.getByRole("textbox", { name: "Message" });
  for (const [i, text] of ["What is a grove?", "Name three trees"].entries()) {
    await box.fill(text);
    await box.press("Enter");
    await expect(assistantMessages(page)).toHaveCount(i + 1, { timeout: 15_000 });
    await waitIdle(page);
  }
  await reloadSession(page);
  await expect(assistantMessages(page)).toHaveCount(2);
}

test.describe("Edit and Regenerate show their result within one frame, in a fresh tab", () => {
  test("Edit saved with Enter: the new version (2 / 2) in the old one's place, the placeholder and Stop; then the reply in the same rows", async ({
    page,
    mock,
  }) => {
    await twoExchangesInAFreshTab(page, mock);
    const second = userMessages(page).nth(1);
    await second.hover();
    await second.getByRole("button", { name: "Edit" }).click();
    await second.getByRole("textbox", { name: "Edit message" }).fill("Name four trees");
    mock.enqueue("anthropic", { text: "Oak, ash, elm and yew.", hold: true });

    const seen = await actAndLookOneFrameLater(page, { edit: true });
    expect(seen).toEqual({
      users: ["What is a grove?", "Name four trees"],
      assistants: ["Echo: What is a grove?"],
      versions: ["2 / 2"],
      placeholder: true,
      stop: true,
    });
    await page.screenshot({ path: "test-results/e2e-artifacts/immediate-feedback-edit.png" });

    // The row shown at once is the row the stored entry takes over.
    await page.evaluate(() =>
      document.querySelectorAll('article[aria-label^="User message"]')[1]?.setAttribute("data-test-mark", "edit"),
    );
    await expectHeld(mock, "anthropic");
    mock.release("anthropic");
    await expect(assistantMessages(page).last()).toContainText("Oak, ash, elm and yew.", { timeout: 15_000 });
    await waitIdle(page);
    await expect(page.locator('[data-test-mark="edit"]')).toContainText("Name four trees");
    await reloadSession(page);
    await expect(userMessages(page)).toHaveText([/What is a grove\?/, /Name four trees/]);
    await expect(userMessages(page).nth(1).locator(".versions > span")).toHaveText("2 / 2");
  });

  test("Regenerate: the old reply leaves, the placeholder and Stop are under the question; then the new version", async ({
    page,
    mock,
  }) => {
    await twoExchangesInAFreshTab(page, mock);
    mock.enqueue("anthropic", { text: "A second answer.", hold: true });

    const seen = await actAndLookOneFrameLater(page, { regenerate: 1 });
    expect(seen).toEqual({
      users: ["What is a grove?", "Name three trees"],
      assistants: ["Echo: What is a grove?"],
      versions: [],
      placeholder: true,
      stop: true,
    });
    await page.screenshot({ path: "test-results/e2e-artifacts/immediate-feedback-regenerate.png" });

    await expectHeld(mock, "anthropic");
    mock.release("anthropic");
    await expect(assistantMessages(page).last()).toContainText("A second answer.", { timeout: 15_000 });
    await waitIdle(page);
    await expect(assistantMessages(page).last().locator(".versions > span")).toHaveText("2 / 2");
  });

  test("an edit that cannot be stored leaves the screen again and its text is back in the editor", async ({
    page,
    mock,
  }) => {
    await installQuotaSwitch(page);
    await twoExchangesInAFreshTab(page, mock);
    const second = userMessages(page).nth(1);
    await second.hover();
    await second.getByRole("button", { name: "Edit" }).click();
    await second.getByRole("textbox", { name: "Edit message" }).fill("Name four trees");
    await setQuotaFull(page, true);
    await second.getByRole("button", { name: "Save and send" }).click();

    await expect(errorNotices(page).last()).toContainText("could not be saved");
    await expect(page.getByRole("textbox", { name: "Edit message" })).toHaveValue("Name four trees");
    await expect(userMessages(page)).toHaveCount(2);
    await expect(streamingMessage(page)).toHaveCount(0);
    await expect(page.locator("article .versions")).toHaveCount(0);
    expect(chatRequests(mock, "anthropic")).toHaveLength(2);
  });
});
