/**
 * A message sent while automatic compaction runs is queued in its own chat (issue 9, "A queued
 * message is lost"): it is sent to that chat when the compaction ends even if the user has opened
 * another chat meanwhile, and a queued message survives a reload as "not sent", with Send and
 * Discard. The summary request is held by the mock, so the compaction stays in progress for as
 * long as the test needs, on any machine.
 */
import type { Locator, Page } from "@playwright/test";
import { assistantMessages, send, userMessages } from "./app";
import { sessionIdOf, sessionLinks } from "./branching-helpers";
import {
  autoStatus,
  chatReply,
  conversationRequests,
  exchange,
  FIRST_SUMMARY,
  messageWith,
  openSmallWindow,
  SHORT_SUMMARY,
  sentText,
  summarizerReply,
  talkUntilOver,
} from "./compaction-helpers";
import { expectHeld, storedQueuedTexts } from "./faults-helpers";
import { expect, type MockServer, test } from "./fixtures";
import { lastUserText } from "./mock-server/index";

const SETUP = { window: 16_000, maxOutput: 1_000, reserve: 2_000, keepRecent: 600, thresholdTokens: 2_000 } as const;
const QUESTION = "(Q) A question typed during compaction";
const ANSWER = "Answer to the queued question.";

/**
 * Exchanges in the chat on screen until an automatic compaction starts (its summary request held).
 * Each reply waits for the app's own count of the new context: the app decides to compact only
 * after counting, so a check right after the reply could send the next message into the queue.
 */
async function talkUntilCompacting(page: Page, mock: MockServer): Promise<void> {
  mock.enqueue(
    "openai",
    summarizerReply(FIRST_SUMMARY, { chunks: ["## Goal\n\n", "Keep the plan going.\n"], hold: { afterChunks: 1 } }),
    summarizerReply(SHORT_SUMMARY, { text: "Automatic summary of the plan" }),
  );
  await talkUntilOver(page, mock, SETUP.thresholdTokens);
  await expectHeld(mock, "openai");
  await expect(autoStatus(page)).toBeVisible();
}

/** Sends the question while the compaction runs: it waits, queued, in this chat. */
async function queueQuestion(page: Page, mock: MockServer): Promise<Locator> {
  mock.enqueue("openai", chatReply("(Q)", { text: ANSWER }));
  await send(page, QUESTION);
  const queued = page.getByRole("note", { name: "Queued message" });
  await expect(queued).toContainText("Will be sent after compaction");
  await expect(queued).toContainText(QUESTION);
  return queued;
}

const questionRequests = (mock: MockServer) =>
  conversationRequests(mock).filter((r) => lastUserText(r).includes("(Q)"));

test("a message queued during automatic compaction is sent to its chat after it, even from another chat", async ({
  page,
  mock,
}) => {
  test.setTimeout(120_000);
  await openSmallWindow(page, mock, SETUP);
  // Another chat to go to.
  await exchange(page, mock, "Facts about oaks, please", "oaks", { text: "Oaks live long." });
  const oaks = sessionIdOf(page);
  await page.getByRole("button", { name: "New chat" }).click();
  await expect(userMessages(page)).toHaveCount(0);

  await talkUntilCompacting(page, mock);
  const plan = sessionIdOf(page);
  await queueQuestion(page, mock);

  // The user opens the other chat before the compaction ends.
  await sessionLinks(page).filter({ hasText: "Facts about oaks" }).click();
  await expect(page).toHaveURL(new RegExp(`#/s/${oaks}$`));
  await expect(messageWith(page, "assistant", "Oaks live long.")).toBeVisible();
  mock.release("openai");

  // The question goes out once, in its own chat, after the summary.
  await expect.poll(() => questionRequests(mock).length, { timeout: 30_000 }).toBe(1);
  const sent = sentText(questionRequests(mock)[0]);
  expect(sent).toContain("(U1)");
  expect(sent).not.toContain("oaks");
  // Nothing arrived in the chat on screen.
  await expect(userMessages(page)).toHaveCount(1);
  await expect(page.getByRole("note", { name: "Queued message" })).toHaveCount(0);

  // Back in the first chat: the question and its answer are there.
  await sessionLinks(page).filter({ hasNotText: "Facts about oaks" }).first().click();
  await expect(page).toHaveURL(new RegExp(`#/s/${plan}$`));
  await expect(messageWith(page, "user", QUESTION)).toBeVisible({ timeout: 15_000 });
  await expect(messageWith(page, "assistant", ANSWER)).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("note", { name: /Queued message|Unsent message/ })).toHaveCount(0);
});

test("a queued message survives a reload as not sent, with Send and Discard; Send sends it", async ({ page, mock }) => {
  test.setTimeout(120_000);
  await openSmallWindow(page, mock, SETUP);
  await talkUntilCompacting(page, mock);
  await queueQuestion(page, mock);
  // Stored (the page shows it queued at once; the write follows a moment later).
  await expect.poll(() => storedQueuedTexts(page)).toEqual([QUESTION]);

  // The page goes away before the compaction ends (its request dies with it).
  await page.reload();
  mock.release("openai");
  const unsent = page.getByRole("note", { name: "Unsent message" });
  await expect(unsent).toContainText(QUESTION, { timeout: 15_000 });
  await expect(unsent).toContainText("not sent");
  await expect(unsent.getByRole("button", { name: "Discard" })).toBeVisible();
  // Not sent by itself: the user decides.
  expect(questionRequests(mock)).toHaveLength(0);
  await page.screenshot({ path: "test-results/e2e-artifacts/queued-message-unsent.png" });

  await unsent.getByRole("button", { name: "Send" }).click();
  await expect(messageWith(page, "assistant", ANSWER)).toBeVisible({ timeout: 15_000 });
  await expect(unsent).toHaveCount(0);
  expect(questionRequests(mock)).toHaveLength(1);
  // Once, even after another reload.
  await page.reload();
  await expect(assistantMessages(page).last()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("note", { name: /Queued message|Unsent message/ })).toHaveCount(0);
});
