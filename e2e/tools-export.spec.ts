/**
 * A chat with tool steps exported to pi JSONL and imported back through the UI (issue 28 item 8): the
 * file holds pi's `toolCall` / `toolResult`, the imported chat shows the same folded steps, and — with
 * the same tools chosen — its next request to the provider is the original chat's next request. A chat's
 * tool choice in a model preset and in Grove JSON (item 4).
 */
import { readFileSync } from "node:fs";
import type { Download, Page } from "@playwright/test";
import { chatRequests, importText, openChatMenu, openConfigured, send, waitIdle } from "./app";
import { sessionIdOf, sessionLinks } from "./branching-helpers";
import { expect, test } from "./fixtures";
import { addServer, chatWithEverything, chooseTool, closeSettings, expectPairsWhole } from "./tools-helpers";

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

test("a chat's tool choice: saved in a model preset and applied to a new chat; carried by Grove JSON, no credential", async ({
  page,
  mock,
  mcp,
}) => {
  await openConfigured(page, mock);
  await addServer(page, mcp.everything.url, "X-Api-Key: secret-mcp-token");
  await expect(
    page
      .getByRole("dialog", { name: "Settings" })
      .getByRole("listitem")
      .filter({ hasText: "local" })
      .getByRole("status"),
  ).toHaveText(/^Connected · \d+ tools$/, { timeout: 20_000 });
  await closeSettings(page);
  await chooseTool(page, "local");
  await chooseTool(page, "Web search");
  mock.enqueue("anthropic", { text: "Tools chosen." });
  await send(page, "Hello with tools");
  await expect(page.getByText("Tools chosen.")).toBeVisible({ timeout: 15_000 });
  await waitIdle(page);

  // The preset keeps the chat's tools (the box is ticked when the chat has some).
  await page.getByRole("button", { name: "Model options" }).click();
  const options = page.getByRole("dialog", { name: "Model options" });
  await expect(
    options.getByRole("checkbox", { name: /^Include this chat's tools \(local, Web search\)$/ }),
  ).toBeChecked();
  await options.getByLabel("Max output tokens").fill("3000");
  await options.getByLabel("Preset name").fill("Researcher");
  await options.getByRole("button", { name: "Add to presets" }).click();
  await expect(options.getByRole("button", { name: "Delete preset" })).toBeVisible();
  await options.getByRole("button", { name: "Cancel" }).click();

  // Grove JSON carries the choice: the server by this browser's id, never its URL or headers.
  await openChatMenu(page);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("menuitem", { name: "Grove JSON", exact: true }).click(),
  ]);
  const text = readFileSync(await download.path(), "utf8");
  const file = JSON.parse(text) as { sessions: { session: { tools?: { servers: string[]; provider: string[] } } }[] };
  const tools = file.sessions[0]?.session.tools;
  expect(tools?.provider).toEqual(["web_search"]);
  expect(tools?.servers).toHaveLength(1);
  expect(text).not.toContain("secret-mcp-token");
  expect(text).not.toContain(mcp.everything.url);

  await importText(page, download.suggestedFilename(), text);
  const dialog = page.getByRole("dialog", { name: "Import" });
  await dialog.getByRole("button", { name: "Keep both" }).click();
  await expect(page.getByRole("heading", { name: /\(imported\)$/, level: 1 })).toBeVisible({ timeout: 15_000 });
  await page.getByRole("button", { name: "Tools" }).click();
  const menu = page.getByRole("menu", { name: "Tools" });
  await expect(menu.getByRole("menuitemcheckbox", { name: "local" })).toHaveAttribute("aria-checked", "true");
  await expect(menu.getByRole("menuitemcheckbox", { name: "Web search" })).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("Escape");

  // A new chat: the preset applied in Model options chooses its tools too.
  await page.getByRole("button", { name: "New chat" }).click();
  await page.getByRole("button", { name: "Model options" }).click();
  await options.getByLabel("Apply a preset").selectOption("Researcher");
  await expect(options.getByRole("status")).toHaveText("Save also chooses this preset's tools: local, Web search.");
  await expect(options.getByLabel("Max output tokens")).toHaveValue("3000");
  await options.screenshot({ path: `${SHOTS}/preset-with-tools.png` });
  await options.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("button", { name: "Tools" }).click();
  await expect(menu.getByRole("menuitemcheckbox", { name: "local" })).toHaveAttribute("aria-checked", "true");
  await expect(menu.getByRole("menuitemcheckbox", { name: "Web search" })).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("Escape");
  mock.enqueue("anthropic", { text: "New chat with the preset." });
  await send(page, "Hello again");
  await expect(page.getByText("New chat with the preset.")).toBeVisible({ timeout: 15_000 });
  await waitIdle(page);
  const last = chatRequests(mock, "anthropic").at(-1)?.body as { tools?: { name: string }[]; max_tokens?: number };
  expect(last.max_tokens).toBe(3000);
  expect(last.tools?.map((t) => t.name)).toContain("local__echo");
  expect(last.tools?.map((t) => t.name)).toContain("web_search");
});
