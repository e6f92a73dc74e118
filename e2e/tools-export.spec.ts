/**
 * A chat with tool steps exported to pi JSONL and imported back through the UI (issue 28 item 8): the
 * file holds pi's `toolCall` / `toolResult`, the imported chat shows the same folded steps, and — with
 * the same tools chosen — its next request to the provider is the original chat's next request.
 */
import { readFileSync } from "node:fs";
import type { Download, Page } from "@playwright/test";
import { chatRequests, importText, openChatMenu, send, waitIdle } from "./app";
import { sessionIdOf, sessionLinks } from "./branching-helpers";
import { expect, test } from "./fixtures";
import { chatWithEverything, chooseTool, expectPairsWhole } from "./tools-helpers";

const SHOTS = "test-results/tools-export";

async function exportPi(page: Page): Promise<Download> {
  await openChatMenu(page);
  const item = page.getByRole("menuitem", { name: "pi JSONL", exact: true });
  const [download] = await Promise.all([page.waitForEvent("download"), item.click()]);
  return download;
}

type Body = { system?: unknown; messages: unknown[]; tools?: unknown[] };

test("a chat with tool steps: pi JSONL out and back in, the same steps on screen and the same next request", async ({
  page,
  mock,
  mcp,
}) => {
  await chatWithEverything(page, mock, mcp.everything.url);
  mock.enqueue(
    "anthropic",
    { text: "Let me echo.", toolCalls: [{ name: "local__echo", input: { message: "round trip" } }] },
    { toolCalls: [{ name: "local__get-sum", input: { a: 20, b: 22 } }] },
    { text: "Echoed, and the sum is 42." },
  );
  await send(page, "Use two tools");
  const approval = page.getByRole("dialog", { name: "Allow tool call?" });
  await approval.getByRole("button", { name: "Allow in this chat" }).click();
  await expect(approval).toContainText("get-sum", { timeout: 15_000 });
  await approval.getByRole("button", { name: "Allow in this chat" }).click();
  await expect(page.getByText("Echoed, and the sum is 42.")).toBeVisible({ timeout: 20_000 });
  await waitIdle(page);
  const original = sessionIdOf(page);

  const download = await exportPi(page);
  expect(download.suggestedFilename()).toMatch(/\.jsonl$/);
  const text = readFileSync(await download.path(), "utf8");
  const lines = text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; message?: { role: string; content: unknown } });
  const messages = lines.filter((l) => l.type === "message").map((l) => l.message);
  expect(messages.map((m) => m?.role)).toEqual([
    "user",
    "assistant",
    "toolResult",
    "assistant",
    "toolResult",
    "assistant",
  ]);
  expect(JSON.stringify(messages[1]?.content)).toContain('"type":"toolCall"');
  expect(text).toContain("The sum of 20 and 22 is 42.");

  await importText(page, download.suggestedFilename(), text);
  // The file is this very chat: it is already here, so the copy is kept beside it.
  const dialog = page.getByRole("dialog", { name: "Import" });
  await expect(dialog).toContainText("already here");
  await dialog.getByRole("button", { name: "Keep both" }).click();
  await expect(page.getByText(/from a pi session file\.$/)).toBeVisible({ timeout: 15_000 });
  await expect(sessionLinks(page)).toHaveCount(2);
  expect(sessionIdOf(page)).not.toBe(original);
  const imported = sessionIdOf(page);

  // The same steps, folded as in the original, their results inside.
  const echo = page.getByRole("group", { name: "Tool call: echo" });
  await expect(echo).toHaveCount(1);
  const sum = page.getByRole("group", { name: "Tool call: get-sum" });
  await expect(sum).toHaveCount(1);
  await sum.locator("summary").click();
  await expect(sum).toContainText("The sum of 20 and 22 is 42.");
  await expect(page.getByText("Echoed, and the sum is 42.")).toBeVisible();
  await page.locator(".message-scroll").screenshot({ path: `${SHOTS}/imported.png` });

  // The imported chat with the same tool chosen sends what the original sends next.
  await chooseTool(page, "local");
  mock.enqueue("anthropic", { text: "From the copy." }, { text: "From the original." });
  await send(page, "And now?");
  await expect(page.getByText("From the copy.")).toBeVisible({ timeout: 20_000 });
  await waitIdle(page);
  await page.goto(`/#/s/${encodeURIComponent(original)}`);
  await expect(page.getByText("Echoed, and the sum is 42.")).toBeVisible({ timeout: 15_000 });
  await send(page, "And now?");
  await expect(page.getByText("From the original.")).toBeVisible({ timeout: 20_000 });
  await waitIdle(page);

  const sent = chatRequests(mock, "anthropic");
  expect(sent).toHaveLength(5);
  const copy = sent[3]?.body as Body;
  const first = sent[4]?.body as Body;
  expectPairsWhole(first);
  expect(copy.messages).toEqual(first.messages);
  expect(copy.system).toEqual(first.system);
  expect(copy.tools).toEqual(first.tools);
  // Native tool blocks, not text: the copy's steps are the provider's own again.
  expect(JSON.stringify(first.messages)).toContain('"type":"tool_use"');
  expect(imported).not.toBe(original);
});
