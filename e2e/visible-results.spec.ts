/**
 * Issue 11, "see what just happened" and "undo a compaction": after a compaction the end of the
 * chat says so (a status with "Show summary", which brings the card drawn far above into view), and
 * the newest compaction's card offers "Undo compaction": the leaf goes back to the uncompacted
 * conversation, the entry stays in the graph, and automatic compaction stays paused, so the next
 * reply is sent uncompacted and not compacted again, though the context is over the threshold.
 */
import type { Page } from "@playwright/test";
import { messageAction, openConfigured, send, showAdvanced } from "./app";
import {
  chatReply,
  compactFromHeader,
  compactionCards,
  conversationRequests,
  exchange,
  FIRST_SUMMARY,
  FRAMING,
  MODEL,
  messageWith,
  openSmallWindow,
  openWithAutoHandoff,
  prose,
  SHORT_SUMMARY,
  sentText,
  summarizerReply,
  summarizerRequests,
} from "./compaction-helpers";
import { expect, type MockServer, test } from "./fixtures";

const SMALL = { window: 16_000, maxOutput: 1_000, reserve: 2_000, keepRecent: 700, auto: false } as const;

async function converse(page: Page, mock: MockServer, from: number, to: number) {
  for (let i = from; i <= to; i++) {
    await exchange(page, mock, prose(`(U${i})`, 40), `(U${i})`, { text: prose(`(A${i})`, 350) });
  }
}

/** Settings › Compaction: a low threshold, automatic compaction on. */
async function lowThresholdAuto(page: Page, threshold: number) {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await showAdvanced(dialog);
  const field = dialog.getByLabel("Threshold tokens", { exact: true });
  await field.fill(String(threshold));
  await field.press("Enter");
  await dialog.getByRole("checkbox", { name: "Automatic compaction" }).check();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
}

const endNotice = (page: Page) => page.getByRole("status", { name: "Latest result" });

test("a manual compaction is announced at the end of the chat, Show summary jumps to its card, and Undo restores the uncompacted context", async ({
  page,
  mock,
}, testInfo) => {
  test.setTimeout(90_000);
  await openSmallWindow(page, mock, SMALL);
  await converse(page, mock, 1, 6);

  mock.enqueue(
    "openai",
    summarizerReply(FIRST_SUMMARY, { text: "## Goal\n\nSUMMARY-4412: count the colony before the storms.\n" }),
    summarizerReply(SHORT_SUMMARY, { text: "Counting the colony before the storms" }),
  );
  const dialog = await compactFromHeader(page);
  await expect(dialog).toBeHidden({ timeout: 15_000 });

  // The result is where the user is looking: a status at the end of the chat, no scrolling needed.
  const notice = endNotice(page);
  await expect(notice).toBeInViewport();
  await expect(notice).toContainText(/Compacted · [\d.]+k? → [\d.]+k? tokens · Show summary/);
  const card = compactionCards(page);
  // The card is drawn at the cut, above the messages kept word for word: out of view.
  await expect(card).not.toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath("end-notice.png") });

  await notice.getByRole("button", { name: "Show summary" }).click();
  await expect(card).toBeInViewport();
  await expect(card).toContainText("SUMMARY-4412");
  await page.screenshot({ path: testInfo.outputPath("card-after-show-summary.png") });

  // Undo, with the threshold now far below the uncompacted context: the next reply is sent
  // uncompacted and nothing compacts it again.
  await lowThresholdAuto(page, 1_500);
  const summarizerCalls = summarizerRequests(mock).length;
  await card.getByRole("button", { name: "Undo compaction" }).click();
  await expect(compactionCards(page)).toHaveCount(0);
  await expect(notice).toHaveCount(0);
  // A real undo (issue 27): the chat looks as before the compaction. Nothing calls the compaction
  // "later messages" to go back to; the only way to re-apply it is Redo in the undo notice.
  const undone = page.getByRole("status").filter({ hasText: "Compaction undone" });
  await expect(undone).toBeVisible();
  await expect(undone.getByRole("button", { name: "Redo" })).toBeVisible();
  await expect(page.getByText("Branching from here")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Back to latest" })).toHaveCount(0);
  // The pause is shown once: the meter's badge.
  await expect(page.getByText(/compaction paused/i)).toHaveCount(1);
  await expect(page.getByText("Auto-compaction paused")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("after-undo.png") });

  await exchange(page, mock, "(U7) And now?", "(U7)", { text: "Carrying on uncompacted." });
  const sent = sentText(conversationRequests(mock).at(-1));
  for (let i = 1; i <= 6; i++) {
    expect(sent, `(U${i}) is sent word for word`).toContain(prose(`(U${i})`, 40));
    expect(sent, `(A${i}) is sent word for word`).toContain(prose(`(A${i})`, 350));
  }
  expect(sent).not.toContain(FRAMING);
  expect(sent).not.toContain("SUMMARY-4412");
  // No automatic compaction on that reply (the summarizer was not called, no card appeared).
  expect(summarizerRequests(mock)).toHaveLength(summarizerCalls);
  await expect(compactionCards(page)).toHaveCount(0);
  await expect(page.getByText("Auto-compaction paused")).toBeVisible();

  // The compaction entry is still in the tree: the graph shows it.
  await page.getByRole("button", { name: "History graph", exact: true }).click();
  const graph = page.getByRole("region", { name: "History graph" });
  await expect(graph.getByRole("tree").getByRole("treeitem", { name: /^Compaction/ })).toHaveCount(1);
});

test("Undo compaction is offered only while the compaction is the newest entry", async ({ page, mock }) => {
  test.setTimeout(60_000);
  await openSmallWindow(page, mock, SMALL);
  await converse(page, mock, 1, 5);
  mock.enqueue(
    "openai",
    summarizerReply(FIRST_SUMMARY, { text: "## Goal\n\nSUMMARY-5120.\n" }),
    summarizerReply(SHORT_SUMMARY, { text: "A short summary" }),
  );
  const dialog = await compactFromHeader(page);
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await endNotice(page).getByRole("button", { name: "Show summary" }).click();
  const card = compactionCards(page);
  await expect(card.getByRole("button", { name: "Undo compaction" })).toBeVisible();

  await exchange(page, mock, "(U6) next", "(U6)", { text: "Fine." });
  // Something was sent after it: no Undo, and the end notice has gone.
  await expect(endNotice(page)).toHaveCount(0);
  await card.scrollIntoViewIfNeeded();
  await expect(card).toBeVisible();
  await expect(card.getByRole("button", { name: "Undo compaction" })).toHaveCount(0);
});

test("a branch summary written while switching is announced at the end of the chat", async ({ page, mock }) => {
  test.setTimeout(60_000);
  await openConfigured(page, mock, { model: MODEL });
  await exchange(page, mock, "(Q1) Plan a penguin census", "(Q1)", { text: "(A1) Count them at dawn." });
  await exchange(page, mock, "(Q2) Try counting by drone", "(Q2)", { text: "(A2) Drones scare the colony." });
  const a1 = messageWith(page, "assistant", "(A1)");
  await messageAction(a1, "Rewind to here…");
  const dialog = page.getByRole("dialog", { name: "Rewind" });
  mock.enqueue("openai", {
    text: "## Tried\n\n- BRANCH-9031: drones scared the colony.\n",
    match: { system: "You write summaries of conversation branches" },
  });
  await dialog.getByRole("button", { name: "Summarize", exact: true }).click();
  await expect(dialog).toBeHidden({ timeout: 15_000 });

  const notice = endNotice(page);
  await expect(notice).toBeInViewport();
  await expect(notice).toContainText("Branch summary written · Show summary");
  await notice.getByRole("button", { name: "Show summary" }).click();
  await expect(page.getByRole("article", { name: /^Branch summary/ })).toBeInViewport();
  await expect(page.getByRole("article", { name: /^Branch summary/ })).toContainText("BRANCH-9031");
});

test("after an automatic handoff the new chat says at its end that it continues the old one", async ({
  page,
  mock,
}, testInfo) => {
  test.setTimeout(90_000);
  await openWithAutoHandoff(page, mock);
  mock.enqueue("openai", {
    text: "## Goal\n\nAUTO-HANDOFF-31 keep counting.\n",
    match: { lastUser: "this conversation is being handed off to a fresh session" },
  });
  await exchange(page, mock, prose("(U1)", 40), "(U1)", { text: prose("(A1)", 300) });
  // The handoff follows this reply at once and opens the new chat: the reply may never be seen here.
  mock.enqueue("openai", chatReply("(U2)", { text: prose("(A2)", 1_300) }));
  await send(page, prose("(U2)", 40));

  const notice = endNotice(page);
  await expect(notice).toBeInViewport({ timeout: 20_000 });
  await expect(notice).toContainText(/Continues from .+ · Show handoff/);
  await expect(notice.getByRole("link")).toBeVisible();
  // The toast announcing the handoff sits over the end of the chat: dismissed first.
  await page.locator(".notices").getByRole("button", { name: "Dismiss" }).click();
  await notice.getByRole("button", { name: "Show handoff" }).click();
  await expect(page.getByRole("article", { name: /^Handoff/ })).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath("handoff-notice.png") });
});
