/**
 * The rest of the seed's maintenance pipeline (issue 13 §2), end to end on the mock provider:
 * tool-output pruning and file-operation tags on an imported pi session continued in the browser,
 * context promotion on overflow before any compaction, idle compaction on Playwright's fake clock,
 * and an edited compaction prompt reaching the summarizer (Reset restores the shipped one).
 */
import type { Page } from "@playwright/test";
import { chatAction, importText, openConfigured, sendAndWait } from "./app";
import {
  chatReply,
  compactDialog,
  compactionCards,
  conversationRequests,
  exchange,
  FIRST_SUMMARY,
  openSmallWindow,
  prose,
  SHORT_SUMMARY,
  sentText,
  summarizerReply,
  summarizerRequests,
} from "./compaction-helpers";
import { expect, test } from "./fixtures";
import { lastUserText } from "./mock-server/index";
import { piAssistant, piHeader, piJsonl, piMessage, piToolCall, piToolResult } from "./pi-session";

const SHOTS = "test-results/maintenance-pipeline";

test.use({ actionTimeout: 10_000 });

const settingsDialog = (page: Page) => page.getByRole("dialog", { name: "Settings" });

async function openSettings(page: Page) {
  await page.getByRole("button", { name: "Settings" }).click();
  return settingsDialog(page);
}

async function closeSettings(page: Page) {
  await settingsDialog(page).getByRole("button", { name: "Close" }).click();
  await expect(settingsDialog(page)).toBeHidden();
}

/** A pi session whose tools read one file, edit another, and print two large outputs. */
function piSessionWithLargeOutputs(): string {
  // 100,000 and 180,000 characters: 25,000 and 45,000 estimated tokens.
  const oldOutput = `OLD-BUILD-LOG ${"x".repeat(100_000 - 14)}`;
  const newOutput = `NEW-TEST-LOG ${"y".repeat(180_000 - 13)}`;
  return piJsonl([
    piHeader("pi-prune-e2e"),
    piMessage("u1", null, 1, { role: "user", content: [{ type: "text", text: "Build it and fix the failing test." }] }),
    piMessage("a1", "u1", 2, piAssistant([piToolCall("c1", "bash", { command: "make" })], "toolUse")),
    piMessage("t1", "a1", 3, piToolResult("c1", "bash", oldOutput)),
    piMessage("a2", "t1", 4, piAssistant([piToolCall("c2", "read", { path: "src/parser.ts" })], "toolUse")),
    piMessage("t2", "a2", 5, piToolResult("c2", "read", "export function parse() {}")),
    piMessage(
      "a3",
      "t2",
      6,
      piAssistant([piToolCall("c3", "edit", { path: "src/lexer.ts", oldText: "a", newText: "b" })], "toolUse"),
    ),
    piMessage("t3", "a3", 7, piToolResult("c3", "edit", "Edited src/lexer.ts")),
    piMessage("a4", "t3", 8, piAssistant([piToolCall("c4", "bash", { command: "make test" })], "toolUse")),
    piMessage("t4", "a4", 9, piToolResult("c4", "bash", newOutput)),
    piMessage("a5", "t4", 10, piAssistant([{ type: "text", text: "The lexer is fixed; the tests pass." }], "stop")),
  ]);
}

test("an imported pi session with large tool outputs: the request carries the truncation marker, then the file tags", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock);
  await importText(page, "session.jsonl", piSessionWithLargeOutputs());
  await expect(page.getByText(/^Imported “Build it and fix the failing test\.” from a pi session file\.$/)).toBeVisible(
    {
      timeout: 15_000,
    },
  );

  // Beyond the newest 40,000 tool-output tokens: the old bash output and the small edit result
  // (pruned together: 25,000+ tokens saved), never the read result. Each is marked in the chat.
  const marks = page.getByText("output pruned from context", { exact: true });
  await expect(marks).toHaveCount(2);
  // Each result is shown folded with its call (issue 28): the mark sits on that step.
  const oldResult = page.getByRole("group", { name: "Tool call: bash" }).filter({ has: marks });
  await expect(oldResult).toHaveCount(1);
  await expect(page.getByRole("group", { name: "Tool call: read" }).filter({ has: marks })).toHaveCount(0);
  await oldResult.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/pruned-mark.png` });

  await sendAndWait(page, "Anything left to do?");
  const chat = mock.requests({ api: "anthropic" }).filter((r) => r.method === "POST" && r.path.endsWith("/messages"));
  const continued = sentText(chat.at(-1));
  expect(continued).toContain("[Output truncated - 25000 tokens]");
  expect(continued).toContain("export function parse() {}");
  expect(continued).not.toContain("OLD-BUILD-LOG");
  // The newest output is protected, and the entry itself is unchanged (still shown in full).
  expect(continued).toContain("NEW-TEST-LOG");
  await oldResult.locator("summary").click();
  await expect(oldResult.locator("pre.tool-step-result")).toContainText("OLD-BUILD-LOG");

  // Compact: the summary ends in the file sets, and the next request carries them.
  mock.enqueue(
    "anthropic",
    summarizerReply(FIRST_SUMMARY, { text: "## Standing facts & constraints\n\n- Fix the failing test." }),
    summarizerReply(SHORT_SUMMARY, { text: "Fixed the lexer" }),
  );
  await chatAction(page, "Compact");
  await compactDialog(page).getByRole("button", { name: "Compact now" }).click();
  await expect(compactDialog(page)).toBeHidden({ timeout: 20_000 });
  const card = compactionCards(page);
  await expect(card).toHaveCount(1);
  await expect(card.getByText("Files: 1 file read, 1 file modified")).toBeVisible();

  await sendAndWait(page, "And now?");
  const after = mock
    .requests({ api: "anthropic" })
    .filter((r) => r.method === "POST" && r.path.endsWith("/messages") && lastUserText(r).includes("And now?"));
  const text = sentText(after.at(-1));
  expect(text).toContain("<read-files>\nsrc/parser.ts\n</read-files>");
  expect(text).toContain("<modified-files>\nsrc/lexer.ts\n</modified-files>");
});

test("overflow with a larger model set: the chat switches to it and retries, before any compaction; Undo goes back", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock, { model: { provider: "openai", id: "gpt-4o" } });
  const dialog = await openSettings(page);
  await dialog.getByRole("combobox", { name: "Larger model" }).selectOption("openai::gpt-4.1");
  await closeSettings(page);

  mock.enqueue(
    "openai",
    { fault: { kind: "http", status: 400 } },
    chatReply("long question", { text: "Answered by the larger model." }),
  );
  await sendAndWait(page, "A long question");
  await expect(page.getByText("Answered by the larger model.")).toBeVisible();

  const notice = page.getByRole("status", { name: "Model switched" });
  await expect(notice).toContainText("Switched this chat to gpt-4.1");
  await expect(page.getByRole("combobox", { name: "Model" })).toHaveAttribute("data-model", "openai::gpt-4.1");
  const sent = conversationRequests(mock);
  expect(sent.map((r) => (r.body as { model?: string }).model)).toEqual(["gpt-4o", "gpt-4.1"]);
  expect(summarizerRequests(mock)).toHaveLength(0);
  await expect(compactionCards(page)).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/promotion-notice.png` });

  await notice.getByRole("button", { name: "Undo: back to gpt-4o" }).click();
  await expect(notice).toBeHidden();
  await expect(page.getByRole("combobox", { name: "Model" })).toHaveAttribute("data-model", "openai::gpt-4o");
});

test("idle compaction: after 5 idle minutes (fake clock) a large chat is compacted in the background, and nothing is sent after", async ({
  page,
  mock,
}) => {
  await page.clock.install();
  await openSmallWindow(page, mock, {
    window: 16_000,
    maxOutput: 1_000,
    reserve: 2_000,
    keepRecent: 600,
    thresholdTokens: 14_000,
  });
  const dialog = await openSettings(page);
  await dialog.getByRole("checkbox", { name: "Compact idle chats" }).check();
  const idleThreshold = dialog.getByLabel("Idle threshold (tokens)", { exact: true });
  await idleThreshold.fill("1000");
  await idleThreshold.press("Enter");
  await closeSettings(page);

  for (let i = 1; i <= 3; i++) {
    await exchange(page, mock, prose(`(U${i})`, 40), `(U${i})`, { text: prose(`(A${i})`, 300) });
  }
  expect(summarizerRequests(mock)).toHaveLength(0);
  mock.enqueue(
    "openai",
    summarizerReply(FIRST_SUMMARY, { text: "## Standing facts & constraints\n\n- Three exchanges." }),
    summarizerReply(SHORT_SUMMARY, { text: "Three idle exchanges" }),
  );
  const chatBefore = conversationRequests(mock).length;

  // Under five minutes: nothing.
  await page.clock.fastForward("04:59");
  expect(summarizerRequests(mock)).toHaveLength(0);
  await page.clock.fastForward("00:02");
  await expect(compactionCards(page)).toHaveCount(1, { timeout: 20_000 });
  await expect(compactionCards(page)).toContainText("automatic · while idle");
  expect(summarizerRequests(mock).length).toBeGreaterThan(0);
  // No auto-continue: the conversation itself was not asked anything.
  expect(conversationRequests(mock)).toHaveLength(chatBefore);
});

test("an edited compaction prompt reaches the summarizer and is recorded on the card; Reset restores the shipped prompt", async ({
  page,
  mock,
}) => {
  await openSmallWindow(page, mock, {
    window: 16_000,
    maxOutput: 1_000,
    reserve: 2_000,
    keepRecent: 600,
    thresholdTokens: 14_000,
  });
  let dialog = await openSettings(page);
  const prompts = dialog.getByRole("region", { name: "Prompts" });
  for (const name of [
    "Compaction",
    "Compaction update",
    "Split turn",
    "Short summary",
    "Branch summary",
    "Handoff",
    "Framing",
  ]) {
    await expect(prompts.getByRole("group", { name: `${name} prompt`, exact: true })).toHaveCount(1);
  }
  const editor = prompts.getByRole("group", { name: "Compaction prompt", exact: true });
  await editor.locator("summary").click();
  const text = editor.getByRole("textbox", { name: "Compaction prompt text" });
  await expect(text).toHaveValue(new RegExp(`^${FIRST_SUMMARY}`));
  // Without the conversation placeholder the prompt is refused, with a reason, and nothing is lost.
  await text.fill("PIRATE-MODE: summarize like a pirate.");
  await editor.getByRole("button", { name: "Save" }).click();
  await expect(editor.getByRole("alert")).toContainText("keep {{conversation}}");
  await expect(text).toHaveValue("PIRATE-MODE: summarize like a pirate.");
  await text.fill("PIRATE-MODE: summarize like a pirate.\n\n{{conversation}}\n\n{{instructions}}");
  await editor.getByRole("button", { name: "Save" }).click();
  await expect(editor.locator("summary")).toContainText("changed · custom v1");
  await prompts.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/prompts-settings.png` });
  await closeSettings(page);

  for (let i = 1; i <= 3; i++) {
    await exchange(page, mock, prose(`(U${i})`, 40), `(U${i})`, { text: prose(`(A${i})`, 300) });
  }
  mock.enqueue(
    "openai",
    summarizerReply("PIRATE-MODE", { text: "## Standing facts & constraints\n\n- Arr." }),
    summarizerReply(SHORT_SUMMARY, { text: "A pirate summary" }),
  );
  await chatAction(page, "Compact");
  await compactDialog(page).getByRole("button", { name: "Compact now" }).click();
  await expect(compactDialog(page)).toBeHidden({ timeout: 20_000 });
  const first = summarizerRequests(mock).map(lastUserText);
  expect(first.filter((t) => /^PIRATE-MODE: summarize like a pirate\.\n\n<conversation>/.test(t))).toHaveLength(1);
  expect(first.filter((t) => t.startsWith(FIRST_SUMMARY))).toHaveLength(0);
  await expect(compactionCards(page)).toContainText("prompts: Compaction custom v1");

  // Reset: the shipped prompt is back, in the editor and in the next chat's compaction.
  dialog = await openSettings(page);
  const again = dialog
    .getByRole("region", { name: "Prompts" })
    .getByRole("group", { name: "Compaction prompt", exact: true });
  await again.locator("summary").click();
  await again.getByRole("button", { name: "Reset" }).click();
  await expect(again.getByRole("textbox", { name: "Compaction prompt text" })).toHaveValue(
    new RegExp(`^${FIRST_SUMMARY}`),
  );
  await expect(again.locator("summary")).toContainText("default");
  await closeSettings(page);

  await page.getByRole("button", { name: "New chat" }).click();
  mock.reset();
  for (let i = 1; i <= 3; i++) {
    await exchange(page, mock, prose(`(V${i})`, 40), `(V${i})`, { text: prose(`(B${i})`, 300) });
  }
  mock.enqueue(
    "openai",
    summarizerReply(FIRST_SUMMARY, { text: "## Standing facts & constraints\n\n- Plain." }),
    summarizerReply(SHORT_SUMMARY, { text: "A plain summary" }),
  );
  await chatAction(page, "Compact");
  await compactDialog(page).getByRole("button", { name: "Compact now" }).click();
  await expect(compactDialog(page)).toBeHidden({ timeout: 20_000 });
  const second = summarizerRequests(mock).map(lastUserText);
  expect(second.filter((t) => t.startsWith(FIRST_SUMMARY))).toHaveLength(1);
  expect(second.join("\n")).not.toContain("PIRATE-MODE");
  await expect(compactionCards(page)).toContainText("default prompts");
});
