/**
 * Compaction keeps the tool loop alive (issue 28 item 7), end to end with the real server-everything
 * and the mock provider as OpenAI (Responses; OpenAI's tokenizer: counts are exact): a threshold
 * compaction between two steps after which the loop goes on by itself, and whose next request has no
 * split tool pair; an overflow in the middle of a loop compacted and that step retried once; with
 * auto-continue off, the loop stops on the compaction and Continue goes on.
 */
import type { Page } from "@playwright/test";
import { chatRequests, send, waitIdle } from "./app";
import {
  autoStatus,
  chatReply,
  compactionCards,
  conversationRequests,
  exactTokens,
  exchange,
  FIRST_SUMMARY,
  FRAMING,
  openSmallWindow,
  prose,
  SHORT_SUMMARY,
  SPLIT_TURN,
  sentText,
  summarizerReply,
  summarizerRequests,
} from "./compaction-helpers";
import { expect, type MockServer, test } from "./fixtures";
import { lastUserText } from "./mock-server/index";
import { addServer, chooseTool, closeSettings, expectOpenAiPairsWhole, toolShareTokens } from "./tools-helpers";

const SHOTS = "test-results/tools-compaction";
const THRESHOLD = 5_000;

/** The small-window chat with server-everything chosen, and a few exchanges of history to fold. */
async function loopChatWithHistory(page: Page, mock: MockServer, url: string, autoContinue = true): Promise<number> {
  await openSmallWindow(page, mock, {
    window: 16_000,
    maxOutput: 1_000,
    reserve: 2_000,
    keepRecent: 1_500,
    thresholdTokens: THRESHOLD,
  });
  await addServer(page, url);
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect(dialog.getByRole("listitem").filter({ hasText: "local" }).getByRole("status")).toHaveText(
    /^Connected · \d+ tools$/,
    { timeout: 20_000 },
  );
  const auto = dialog.getByRole("checkbox", { name: "Auto-continue after compaction" });
  await expect(auto).toBeChecked();
  if (!autoContinue) {
    await auto.uncheck();
    await dialog.locator(".tool-loop-fields").screenshot({ path: `${SHOTS}/auto-continue-setting.png` });
  }
  await closeSettings(page);
  await chooseTool(page, "local");
  for (let i = 1; i <= 3; i++) {
    await exchange(page, mock, prose(`(U${i})`, 40), `(U${i})`, { text: prose(`(A${i})`, 1_200) });
  }
  // The threshold is the conversation's: the tools' definitions are the meter's own share.
  const tokens = (await exactTokens(page)) - (await toolShareTokens(page));
  expect(tokens).toBeLessThan(THRESHOLD);
  expect(wordsOver(tokens) * 2).toBeLessThan(1_500);
  return tokens;
}

/**
 * Words of an echo whose call and result (each about one token a word) take the context just over the
 * threshold; together under "Keep recent tokens", so the compaction keeps that step (a step larger than
 * it is folded whole, never split: core/compaction/cut-point.ts).
 */
const wordsOver = (tokens: number) => Math.ceil((THRESHOLD - tokens) / 2) + 80;

const summaries = (mark: string) => [
  summarizerReply(FIRST_SUMMARY, { text: `## Standing facts & constraints\n\n- ${mark}` }),
  summarizerReply(SPLIT_TURN, { text: "The user asked for an echo; the model called echo." }),
  summarizerReply(SHORT_SUMMARY, { text: "Folded the history mid-loop" }),
];

test("a threshold compaction between two steps: the loop goes on by itself, the next request has no split tool pair", async ({
  page,
  mock,
  mcp,
}) => {
  test.setTimeout(120_000);
  const tokens = await loopChatWithHistory(page, mock, mcp.everything.url);
  const echo = prose("(ECHO)", wordsOver(tokens));
  mock.enqueue(
    "openai",
    chatReply("(U4)", { text: "Echoing it.", toolCalls: [{ name: "local__echo", input: { message: echo } }] }),
    ...summaries("LOOP-SUMMARY-4"),
    chatReply("(U4)", { text: "The echo came back whole." }),
  );
  await send(page, "(U4) Echo this long text back to me");
  await page.getByRole("dialog", { name: "Allow tool call?" }).getByRole("button", { name: "Allow once" }).click();
  await expect(page.getByText("The echo came back whole.")).toBeVisible({ timeout: 30_000 });
  await waitIdle(page);

  await expect(compactionCards(page)).toHaveCount(1);
  await expect(compactionCards(page)).toContainText("automatic · threshold");
  // No Continue offer: the loop went on by itself.
  await expect(page.getByRole("button", { name: "Continue" })).toHaveCount(0);
  await expect(page.locator(".notices").getByRole("alert")).toHaveCount(0);

  const steps = conversationRequests(mock).filter((r) => lastUserText(r).includes("(U4)"));
  expect(steps).toHaveLength(2);
  const [first, second] = steps;
  // The summary was written between the two steps.
  const summarized = summarizerRequests(mock);
  expect(summarized.length).toBeGreaterThan(0);
  for (const s of summarized) {
    expect(s.seq).toBeGreaterThan(first?.seq ?? 0);
    expect(s.seq).toBeLessThan(second?.seq ?? 0);
  }
  expect(sentText(second)).toContain(FRAMING);
  expect(sentText(second)).toContain("LOOP-SUMMARY-4");
  expect(sentText(second)).not.toContain(prose("(A1)", 1_200));
  // The step the loop was on is whole: the call and its result, paired.
  expectOpenAiPairsWhole(second?.body);
  expect(JSON.stringify(second?.body)).toContain(`Echo: ${echo}`);
  await page.locator(".message-scroll").screenshot({ path: `${SHOTS}/compacted-mid-loop.png` });
});

test("an overflow in the middle of a loop: compacted, and that step retried once", async ({ page, mock, mcp }) => {
  test.setTimeout(120_000);
  await loopChatWithHistory(page, mock, mcp.everything.url);
  mock.enqueue(
    "openai",
    chatReply("(U4)", { toolCalls: [{ name: "local__get-sum", input: { a: 20, b: 22 } }] }),
    chatReply("(U4)", { fault: { kind: "http", status: 400 } }),
    ...summaries("OVERFLOW-SUMMARY-4"),
    chatReply("(U4)", { text: "Recovered: the sum is 42." }),
  );
  await send(page, "(U4) Add 20 and 22 with the tool");
  await page.getByRole("dialog", { name: "Allow tool call?" }).getByRole("button", { name: "Allow once" }).click();
  await expect(page.getByText("Recovered: the sum is 42.")).toBeVisible({ timeout: 30_000 });
  await waitIdle(page);

  const steps = conversationRequests(mock).filter((r) => lastUserText(r).includes("(U4)"));
  expect(steps).toHaveLength(3); // step 1, the overflowed step 2, and exactly one retry
  const [, overflowed, retried] = steps;
  expect(overflowed?.status).toBe(400);
  expect(retried?.status).toBe(200);
  expect(sentText(retried)).toContain("OVERFLOW-SUMMARY-4");
  expect(sentText(overflowed)).not.toContain("OVERFLOW-SUMMARY-4");
  expectOpenAiPairsWhole(retried?.body);
  expect(JSON.stringify(retried?.body)).toContain("The sum of 20 and 22 is 42.");
  await expect(compactionCards(page)).toContainText("automatic · overflow recovery");
  // The failed attempt is not kept: no error reply in the chat.
  await expect(page.locator(".notices").getByRole("alert")).toHaveCount(0);
  await expect(page.getByRole("group", { name: "Tool call: get-sum" })).toHaveCount(1);
});

test("auto-continue off: the loop stops on the compaction and Continue goes on", async ({ page, mock, mcp }) => {
  test.setTimeout(120_000);
  const tokens = await loopChatWithHistory(page, mock, mcp.everything.url, false);
  const echo = prose("(ECHO)", wordsOver(tokens));
  mock.enqueue(
    "openai",
    chatReply("(U4)", { toolCalls: [{ name: "local__echo", input: { message: echo } }] }),
    ...summaries("PAUSED-SUMMARY-4"),
    chatReply("(U4)", { text: "Going on after Continue." }),
  );
  await send(page, "(U4) Echo this long text back to me");
  await page.getByRole("dialog", { name: "Allow tool call?" }).getByRole("button", { name: "Allow once" }).click();
  await expect(page.getByText("The context was compacted between two steps of the tool loop.")).toBeVisible({
    timeout: 30_000,
  });
  await expect(autoStatus(page)).toHaveCount(0);
  expect(conversationRequests(mock).filter((r) => lastUserText(r).includes("(U4)"))).toHaveLength(1);
  await page.screenshot({ path: `${SHOTS}/paused-after-compaction.png` });

  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Going on after Continue.")).toBeVisible({ timeout: 20_000 });
  await waitIdle(page);
  const steps = conversationRequests(mock).filter((r) => lastUserText(r).includes("(U4)"));
  expect(steps).toHaveLength(2);
  expect(sentText(steps[1])).toContain("PAUSED-SUMMARY-4");
  expectOpenAiPairsWhole(steps[1]?.body);
  expect(chatRequests(mock, "openai").length).toBeGreaterThan(steps.length);
});
