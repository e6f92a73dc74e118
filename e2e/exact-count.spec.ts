/**
 * Exact Claude counts (issue 10 item 3): with an Anthropic provider that has a key, the meter shows
 * Anthropic's count of the exact request (POST /v1/messages/count_tokens, the mock's configured
 * number), with no "≈" and "Counted by Anthropic" in its description; when the count endpoint fails
 * (a compatible endpoint without it), the meter falls back to the "≈" estimate.
 */
import type { Page } from "@playwright/test";
import { ANTHROPIC_KEY, chatRequests, meter, meterBox, OPENAI_KEY, openConfigured, sendAndWait } from "./app";
import { expect, type MockServer, test } from "./fixtures";

const meterText = (page: Page) => meterBox(page).locator(".meter-text");
const countRequests = (mock: MockServer) =>
  mock.requests({ api: "anthropic" }).filter((r) => r.path.endsWith("/v1/messages/count_tokens"));

test("the meter equals Anthropic's count of the exact request, without ≈", async ({ page, mock }) => {
  const EXACT = 12_345;
  mock.config({ countTokens: EXACT });
  await openConfigured(page, mock);
  await sendAndWait(page, "Count me exactly");

  await expect(meter(page)).toHaveAttribute("value", String(EXACT));
  await expect(meterText(page)).toHaveText("12.3k / 200k");
  await expect(meterText(page)).not.toContainText("≈");
  await expect(meter(page)).toHaveAttribute("aria-description", /^Counted by Anthropic\./);

  // The count request is the chat's request (same model and system, the same messages plus the
  // reply), with the Anthropic key and nothing of OpenAI's; no max_tokens or stream.
  const counts = countRequests(mock);
  expect(counts.length).toBeGreaterThan(0);
  const count = counts.at(-1);
  const chat = chatRequests(mock, "anthropic").at(-1);
  const countBody = count?.body as { model: string; messages: unknown[]; system?: unknown };
  const chatBody = chat?.body as { model: string; messages: unknown[]; system?: unknown };
  expect(countBody.model).toBe(chatBody.model);
  expect(countBody.system).toEqual(chatBody.system);
  expect(countBody.messages.slice(0, chatBody.messages.length)).toEqual(chatBody.messages);
  expect(JSON.stringify(countBody.messages.at(-1))).toContain("Echo: Count me exactly");
  expect(countBody).not.toHaveProperty("max_tokens");
  expect(countBody).not.toHaveProperty("stream");
  const headers = JSON.stringify(count?.headers);
  expect(headers).toContain(ANTHROPIC_KEY);
  expect(headers).not.toContain(OPENAI_KEY);
});

test("when the count endpoint fails, the meter falls back to the ≈ estimate", async ({ page, mock }) => {
  mock.config({ countTokens: "fail" });
  await openConfigured(page, mock);
  await sendAndWait(page, "Estimate me");

  // The count was asked for and refused; the meter says it estimates.
  await expect.poll(() => countRequests(mock).length).toBeGreaterThan(0);
  await expect(meter(page)).toHaveAttribute("aria-description", /^Estimated\./);
  await expect(meterText(page)).toContainText("≈");
  expect(countRequests(mock).every((r) => r.status === 404)).toBe(true);
});
