import {
  animationsDone,
  assistantMessages,
  chatRequests,
  openConfigured,
  send,
  sendAndWait,
  userMessages,
  waitIdle,
} from "./app";
import { expect, test } from "./fixtures";

test("chat with Anthropic: the reply streams in and records model, usage and stop reason", async ({ page, mock }) => {
  await openConfigured(page, mock);
  mock.enqueue("anthropic", {
    chunks: ["Hello ", "from ", "**Claude**"],
    chunkDelayMs: 80,
    usage: { input: 42, output: 7 },
  });
  await send(page, "Hi there");
  await expect(userMessages(page)).toHaveCount(1);
  await expect(assistantMessages(page).filter({ hasText: "Hello from Claude" })).toBeVisible();
  await waitIdle(page);
  const reply = assistantMessages(page).last();
  await expect(reply.locator("strong")).toHaveText("Claude");
  await expect(reply).toContainText("claude-sonnet-4-5");
  await expect(reply).toContainText("42 tokens in · 7 out");
  const [req] = chatRequests(mock, "anthropic");
  expect(req?.path).toBe("/anthropic/v1/messages");
  expect(req?.body).toMatchObject({ model: "claude-sonnet-4-5", stream: true });
  // The session is in the URL so a reload returns to it.
  await expect(page).toHaveURL(/#\/s\//);
});

test("chat with OpenAI (Responses API): reply streams, an incomplete reply shows stop reason length", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock, { model: { provider: "openai", id: "gpt-4o" } });
  mock.enqueue("openai", { chunks: ["Partial ", "answer"], stopReason: "length" });
  await send(page, "Tell me everything");
  await expect(assistantMessages(page).filter({ hasText: "Partial answer" })).toBeVisible();
  await waitIdle(page);
  await expect(assistantMessages(page).last()).toContainText("cut off at the output limit");
  const [req] = chatRequests(mock, "openai");
  expect(req?.path).toBe("/openai/v1/responses");
  expect(req?.body).toMatchObject({
    model: "gpt-4o",
    stream: true,
    store: false,
    include: ["reasoning.encrypted_content"],
    input: [{ type: "message", role: "user", content: "Tell me everything" }],
  });
});

test("screenshot: a conversation with markdown", async ({ page, mock }) => {
  await openConfigured(page, mock);
  mock.enqueue("anthropic", {
    text: "Here is a table and some code:\n\n| Branch | Messages |\n|---|---|\n| main | 12 |\n| idea | 4 |\n\n```ts\nconst grove = plant('tree');\nconsole.log(grove.branches);\n```\n\n- local-first\n- branching",
  });
  await sendAndWait(page, "Show me what you can render");
  await page.screenshot({ path: "test-results/e2e-artifacts/chat-desktop.png" });
  await page.setViewportSize({ width: 390, height: 800 });
  await animationsDone(page); // the drawer's slide-out transition
  await page.screenshot({ path: "test-results/e2e-artifacts/chat-phone.png" });
});
