/**
 * Issue 27, "Stay where you are": what the user sees after flipping versions, undoing a compaction,
 * retrying and stopping, notices, and the header at narrow widths. Positions are asserted from
 * bounding boxes: the view must not move under the reader.
 */
import type { Locator, Page } from "@playwright/test";
import { animationsDone, chatAction, openConfigured, send, waitIdle } from "./app";
import { expectVersion, message } from "./branching-helpers";
import {
  compactFromHeader,
  compactionCards,
  conversationRequests,
  exactTokens,
  exchange,
  FIRST_SUMMARY,
  FRAMING,
  openSmallWindow,
  prose,
  SHORT_SUMMARY,
  sentText,
  summarizerReply,
} from "./compaction-helpers";
import { expect, type MockServer, test } from "./fixtures";
import { expectNoOverlap, overlaps } from "./header-helpers";

const SHOTS = process.env.GROVE_E2E_SHOTS;

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** A paragraph long enough that a few replies fill the screen. */
const long = (label: string) =>
  `${label}. ${"A grove is a small group of trees with little or no undergrowth. ".repeat(6)}`;

async function topOf(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error("not on screen");
  return box.y;
}

async function longChat(page: Page, mock: MockServer, n: number): Promise<void> {
  await openConfigured(page, mock);
  for (let i = 1; i <= n; i++) {
    mock.enqueue("anthropic", { text: long(`Reply ${i.toString()}`) });
    // Rows out of view are not in the DOM (the list is virtualized): wait for this reply itself.
    await send(page, `Question ${i.toString()}`);
    await expect(message(page, "assistant", `Reply ${i.toString()}.`)).toBeVisible({ timeout: 15_000 });
    await waitIdle(page);
  }
}

/** Scrolls the chat with the mouse wheel (as a person does) by `dy` px and waits until it settles. */
async function wheel(page: Page, dy: number): Promise<void> {
  const scroller = page.locator(".message-scroll");
  const box = await scroller.boundingBox();
  if (!box) throw new Error("no chat on screen");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, dy);
  let last = -1;
  await expect
    .poll(async () => {
      const now = await scroller.evaluate((el) => el.scrollTop);
      const settled = now === last;
      last = now;
      return settled;
    })
    .toBe(true);
}

const near = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(4);

test.describe("item 1: flipping versions in place", () => {
  test("‹ and › keep the clicked message at the same place on screen, mounted and visible", async ({ page, mock }) => {
    test.setTimeout(90_000);
    await longChat(page, mock, 6);
    // A second version of the third reply; the first keeps the three later exchanges below it.
    mock.enqueue("anthropic", { text: long("Reply 3, take two") });
    const third = message(page, "assistant", "Reply 3.");
    await third.scrollIntoViewIfNeeded();
    await third.getByRole("button", { name: "Regenerate" }).click();
    const second = message(page, "assistant", "Reply 3, take two");
    await expect(second).toBeVisible();
    await waitIdle(page);
    await expectVersion(second, 2, 2);

    // Reading at the end of the chat (following it), the user flips to version 1, whose branch
    // goes on for three more exchanges: the view stays on the message, not on that branch's end.
    await wheel(page, 3_000);
    const atEnd = await topOf(second);
    await shot(page, "flip-0-at-end");
    await second.getByRole("button", { name: "Previous version" }).click();
    const first = message(page, "assistant", "Reply 3.");
    await expect(first).toBeInViewport();
    await expectVersion(first, 1, 2);
    near(await topOf(first), atEnd);
    // The later exchanges of version 1 are there, below.
    await expect(message(page, "user", "Question 4")).toHaveCount(1);
    await shot(page, "flip-1-previous");

    // The message near the top of the screen: version 2 ends the path (nothing below it), yet it
    // stays where it was instead of the shorter list pulling it down.
    await wheel(page, (await topOf(first)) - 120);
    const high = await topOf(first);
    expect(high).toBeLessThan(200);
    await first.getByRole("button", { name: "Next version" }).click();
    await expect(second).toBeInViewport();
    await expectVersion(second, 2, 2);
    near(await topOf(second), high);
    await shot(page, "flip-2-next");

    // Flipping back and forth never drifts.
    await second.getByRole("button", { name: "Previous version" }).click();
    await expect(first).toBeInViewport();
    near(await topOf(first), high);
    await first.getByRole("button", { name: "Next version" }).click();
    await expect(second).toBeInViewport();
    near(await topOf(second), high);
    await animationsDone(page);
  });
});

const SMALL = { window: 16_000, maxOutput: 1_000, reserve: 2_000, keepRecent: 700, auto: false } as const;

test.describe("item 2: undo compaction is a real undo", () => {
  test("after Undo the chat is as before, with no control re-applying it but Redo; Redo puts it back", async ({
    page,
    mock,
  }) => {
    test.setTimeout(90_000);
    await openSmallWindow(page, mock, SMALL);
    for (let i = 1; i <= 5; i++) {
      await exchange(page, mock, prose(`(U${i})`, 40), `(U${i})`, { text: prose(`(A${i})`, 350) });
    }
    mock.enqueue(
      "openai",
      summarizerReply(FIRST_SUMMARY, { text: "## Goal\n\nSUMMARY-2727: count the colony.\n" }),
      summarizerReply(SHORT_SUMMARY, { text: "Counting the colony" }),
    );
    const dialog = await compactFromHeader(page);
    await expect(dialog).toBeHidden({ timeout: 15_000 });
    await page.getByRole("status", { name: "Latest result" }).getByRole("button", { name: "Show summary" }).click();
    const card = compactionCards(page);
    await card.getByRole("button", { name: "Undo compaction" }).click();

    const undone = page.getByRole("status").filter({ hasText: "Compaction undone" });
    await expect(undone).toBeVisible();
    await expect(compactionCards(page)).toHaveCount(0);
    await expect(page.getByText("Branching from here")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Back to latest" })).toHaveCount(0);
    await expect(page.getByText(/compaction paused/i)).toHaveCount(1);
    await shot(page, "undo-1-undone");

    // Redo: the compaction is back, and so is the paused automatic compaction's end.
    await undone.getByRole("button", { name: "Redo" }).click();
    await expect(undone).toHaveCount(0);
    await expect(compactionCards(page)).toHaveCount(1);
    await expect(page.getByText(/compaction paused/i)).toHaveCount(0);
    await shot(page, "undo-2-redone");
    await exchange(page, mock, "(U6) And now?", "(U6)", { text: "Carrying on compacted." });
    const sent = sentText(conversationRequests(mock).at(-1));
    expect(sent).toContain(FRAMING);
    expect(sent).toContain("SUMMARY-2727");

    // Undo is no longer possible (a message was sent after it), and neither is a stale Redo.
    await expect(compactionCards(page).getByRole("button", { name: "Undo compaction" })).toHaveCount(0);
  });
});

test.describe("item 9: failures are not versions; stops say what happened", () => {
  test("a Retry that succeeds replaces the failed attempt: no error card kept as version 1", async ({ page, mock }) => {
    await openConfigured(page, mock);
    mock.enqueue("anthropic", { fault: { kind: "http", status: 401 } });
    await send(page, "Hello there");
    const failed = page.locator('article[aria-label^="Assistant message"]').last();
    const alert = failed.getByRole("alert");
    await expect(alert).toBeVisible({ timeout: 10_000 });
    mock.enqueue("anthropic", { text: "Hello back." });
    await alert.getByRole("button", { name: "Retry" }).click();
    const reply = message(page, "assistant", "Hello back.");
    await expect(reply).toBeVisible();
    await waitIdle(page);
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(reply.getByRole("button", { name: "Previous version" })).toHaveCount(0);
    await expect(reply.locator(".versions")).toHaveCount(0);
    await shot(page, "retry-replaced");
  });

  test("Stop before the first token says so and offers Retry; the retried reply is the only version", async ({
    page,
    mock,
  }) => {
    await openConfigured(page, mock);
    mock.enqueue("anthropic", { chunks: ["never shown"], fault: { kind: "hang", afterChunks: 0 } });
    await send(page, "Tell me a story");
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
    // Stop once the hanging answer is the mock's (a Stop before the request left would leave it
    // queued for the Retry).
    await expect
      .poll(
        () =>
          mock.requests({ api: "anthropic" }).filter((r) => r.method === "POST" && r.path.endsWith("/messages")).length,
      )
      .toBe(1);
    await page.getByRole("button", { name: "Stop" }).click();
    await waitIdle(page);
    const stopped = page.locator('article[aria-label^="Assistant message"]').last();
    await expect(stopped).toContainText("Stopped before the reply started");
    await expect(stopped).not.toContainText("cut short");
    await shot(page, "stopped-before-start");
    mock.enqueue("anthropic", { text: "Once upon a time." });
    await stopped.getByRole("button", { name: "Retry" }).click();
    const reply = message(page, "assistant", "Once upon a time.");
    await expect(reply).toBeVisible();
    await waitIdle(page);
    await expect(page.getByText("Stopped before the reply started")).toHaveCount(0);
    await expect(reply.locator(".versions")).toHaveCount(0);
  });
});

test.describe("item 6: notices that come and go", () => {
  test("a success notice sits beside the chat, not over it, and goes by itself", async ({ page, mock }) => {
    test.setTimeout(90_000);
    await openSmallWindow(page, mock, SMALL);
    for (let i = 1; i <= 4; i++) {
      await exchange(page, mock, prose(`(U${i})`, 40), `(U${i})`, { text: prose(`(A${i})`, 350) });
    }
    mock.enqueue(
      "openai",
      summarizerReply(FIRST_SUMMARY, { text: "## Goal\\n\\nSUMMARY-6.\\n" }),
      summarizerReply(SHORT_SUMMARY, { text: "Counting" }),
    );
    await expect(await compactFromHeader(page)).toBeHidden({ timeout: 15_000 });
    await page.getByRole("status", { name: "Latest result" }).getByRole("button", { name: "Show summary" }).click();
    await compactionCards(page).getByRole("button", { name: "Undo compaction" }).click();
    const undone = page.getByRole("status").filter({ hasText: "Compaction undone" });
    await expect(undone).toBeVisible();
    // The chat gave the notice its own room: no message is under it.
    await expect
      .poll(async () => {
        const notice = await undone.boundingBox();
        const chat = await page.locator(".message-scroll").boundingBox();
        return notice && chat ? overlaps(notice, chat) : null;
      })
      .toBe(false);
    await shot(page, "notice-beside-chat");
    // Nobody dismisses it: it goes on its own (and the chat takes its room back).
    await expect(undone).toBeHidden({ timeout: 30_000 });
    await expect
      .poll(() => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--notices-height")))
      .toBe("");
  });

  test("the same error twice is one notice; 'no API key yet' goes once the key is saved", async ({ page, mock }) => {
    await page.goto("/");
    const box = page.getByRole("textbox", { name: "Message", exact: true });
    await box.fill("Hello?");
    await box.press("Enter");
    const noKey = page
      .locator(".notices")
      .getByRole("alert")
      .filter({ hasText: /API key yet/ });
    await expect(noKey).toHaveCount(1);
    await box.press("Enter");
    await expect(noKey).toHaveCount(1);
    await expect(noKey).toContainText("(×2)");
    await shot(page, "notice-no-key");

    await page.getByRole("button", { name: "Settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Settings" });
    await dialog.getByLabel("Anthropic base URL").fill(mock.anthropicBaseUrl);
    await dialog.getByLabel("OpenAI base URL").fill(mock.openaiBaseUrl);
    await dialog.getByLabel("Anthropic API key").fill("sk-ant-test-key-123");
    await dialog.getByLabel("OpenAI API key").fill("sk-openai-test-key-456");
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    // Its cause is fixed: the error is gone, with nobody dismissing it.
    await expect(noKey).toHaveCount(0);
  });
});

test.describe("item 8: honest before acting", () => {
  test("the Compact dialog says there is nothing to compact before any instructions are typed", async ({
    page,
    mock,
  }) => {
    await openSmallWindow(page, mock, SMALL);
    await exchange(page, mock, "(U1) A short question", "(U1)", { text: "A short answer." });
    await exactTokens(page);
    await chatAction(page, "Compact");
    const dialog = page.getByRole("dialog", { name: "Compact conversation" });
    await expect(dialog.getByRole("status")).toHaveText(
      /^Nothing to compact yet \([\d.]+k? tokens; the last [\d,]+ stay word for word\)\.$/,
    );
    await expect(dialog.getByRole("textbox", { name: "Instructions (optional)" })).toHaveCount(0);
    await expect(dialog.getByRole("button", { name: "Compact now" })).toHaveCount(0);
    await shot(page, "compact-nothing");
    await dialog.getByRole("button", { name: "Close", exact: true }).last().click();
    await expect(dialog).toBeHidden();
  });

  test("Settings keeps its title and Close in view while scrolled, and Esc closes it after a Save", async ({
    page,
    mock,
  }) => {
    await openConfigured(page, mock);
    await page.getByRole("button", { name: "Settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Settings" });
    await dialog.locator(".dialog-body").evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect(dialog.getByRole("heading", { name: "Settings" })).toBeInViewport();
    await expect(dialog.getByRole("button", { name: "Close" }).first()).toBeInViewport();
    await shot(page, "settings-scrolled");

    await dialog.getByLabel("OpenAI API key").fill("sk-openai-another-key");
    await dialog.getByRole("button", { name: "Save OpenAI" }).click();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  });
});

test.describe("item 5: a header that never collides", () => {
  test("1280 px with the graph panel open: no control overlaps another, the title stays readable", async ({
    page,
    mock,
  }) => {
    await openConfigured(page, mock);
    mock.enqueue("anthropic", { text: "Sure, happy to help." });
    await send(page, "Hi! Can you help me plan a walk through the old grove near Lisbon this weekend?");
    await expect(message(page, "assistant", "Sure, happy to help.")).toBeVisible();
    await waitIdle(page);

    await page.getByRole("button", { name: "History graph", exact: true }).click();
    await expect(page.getByRole("region", { name: "History graph" })).toBeVisible();
    await animationsDone(page);
    await expectNoOverlap(page);
    await shot(page, "header-1280-graph");

    // At 390 px: stay-where-you-are-2.spec.ts (the overflow menu, round 2).
  });
});
