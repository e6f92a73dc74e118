/**
 * Issue 12 items 6 and 8: the meter shows the same number for an unchanged context on every visit
 * (even after the Claude estimate's calibration moved), says when it estimates, and offers
 * "Compact now" when the context is nearly full; replies show their cost (nothing when unpriced), the
 * chat's total is in the meter's description and the month's in Settings; a chat's temperature and
 * output limit reach an OpenAI request.
 */
import type { Page } from "@playwright/test";
import { assistantMessages, chatRequests, chooseModel, meter, meterBox, openConfigured, sendAndWait } from "./app";
import { expect, test } from "./fixtures";

const SHOTS = "test-results/e2e-artifacts";

/** Waits until the meter shows a measurement (not the first text-length estimate) and returns its value. */
async function settledValue(page: Page): Promise<string> {
  await expect(meter(page)).not.toHaveAttribute("aria-description", /text length/);
  return (await meter(page).getAttribute("value")) ?? "";
}

test("the meter of an unchanged chat reads the same on every visit, even after the estimate's calibration moved", async ({
  page,
  mock,
}) => {
  // No exact count: the meter is the calibrated Claude estimate, the source that used to drift.
  mock.config({ countTokens: "fail" });
  await openConfigured(page, mock);
  mock.enqueue("anthropic", {
    text: "A short answer about gardens and their paths.",
    usage: { input: 40, output: 12 },
  });
  await sendAndWait(page, "Tell me something about gardens, paths and the way they branch.");
  const first = await settledValue(page);
  await expect(meterBox(page)).toContainText("≈");
  await expect(meter(page)).toHaveAttribute("aria-description", /^Estimated\./);
  await meterBox(page).screenshot({ path: `${SHOTS}/meter-estimate.png` });
  const chatUrl = page.url();

  // Another chat whose reported usage is far from the local count moves the calibration.
  await page.getByRole("button", { name: /New chat/ }).click();
  mock.enqueue("anthropic", { text: "Ok.", usage: { input: 4, output: 1 } });
  await sendAndWait(page, "Calibrate with me.");

  for (let visit = 0; visit < 2; visit++) {
    await page.goto(chatUrl);
    await page.reload();
    await expect(assistantMessages(page)).toHaveCount(1);
    expect(await settledValue(page)).toBe(first);
  }
});

test("nearly full: the meter offers Compact, and an exact count has no ≈", async ({ page, mock }) => {
  mock.config({ countTokens: 180_000 });
  await openConfigured(page, mock);
  await page.getByRole("button", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  await settings.getByRole("checkbox", { name: "Automatic compaction" }).uncheck();
  await settings.getByRole("button", { name: "Close" }).click();
  await sendAndWait(page, "Fill it up");
  await expect(meter(page)).toHaveAttribute("value", "180000");
  await expect(meterBox(page)).not.toContainText("≈");
  const compactNow = meterBox(page).getByRole("button", { name: "Compact (the context is nearly full)" });
  await expect(compactNow).toBeVisible();
  await meterBox(page).screenshot({ path: `${SHOTS}/meter-warning.png` });
  // claude-sonnet-4-5 (openConfigured's model) is deprecated: the picker says until when (and, from
  // that day on, since when).
  await expect(page.getByRole("note")).toContainText(/Deprecated: ends 2026-11-30|Retired 2026-11-30/);
  await page.locator(".chat-header").screenshot({ path: `${SHOTS}/header-deprecated-model.png` });
  await compactNow.click();
  await expect(page.getByRole("dialog", { name: /Compact/ })).toBeVisible();
});

test("cost per reply, per chat and per month; the chat's temperature and output limit reach the request", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock, { model: { provider: "openai", id: "gpt-4o" } });
  await page.getByRole("button", { name: "Model options" }).click();
  const params = page.getByRole("dialog", { name: "Model options" });
  await params.getByLabel("Temperature").fill("0.4");
  await params.getByLabel("Max output tokens").fill("2000");
  await params.getByRole("button", { name: "Save", exact: true }).click();

  // gpt-4o: $2.50 in, $10 out per million → 1,000 in and 500 out = $0.0075.
  mock.enqueue("openai", { text: "Priced.", usage: { input: 1_000, output: 500 } });
  await sendAndWait(page, "What does this cost?");
  expect(chatRequests(mock, "openai")[0]?.body).toMatchObject({ temperature: 0.4, max_output_tokens: 2000 });
  await expect(assistantMessages(page).last()).toContainText("$0.0075");

  // A model without a published price: never a number, and no "cost unknown" on every message
  // (issue 27); the chat's total says it once.
  await chooseModel(page, "anthropic", "claude-sonnet-5-5");
  mock.enqueue("anthropic", { text: "Unpriced.", usage: { input: 1_000, output: 500 } });
  await sendAndWait(page, "And this one?");
  await expect(assistantMessages(page).last()).toContainText("500 out");
  await expect(assistantMessages(page).last()).not.toContainText("cost unknown");
  await expect(assistantMessages(page).last()).not.toContainText("$");
  await expect(meter(page)).toHaveAttribute(
    "aria-description",
    /Spent in this chat: \$0\.0075 \+ 1 reply of unknown cost\./,
  );

  await page.getByRole("button", { name: "Settings" }).click();
  const spending = page.getByRole("dialog", { name: "Settings" }).getByRole("region", { name: "Spending" });
  await expect(spending).toContainText(/This month \(\d{4}-\d{2}\)\s*\$0\.0075 \+ 1 reply of unknown cost/);
});
