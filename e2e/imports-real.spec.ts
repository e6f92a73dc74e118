/**
 * Real exports (issue 26), as a user meets them: a ChatGPT export with stub records imports the
 * rest and says which were skipped (beside the chat, never over it); a thinking conversation shows
 * its reasoning folded under "Thought for 16s", its citations as working footnotes, and sends no
 * placeholder on; a Claude retry, an Open WebUI regeneration and a LibreChat tree keep their
 * versions; the HTML export renders Markdown; a Markdown file is refused with what Grove imports.
 * The samples are src/core/export/testing/fixtures/ (written from the formats' sources).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { assistantMessages, importText, openChatMenu, openConfigured, sendAndWait, userMessages } from "./app";
import { versionLabel } from "./faults-helpers";
import { expect, test } from "./fixtures";
import { requestMessages } from "./mock-server/index";

const SAMPLES = resolve(import.meta.dirname, "../src/core/export/testing/fixtures");
const SHOTS = "test-results/imports-real";
const sample = (name: string) => readFileSync(resolve(SAMPLES, name), "utf8");

test.use({ actionTimeout: 10_000 });

const sessionLinks = (page: Page) => page.getByRole("navigation", { name: "Sessions" }).getByRole("link");
const importStatus = (page: Page) => page.getByRole("region", { name: "Import result" }).getByRole("status");
const thinking = (message: Locator) => message.getByRole("group", { name: "Thinking" });

async function openChat(page: Page, title: string): Promise<void> {
  await sessionLinks(page).filter({ hasText: title }).click();
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
}

test("a ChatGPT export with two stub records: the rest comes in, the status counts and lists the skipped, beside the chat", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock);
  await importText(page, "conversations.json", sample("chatgpt-2026-conversations.json"));
  await expect(importStatus(page)).toHaveText(
    'Imported 5 chats from a ChatGPT export file · skipped 2 (no messages: "Corrupted entry", "Broken record").',
  );
  await expect(sessionLinks(page)).toHaveCount(5);

  const report = page.getByRole("region", { name: "Import result" });
  const show = report.getByRole("button", { name: "Show skipped" });
  await expect(show).toHaveAttribute("aria-expanded", "false");
  await show.click();
  await expect(report.getByRole("button", { name: "Hide skipped" })).toHaveAttribute("aria-expanded", "true");
  await expect(report.getByRole("list", { name: "Skipped conversations" }).getByRole("listitem")).toHaveText([
    "Corrupted entry — no messages",
    "Broken record — no messages",
  ]);

  // In the flow of the chat column: the messages end above it, nothing of them is under it.
  await openChat(page, "Trail running shoes for wet rock");
  const messagesBox = (await page.locator(".message-scroll").boundingBox())!;
  const reportBox = (await report.boundingBox())!;
  expect(reportBox.y).toBeGreaterThanOrEqual(messagesBox.y + messagesBox.height - 1);
  await page.screenshot({ path: `${SHOTS}/import-status-skipped.png` });

  await report.getByRole("button", { name: "Dismiss" }).click();
  await expect(report).toHaveCount(0);
});

test("a ChatGPT thinking conversation: reasoning folded under its label, no placeholder, footnotes that work, nothing of it sent on", async ({
  page,
  mock,
}) => {
  test.setTimeout(60_000); // an import, a walk through the chat and a send: long on a loaded machine
  await openConfigured(page, mock);
  await importText(page, "conversations.json", sample("chatgpt-2026-conversations.json"));
  await expect(importStatus(page)).toContainText("Imported 5 chats");
  await openChat(page, "Trail running shoes for wet rock");
  const chatUrl = page.url();

  await expect(userMessages(page)).toHaveText([/Which trail running shoes grip best/, /And for deep mud\?/]);
  // The search the model ran is an assistant step of its own (a tool call), before the reply.
  await expect(assistantMessages(page)).toHaveText([
    /Tool call: web\.run/,
    /the outsole compound matters more/,
    /lug depth wins/,
  ]);
  // Folded, the step shows its name; opened, the call's arguments.
  const call = assistantMessages(page).first().getByRole("group", { name: "Tool call: web.run" });
  await call.locator("summary").click();
  await expect(call).toContainText("search_query");
  await call.locator("summary").click();
  await expect(page.getByText(/omitted|reasoning_recap|Thought for 4s/)).toHaveCount(0);

  // The reasoning: folded groups at the head of the step each led to, the reply's labelled
  // "Thought for 16s"; the follow-up's empty thoughts (and their recap) vanished.
  const [search, first, second] = [0, 1, 2].map((i) => assistantMessages(page).nth(i)) as [Locator, Locator, Locator];
  await expect(thinking(search).locator("summary")).toHaveText("Thinking");
  await expect(thinking(first)).toHaveCount(1);
  await expect(thinking(first).locator("summary")).toHaveText("Thinking · Thought for 16s");
  await expect(thinking(first)).not.toHaveAttribute("open");
  await expect(thinking(second)).toHaveCount(0);
  const thought = first.getByText("Both tests rank sticky rubber above lug depth");
  await expect(thought).toBeHidden();
  await thinking(first).locator("summary").click();
  await expect(thought).toBeVisible();
  await first.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/thinking-conversation.png` });

  // Citations are numbered footnotes: the number leads to its source (a link), and back.
  const ref = first.locator("a[data-footnote-ref]").first();
  await expect(ref).toHaveText("1");
  await ref.click();
  const note = first.locator("section[data-footnotes] li").first();
  await expect(note).toBeFocused();
  await expect(note.getByRole("link").first()).toHaveAttribute("href", /^https:\/\//);
  expect(page.url()).toBe(chatUrl);
  await expect(page.getByRole("heading", { name: "Trail running shoes for wet rock", level: 1 })).toBeVisible();
  await note.locator("a[data-footnote-backref]").first().click();
  await expect(ref).toBeFocused();
  expect(page.url()).toBe(chatUrl);

  mock.enqueue("anthropic", { text: "The Bushido lasts longest." });
  await sendAndWait(page, "Which one lasts longest?");
  const chat = mock
    .requests({ api: "anthropic" })
    .filter((r) => r.method === "POST" && r.path.endsWith("/messages"))
    .at(-1)!;
  const messages = requestMessages(chat);
  expect(messages.at(-1)?.text).toContain("Which one lasts longest?");
  expect(new Set(messages.flatMap((m) => m.blockTypes))).toEqual(new Set(["text"]));
  const sent = JSON.stringify(messages);
  expect(sent).toContain("lug depth wins");
  for (const absent of ["omitted", "Thought for", "independent wet-grip tests", "Both tests rank sticky rubber"]) {
    expect(sent).not.toContain(absent);
  }
});

test("a Claude.ai retry is a second version of the reply: 2 / 2 on the newest, 1 / 2 on the first", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock);
  await importText(page, "conversations.json", sample("claude-2026-conversations.json"));
  await expect(importStatus(page)).toContainText("skipped 2");
  await openChat(page, "Sourdough starter smells like acetone");
  const reply = assistantMessages(page).first();
  await expect(reply).toContainText("It's very likely fine");
  await expect(versionLabel(reply)).toHaveText("2 / 2");
  await reply.getByRole("button", { name: "Previous version" }).click();
  await expect(assistantMessages(page).first()).toContainText("Not dead — hungry");
  await expect(versionLabel(assistantMessages(page).first())).toHaveText("1 / 2");
});

test("Open WebUI and LibreChat exports keep their branches", async ({ page, mock }) => {
  await openConfigured(page, mock);
  await importText(page, "open-webui.json", sample("open-webui-export.json"));
  await expect(importStatus(page)).toContainText("Imported 3 chats");
  await openChat(page, "Rust lifetimes: returning a reference");
  // The branch the user had open (currentId): the second model's answer, and its follow-up.
  await expect(userMessages(page)).toHaveCount(2);
  const answer = assistantMessages(page).first();
  await expect(versionLabel(answer)).toHaveText("2 / 2");
  await answer.getByRole("button", { name: "Previous version" }).click();
  await expect(assistantMessages(page).first()).toContainText("Because the local is dropped");
  await expect(versionLabel(assistantMessages(page).first())).toHaveText("1 / 2");

  await importText(page, "librechat.json", sample("librechat-tree.json"));
  await expect(importStatus(page)).toContainText("Naming a cat");
  await openChat(page, "Naming a cat");
  await expect(versionLabel(assistantMessages(page).first())).toHaveText(/^[12] \/ 2$/);
});

test("the HTML export renders Markdown: code, a table and math as markup, no script, nothing fetched", async ({
  page,
  browser,
  mock,
}, testInfo) => {
  test.setTimeout(60_000); // an import, an export and a second browser context
  await openConfigured(page, mock);
  const reply = [
    "Here is the plan, from the docs[^1].",
    "",
    "```python",
    "print('hi')",
    "```",
    "",
    "| a | b |",
    "|---|---|",
    "| 1 | 2 |",
    "",
    "$$\\sum_{i=1}^n i = \\frac{n(n+1)}{2}$$",
    "",
    "<script>window.__pwned = 1</script>",
    "",
    "[^1]: [Python docs](https://docs.python.org/3/)",
  ].join("\n");
  const node = (id: string, parent: string | null, children: string[], role?: string, text?: string) => ({
    id,
    parent,
    children,
    message: role
      ? { id, author: { role }, create_time: 1_760_000_000, content: { content_type: "text", parts: [text] } }
      : null,
  });
  const conversation = {
    id: "html-1",
    title: "Markup check",
    create_time: 1_760_000_000,
    update_time: 1_760_000_100,
    current_node: "a",
    mapping: {
      root: node("root", null, ["u"]),
      u: node("u", "root", ["a"], "user", "Show me code, a table and a sum."),
      a: node("a", "u", [], "assistant", reply),
    },
  };
  await importText(page, "conversations.json", JSON.stringify([conversation]));
  await expect(page.getByRole("heading", { name: "Markup check", level: 1 })).toBeVisible();

  await openChatMenu(page);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("menuitem", { name: "HTML", exact: true }).click(),
  ]);
  const path = testInfo.outputPath("markup.html");
  await download.saveAs(path);
  const html = readFileSync(path, "utf8");
  expect(html).toMatch(/<pre[\s>]/);
  expect(html).toMatch(/<table[\s>]/);
  expect(html).toMatch(/<math[\s>]/);
  expect(html).toContain("data-footnote-ref");
  expect(html).not.toMatch(/<script/i);

  const context = await browser.newContext();
  const requests: string[] = [];
  context.on("request", (r) => requests.push(r.url()));
  const view = await context.newPage();
  await view.goto(`file://${path}`);
  await expect(view.locator("pre code")).toContainText("print('hi')");
  await expect(view.locator("table td")).toHaveText(["1", "2"]);
  await expect(view.locator("math").first()).toBeAttached();
  await expect(view.getByText("<script>window.__pwned = 1</script>")).toBeVisible();
  expect(await view.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(requests).toEqual([`file://${path}`]);
  await context.close();
});

test("the hints name every format; a Markdown file can be picked and is refused with what Grove imports", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock);
  const apps = "Grove, ChatGPT, Claude.ai, Open WebUI, LibreChat, chatbot-ui or pi";
  await expect(page.getByText(`Import an export from ${apps}`)).toBeVisible();
  const input = page.getByLabel("Import file");
  await expect(input).toHaveAttribute("accept", /(^|,)\.md(,|$)/);
  await input.setInputFiles({ name: "chat.md", mimeType: "text/markdown", buffer: Buffer.from("# A chat\n\nhello") });
  const dialog = page.getByRole("dialog", { name: "Import" });
  await expect(dialog.getByRole("alert")).toContainText(
    "Markdown can't be imported; Grove imports Grove JSON exports; a ChatGPT data export",
  );
  await expect(dialog.getByRole("alert")).toContainText("chatbot-ui exports (.json); and pi session .jsonl files.");
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(sessionLinks(page)).toHaveCount(0);
});
