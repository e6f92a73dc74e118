/**
 * Compaction Grove does on its own, end to end: at the threshold after a reply (status bar, Cancel,
 * a message typed meanwhile queued and sent after), overflow recovery with one retry, the pause
 * when a compaction cannot make room, "Automatic compaction" off, and Continue after an
 * output-length stop. The context meter's exact count and threshold mark are checked on the way.
 */
import { assistantMessages, meter, meterBox, openChatMenu, send, userMessages } from "./app";
import {
  autoStatus,
  CONTINUE_PROMPT,
  chatReply,
  compactDialog,
  compactionCards,
  conversationRequests,
  exactTokens,
  exchange,
  FIRST_SUMMARY,
  FRAMING,
  messageWith,
  openSmallWindow,
  prose,
  SHORT_SUMMARY,
  scrollChat,
  sentChars,
  sentText,
  summarizerReply,
  summarizerRequests,
  talkUntilOver,
} from "./compaction-helpers";
import { dbSnapshot, expectHeld, reloadSession } from "./faults-helpers";
import { expect, test } from "./fixtures";
import { lastUserText, requestMessages } from "./mock-server/index";

const SETUP = { window: 16_000, maxOutput: 1_000, reserve: 2_000, keepRecent: 600 } as const;

test("at the threshold after a reply: status bar, actions paused, a message typed meanwhile is queued and sent after the card", async ({
  page,
  mock,
}) => {
  test.setTimeout(90_000);
  await openSmallWindow(page, mock, { ...SETUP, thresholdTokens: 2_000 });
  // The meter marks the threshold and uses it as its "high" mark.
  await expect(meter(page)).toHaveAttribute("high", "2000");
  await expect(page.getByTestId("compaction-threshold")).toBeAttached();
  await expect(meterBox(page)).toHaveAttribute("title", /Automatic compaction at 2,000 tokens/);

  mock.enqueue(
    "openai",
    summarizerReply(FIRST_SUMMARY, {
      chunks: [
        "## Standing facts & constraints\n\n",
        "- AUTO-SUMMARY-5\n",
        "\n## Goal\n\n",
        "Keep the plan going.",
        "\n",
      ],
      // Parked after two parts until released: the compaction stays in progress while the test
      // looks at it and queues a message, however slow the machine is.
      hold: { afterChunks: 2 },
    }),
    summarizerReply(SHORT_SUMMARY, { text: "Automatic summary of the plan" }),
  );
  const n = await talkUntilOver(page, mock, 2_000);
  expect(n).toBeGreaterThan(1);

  const status = autoStatus(page);
  await expectHeld(mock, "openai");
  await expect(status).toBeVisible();
  await expect(status).toContainText("threshold");
  await expect(status).toContainText(/Summarizing|Preparing/);
  await expect(status.getByRole("button", { name: "Cancel compaction" })).toBeEnabled();
  // While it runs: no Compact, Edit or Regenerate (they would race the summary).
  const chatMenu = await openChatMenu(page);
  await expect(chatMenu.getByRole("menuitem", { name: "Compact", exact: true })).toBeDisabled();
  await page.keyboard.press("Escape");
  await expect(assistantMessages(page).last().getByRole("button", { name: "Regenerate" })).toBeDisabled();
  await expect(userMessages(page).last().getByRole("button", { name: "Edit" })).toBeDisabled();

  // The composer stays usable; what is sent now waits for the compaction.
  mock.enqueue("openai", chatReply("(Q)", { text: "Answer to the queued question." }));
  await send(page, "(Q) A question typed during compaction");
  const queued = page.getByRole("note", { name: "Queued message" });
  await expect(queued).toContainText("Will be sent after compaction");
  await expect(queued).toContainText("(Q) A question typed during compaction");
  expect(conversationRequests(mock).some((r) => lastUserText(r).includes("(Q)"))).toBe(false);
  await expect(meterBox(page)).toHaveAttribute("data-count", "current");
  await page.screenshot({ path: "test-results/e2e-artifacts/compaction-auto-status.png" });
  mock.release("openai");

  const card = compactionCards(page);
  await expect(card).toHaveCount(1, { timeout: 20_000 });
  await expect(card).toContainText("automatic · threshold");
  await expect(status).toBeHidden();
  await expect(messageWith(page, "assistant", "Answer to the queued question.")).toBeVisible({ timeout: 15_000 });
  await expect(queued).toBeHidden();

  // The queued message went out once, after the summary, into the compacted context.
  const queuedRequests = conversationRequests(mock).filter((r) => lastUserText(r).includes("(Q)"));
  expect(queuedRequests).toHaveLength(1);
  const summarizerSeqs = summarizerRequests(mock).map((r) => r.seq);
  expect(queuedRequests[0]?.seq).toBeGreaterThan(Math.max(...summarizerSeqs));
  expect(sentText(queuedRequests[0])).toContain(FRAMING);
  expect(sentText(queuedRequests[0])).toContain("AUTO-SUMMARY-5");
  // After the compaction the meter is below the threshold again.
  expect(await exactTokens(page)).toBeLessThan(2_000);
});

test("Cancel compaction stops an automatic compaction: nothing is written", async ({ page, mock }) => {
  test.setTimeout(90_000);
  await openSmallWindow(page, mock, { ...SETUP, thresholdTokens: 1_500 });
  mock.enqueue(
    "openai",
    summarizerReply(FIRST_SUMMARY, {
      chunks: ["## Standing facts & constraints\n\n- never", " finished"],
      fault: { kind: "hang", afterChunks: 1 },
    }),
  );
  await talkUntilOver(page, mock, 1_500);
  const status = autoStatus(page);
  await expect(status).toBeVisible();
  await expect.poll(() => summarizerRequests(mock).length).toBe(1);
  const snapshot = await dbSnapshot(page);
  await status.getByRole("button", { name: "Cancel compaction" }).click();
  await expect(status).toBeHidden();
  await expect.poll(() => summarizerRequests(mock)[0]?.outcome).toBe("client_aborted");
  await expect(compactionCards(page)).toHaveCount(0);
  await reloadSession(page);
  expect(await dbSnapshot(page)).toEqual(snapshot);
  await expect(compactionCards(page)).toHaveCount(0);
});

test("overflow: the provider says too long → Grove compacts and retries that request once, smaller", async ({
  page,
  mock,
}) => {
  test.setTimeout(90_000);
  await openSmallWindow(page, mock, { ...SETUP, thresholdTokens: 12_000 });
  for (let i = 1; i <= 3; i++) {
    await exchange(page, mock, prose(`(U${i})`, 40), `(U${i})`, { text: prose(`(A${i})`, 350) });
  }
  mock.enqueue(
    "openai",
    chatReply("(U4)", { fault: { kind: "http", status: 400 } }),
    summarizerReply(FIRST_SUMMARY, { text: "## Standing facts & constraints\n\n- OVERFLOW-SUMMARY-9" }),
    summarizerReply(SHORT_SUMMARY, { text: "Recovered from an overflow" }),
    chatReply("(U4)", { text: "Recovered after compaction." }),
  );
  await send(page, "(U4) One more question");
  await expect(messageWith(page, "assistant", "Recovered after compaction.")).toBeVisible({ timeout: 20_000 });

  const attempts = conversationRequests(mock).filter((r) => lastUserText(r).includes("(U4)"));
  expect(attempts).toHaveLength(2); // the overflowed request and exactly one retry
  const [overflowed, retried] = attempts;
  expect(overflowed?.status).toBe(400);
  expect(retried?.status).toBe(200);
  expect(sentChars(retried)).toBeLessThan(sentChars(overflowed));
  expect(sentText(retried)).toContain(FRAMING);
  expect(sentText(retried)).toContain("OVERFLOW-SUMMARY-9");
  expect(sentText(retried)).not.toContain(prose("(A1)", 350));
  // The summary was written between the two.
  for (const s of summarizerRequests(mock)) {
    expect(s.seq).toBeGreaterThan(overflowed?.seq ?? 0);
    expect(s.seq).toBeLessThan(retried?.seq ?? 0);
  }
  await expect(compactionCards(page)).toContainText("automatic · overflow recovery");
  await expect(page.locator(".notices").getByRole("alert")).toHaveCount(0);
});

test("a compaction that cannot make room pauses automatic compaction, with the warning by the meter", async ({
  page,
  mock,
}) => {
  test.setTimeout(90_000);
  // Keep-recent nearly as large as the threshold: whatever is folded, the rest stays above 80% of it.
  await openSmallWindow(page, mock, { ...SETUP, keepRecent: 1_400, thresholdTokens: 1_500 });
  mock.enqueue(
    "openai",
    summarizerReply(FIRST_SUMMARY, { text: "## Standing facts & constraints\n\n- PAUSE-SUMMARY" }),
    summarizerReply(SHORT_SUMMARY, { text: "Not much room made" }),
  );
  const n = await talkUntilOver(page, mock, 1_500);
  await expect
    .poll(async () => (await dbSnapshot(page)).entries.filter((e) => e.type === "compaction"), { timeout: 20_000 })
    .toHaveLength(1);
  await scrollChat(page, "top");
  await expect(compactionCards(page)).toHaveCount(1);
  const paused = page.getByRole("button", { name: /Auto-compaction paused/ });
  await expect(paused).toBeVisible();
  await expect(paused).toHaveAttribute("title", /paused for this chat until you compact manually/);

  // Paused: another reply over the threshold does not compact again.
  await exchange(page, mock, prose(`(U${n + 1})`, 40), `(U${n + 1})`, { text: prose(`(A${n + 1})`, 300) });
  expect(await exactTokens(page)).toBeGreaterThan(1_500);
  await expect(autoStatus(page)).toHaveCount(0);
  expect(summarizerRequests(mock)).toHaveLength(2);
  expect((await dbSnapshot(page)).entries.filter((e) => e.type === "compaction")).toHaveLength(1);

  // The warning leads to a manual compaction.
  await paused.click();
  await expect(compactDialog(page)).toBeVisible();
});

test("Automatic compaction off: far over the threshold, nothing is summarized and the meter says so", async ({
  page,
  mock,
}) => {
  test.setTimeout(60_000);
  await openSmallWindow(page, mock, { ...SETUP, thresholdTokens: 800, auto: false });
  await expect(page.getByTestId("compaction-threshold")).toHaveCount(0);
  for (let i = 1; i <= 3; i++) {
    await exchange(page, mock, prose(`(U${i})`, 40), `(U${i})`, { text: prose(`(A${i})`, 300) });
  }
  expect(await exactTokens(page)).toBeGreaterThan(800);
  await expect(meterBox(page)).toHaveAttribute("title", /Automatic compaction is off/);
  await expect(autoStatus(page)).toHaveCount(0);
  expect(summarizerRequests(mock)).toHaveLength(0);
  await expect(compactionCards(page)).toHaveCount(0);
});

test("output length: Continue sends the continue prompt, and the continuation joins the partial reply", async ({
  page,
  mock,
}) => {
  await openSmallWindow(page, mock, { ...SETUP, thresholdTokens: 12_000 });
  await exchange(page, mock, "(U1) Tell me a long story", "(U1)", {
    text: "The story begins in a harbor where the lanterns were",
    stopReason: "length",
  });
  const reply = assistantMessages(page).last();
  const continueButton = reply.getByRole("button", { name: "Continue" });
  await expect(continueButton).toBeVisible();

  mock.enqueue("openai", chatReply(CONTINUE_PROMPT, { text: " still burning at dawn. The end." }));
  await continueButton.click();
  await expect(reply).toContainText("lanterns were still burning at dawn. The end.", { timeout: 15_000 });
  await expect(assistantMessages(page)).toHaveCount(1); // one reply on screen, not two
  await expect(reply.locator(".message-meta")).toHaveCount(1);
  await expect(reply.getByRole("button", { name: "Continue" })).toHaveCount(0);

  const req = conversationRequests(mock).at(-1);
  if (!req) throw new Error("no continue request");
  const messages = requestMessages(req).filter((m) => m.role !== "system");
  expect(messages.at(-1)?.role).toBe("user");
  expect(messages.at(-1)?.text).toContain(CONTINUE_PROMPT);
  expect(messages.at(-2)).toMatchObject({
    role: "assistant",
    text: "The story begins in a harbor where the lanterns were",
  });

  // The next request sends the two parts as one reply; the join survives a reload.
  await exchange(page, mock, "(U2) Lovely", "(U2)", { text: "Glad you liked it." });
  const next = requestMessages(conversationRequests(mock).at(-1) ?? req).filter((m) => m.role === "assistant");
  expect(next[0]?.text).toBe("The story begins in a harbor where the lanterns were still burning at dawn. The end.");
  await reloadSession(page);
  await expect(messageWith(page, "assistant", "lanterns were still burning at dawn")).toHaveCount(1);
  await expect(assistantMessages(page)).toHaveCount(2);
});
