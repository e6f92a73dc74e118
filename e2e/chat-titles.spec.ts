/**
 * Issue 27 item 7: chats get a generated title by default ("Generate chat titles", Settings ›
 * Models), asked once after a new chat's first reply as a side request the tree never holds; a title
 * the user gave is never overwritten; export file names are clean whatever the title.
 */
import type { Download, Page } from "@playwright/test";
import {
  chatRequests,
  openChatMenu,
  openConfigured,
  send,
  sendAndWait,
  titleRequests,
  userMessages,
  waitIdle,
} from "./app";
import { sessionLinks, sessionList } from "./branching-helpers";
import { expectHeld } from "./faults-helpers";
import { expect, type MockServer, type ReplyScript, test } from "./fixtures";
import { CHAT_TITLE_SYSTEM_MARK } from "./mock-server/index";

/** The start of Grove's title system prompt: what the mock knows a title request by. */
const TITLE_SYSTEM = CHAT_TITLE_SYSTEM_MARK;
const title = (text: string, anyText: string, more: Partial<ReplyScript> = {}): ReplyScript => ({
  text,
  match: { system: TITLE_SYSTEM, anyText },
  ...more,
});
const titleCalls = (mock: MockServer) => titleRequests(mock, "anthropic");

const chatTitle = (page: Page) => page.locator("main h1");
const row = (page: Page, name: string) => sessionLinks(page).filter({ hasText: name });
const generateTitles = (page: Page) =>
  page.getByRole("dialog", { name: "Settings" }).getByRole("checkbox", { name: "Generate chat titles" });

async function newChatWith(page: Page, text: string): Promise<void> {
  await page.getByRole("button", { name: "New chat" }).click();
  await expect(userMessages(page)).toHaveCount(0);
  await sendAndWait(page, text);
}

async function rename(page: Page, from: string, to: string): Promise<void> {
  await row(page, from).hover();
  await sessionList(page)
    .getByRole("button", { name: `Rename ${from}`, exact: true })
    .click();
  await sessionList(page).getByRole("textbox", { name: "Chat title" }).fill(to);
  await sessionList(page).getByRole("button", { name: "Save" }).click();
  await expect(row(page, to)).toHaveCount(1);
}

async function exportAs(page: Page, format: "Grove JSON" | "Markdown" | "HTML" | "pi JSONL"): Promise<Download> {
  await openChatMenu(page);
  const item = page.getByRole("menuitem", { name: format, exact: true });
  const [download] = await Promise.all([page.waitForEvent("download"), item.click()]);
  return download;
}

test("on by default: after the first reply the title comes from the model, once; off keeps the first words", async ({
  page,
  mock,
}) => {
  // Three chats' worth of sends and two visits to Settings: more than the default budget on a busy machine.
  test.slow();
  await page.goto("/");
  await page.getByRole("button", { name: "Settings" }).click();
  await expect(generateTitles(page)).toBeChecked();
  await openConfigured(page, mock, { titles: true });

  mock.enqueue("anthropic", title("Emperor Penguin Census.", "emperor penguins"));
  await sendAndWait(page, "How would I count emperor penguins from satellite images?");
  await expect(chatTitle(page)).toHaveText("Emperor Penguin Census");
  await expect(row(page, "Emperor Penguin Census")).toHaveCount(1);
  expect(titleCalls(mock)).toHaveLength(1);
  expect(JSON.stringify(titleCalls(mock)[0]!.body)).toContain("emperor penguins from satellite images");
  // A side request: the chat shows the exchange only, and the next request does not carry the title call.
  await expect(userMessages(page)).toHaveCount(1);

  // A second message in the same chat asks for no new title.
  await sendAndWait(page, "And from drones?");
  const next = chatRequests(mock, "anthropic").at(-1)!;
  expect(JSON.stringify(next.body)).not.toContain(TITLE_SYSTEM);
  expect(titleCalls(mock)).toHaveLength(1);
  await expect(chatTitle(page)).toHaveText("Emperor Penguin Census");

  // Off: a new chat keeps its first words, and nothing is asked.
  await page.getByRole("button", { name: "Settings" }).click();
  await generateTitles(page).uncheck();
  await page.getByRole("dialog", { name: "Settings" }).getByRole("button", { name: "Close" }).click();
  await newChatWith(page, "Facts about oaks, please");
  await expect(chatTitle(page)).toHaveText("Facts about oaks, please");
  expect(titleCalls(mock)).toHaveLength(1);
});

test("two chats with the same first words get different generated titles in the sessions list", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock, { titles: true });
  mock.enqueue(
    "anthropic",
    title("Lisbon Trip in May", "Lisbon"),
    title("Fixing a Flaky Go Test", "flaky"),
    { text: "Happy to help with Lisbon." },
    { text: "Let us look at the test." },
  );
  await sendAndWait(page, "Hi! Can you help me with something? I want to plan a trip to Lisbon in May.");
  await expect(row(page, "Lisbon Trip in May")).toHaveCount(1);
  await newChatWith(page, "Hi! Can you help me with something? My Go unit test is flaky.");
  await expect(row(page, "Fixing a Flaky Go Test")).toHaveCount(1);
  await expect(row(page, "Lisbon Trip in May")).toHaveCount(1);
  await expect(row(page, "Hi! Can you help me with something?")).toHaveCount(0);
  // The title requests took only their own scripts: each chat got its scripted reply.
  await expect(page.getByText("Let us look at the test.")).toBeVisible();
  expect(titleCalls(mock)).toHaveLength(2);
});

test("a chat the user renamed while its title was being asked for keeps the user's name", async ({ page, mock }) => {
  await openConfigured(page, mock, { titles: true });
  mock.enqueue("anthropic", title("Generated Name", "sourdough", { hold: true }));
  await sendAndWait(page, "How do I keep a sourdough starter alive on holiday?");
  await expectHeld(mock, "anthropic");
  await rename(page, await chatTitle(page).innerText(), "My bread");
  mock.release("anthropic");
  await expect.poll(() => titleCalls(mock)[0]?.outcome).toBe("completed");

  await sendAndWait(page, "And for two weeks?");
  await expect(chatTitle(page)).toHaveText("My bread");
  await expect(row(page, "Generated Name")).toHaveCount(0);
  await page.reload();
  await expect(chatTitle(page)).toHaveText("My bread");
  expect(titleCalls(mock)).toHaveLength(1);
});

test("an export's file name is clean whatever the chat's title", async ({ page, mock }) => {
  await openConfigured(page, mock);
  await sendAndWait(page, "Where do my logs go?");
  await rename(page, "Where do my logs go?", '..\\Users\\me/../etc/passwd: "report" <v2>?*|  ...');

  const md = await exportAs(page, "Markdown");
  expect(md.suggestedFilename()).toMatch(/^Users me \.\. etc passwd report v2 \d{4}-\d{2}-\d{2}\.md$/);
  const json = await exportAs(page, "Grove JSON");
  expect(json.suggestedFilename()).toMatch(/^Users me \.\. etc passwd report v2 \d{4}-\d{2}-\d{2}\.grove\.json$/);
  for (const name of [md.suggestedFilename(), json.suggestedFilename()]) expect(name).not.toMatch(/[\\/:*?"<>|]/);
});

test("a first reply that failed and then succeeded on Retry still gets a generated title, asked once", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock, { titles: true });
  mock.enqueue("anthropic", { fault: { kind: "http", status: 401 } });
  await send(page, "Which ferns grow in deep shade?");
  const alert = page.locator('article[aria-label^="Assistant message"]').last().getByRole("alert");
  await expect(alert).toBeVisible();
  // No title is asked for a chat without a reply.
  expect(titleCalls(mock)).toHaveLength(0);
  mock.enqueue("anthropic", title("Shade Ferns", "ferns"), { text: "Hart's-tongue and lady fern." });
  await alert.getByRole("button", { name: "Retry" }).click();
  await expect(chatTitle(page)).toHaveText("Shade Ferns");
  await expect(row(page, "Shade Ferns")).toHaveCount(1);
  // A regenerate of the named chat's first reply does not ask again.
  const reply = page.locator('article[aria-label^="Assistant message"]').last();
  await reply.getByRole("button", { name: "Regenerate" }).click();
  await expect(page.getByText("Echo: Which ferns grow in deep shade?")).toBeVisible();
  await waitIdle(page);
  // A title asked after the regenerate would go out before the next exchange's reply is done.
  await sendAndWait(page, "And in dry shade?");
  expect(titleCalls(mock)).toHaveLength(1);
  await expect(chatTitle(page)).toHaveText("Shade Ferns");
});
