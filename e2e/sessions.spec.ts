/**
 * The session list: newest first, New chat, automatic titles, rename, delete with confirmation,
 * search by title and by message content, navigation through the list, the URL and bookmarks.
 */
import type { Page } from "@playwright/test";
import { assistantMessages, chatRequests, openConfigured, sendAndWait, userMessages } from "./app";
import { lastChat, message, sessionIdOf, sessionLinks, sessionList, turns, user } from "./branching-helpers";
import { expect, type MockServer, test } from "./fixtures";

const composer = (page: Page) => page.getByRole("textbox", { name: "Message", exact: true });
const chatTitle = (page: Page) => page.locator("main h1");

/** Start a new chat and send its first message; returns the new session's id. */
async function newChatWith(page: Page, text: string): Promise<string> {
  await page.getByRole("button", { name: "New chat" }).click();
  await expect(userMessages(page)).toHaveCount(0);
  await sendAndWait(page, text);
  await expect(page).toHaveURL(/#\/s\//);
  return sessionIdOf(page);
}

/** The list's titles, top to bottom. */
async function listedTitles(page: Page): Promise<string[]> {
  return sessionList(page).locator(".session-title").allInnerTexts();
}

/** A session row's link, by title. */
const row = (page: Page, title: string) => sessionLinks(page).filter({ hasText: title });

/** The row's actions show on hover (and on focus): reach them as a mouse user does. */
async function rowAction(page: Page, title: string, action: "Rename" | "Delete") {
  await row(page, title).hover();
  return sessionList(page).getByRole("button", { name: `${action} ${title}`, exact: true });
}

async function threeChats(page: Page, mock: MockServer): Promise<{ trip: string; bread: string; oaks: string }> {
  await openConfigured(page, mock);
  const trip = await newChatWith(page, "Plan a weekend trip to the mountains with three friends");
  const bread = await newChatWith(page, "Bread recipe");
  mock.enqueue("anthropic", { text: "Use a rye sourdough starter." });
  await sendAndWait(page, "How do I make it tangy?");
  const oaks = await newChatWith(page, "Facts about oaks");
  return { trip, bread, oaks };
}

test("New chat, automatic titles, newest first, and moving between chats through the list", async ({ page, mock }) => {
  await openConfigured(page, mock);
  await expect(sessionList(page)).toContainText("No chats yet.");
  await expect(page.getByRole("heading", { name: "What are we exploring?" })).toBeVisible();

  // The first message creates the session; its title is the first words of that message.
  await sendAndWait(page, "Plan a weekend trip to the mountains with three friends");
  const trip = sessionIdOf(page);
  await expect(row(page, "Plan a weekend trip to the mountains…")).toHaveCount(1);
  await expect(chatTitle(page)).toHaveText("Plan a weekend trip to the mountains…");

  // New chat: an empty chat, no session in the URL, the composer ready.
  await page.getByRole("button", { name: "New chat" }).click();
  await expect(userMessages(page)).toHaveCount(0);
  await expect(assistantMessages(page)).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "What are we exploring?" })).toBeVisible();
  expect(page.url()).not.toContain("#/s/");
  await expect(composer(page)).toBeFocused();
  await expect(sessionList(page).locator("[aria-current=page]")).toHaveCount(0);
  // Nothing is created until something is sent.
  await expect(sessionLinks(page)).toHaveCount(1);

  await sendAndWait(page, "Short one");
  const short = sessionIdOf(page);
  expect(short).not.toBe(trip);
  // The new chat's request carries only its own message.
  expect(turns(lastChat(mock))).toEqual([user("Short one")]);
  const oaks = await newChatWith(page, "Facts about oaks, please");
  expect(await listedTitles(page)).toEqual([
    "Facts about oaks, please",
    "Short one",
    "Plan a weekend trip to the mountains…",
  ]);
  await expect(row(page, "Facts about oaks")).toHaveAttribute("aria-current", "page");

  // Open the oldest chat from the list: its messages, its URL.
  await row(page, "Plan a weekend trip").click();
  await expect(page).toHaveURL(new RegExp(`#/s/${trip}$`));
  await expect(message(page, "user", "Plan a weekend trip")).toBeVisible();
  await expect(userMessages(page)).toHaveCount(1);
  await expect(row(page, "Plan a weekend trip")).toHaveAttribute("aria-current", "page");

  // A new message there continues that chat only, keeps its title, and brings it to the top.
  await sendAndWait(page, "Add a lake swim on Sunday");
  expect(turns(lastChat(mock))).toEqual([
    user("Plan a weekend trip to the mountains with three friends"),
    { role: "assistant", text: "Echo: Plan a weekend trip to the mountains with three friends" },
    user("Add a lake swim on Sunday"),
  ]);
  expect(sessionIdOf(page)).toBe(trip);
  expect(await listedTitles(page)).toEqual([
    "Plan a weekend trip to the mountains…",
    "Facts about oaks, please",
    "Short one",
  ]);

  // Browser back returns to the chat opened before.
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`#/s/${oaks}$`));
  await expect(message(page, "user", "Facts about oaks")).toBeVisible();
  await expect(message(page, "user", "Add a lake swim")).toHaveCount(0);

  // The list survives a reload, in the same order.
  await page.reload();
  await expect(sessionLinks(page)).toHaveCount(3);
  expect(await listedTitles(page)).toEqual([
    "Plan a weekend trip to the mountains…",
    "Facts about oaks, please",
    "Short one",
  ]);
  expect(chatRequests(mock, "anthropic")).toHaveLength(4);
});

test("rename: the new title shows in the list and the header, survives reload, and the chat keeps it", async ({
  page,
  mock,
}) => {
  await threeChats(page, mock);
  await row(page, "Bread recipe").click();
  await expect(message(page, "user", "Bread recipe")).toBeVisible();

  // Escape abandons a rename.
  await (await rowAction(page, "Bread recipe", "Rename")).click();
  const title = sessionList(page).getByRole("textbox", { name: "Chat title" });
  await expect(title).toBeFocused();
  await expect(title).toHaveValue("Bread recipe");
  await title.fill("Something else");
  await title.press("Escape");
  await expect(row(page, "Bread recipe")).toHaveCount(1);
  await expect(row(page, "Something else")).toHaveCount(0);

  await (await rowAction(page, "Bread recipe", "Rename")).click();
  await title.fill("  Sourdough   notes ");
  await sessionList(page).getByRole("button", { name: "Save" }).click();
  await expect(row(page, "Sourdough notes")).toHaveCount(1);
  await expect(row(page, "Bread recipe")).toHaveCount(0);
  await expect(chatTitle(page)).toHaveText("Sourdough notes");
  await expect(sessionList(page).getByRole("button", { name: "Rename Sourdough notes" })).toHaveCount(1);

  // An empty title is not saved.
  await (await rowAction(page, "Sourdough notes", "Rename")).click();
  await title.fill("   ");
  await title.press("Enter");
  await expect(row(page, "Sourdough notes")).toHaveCount(1);

  await sendAndWait(page, "One more question");
  await page.reload();
  await expect(row(page, "Sourdough notes")).toHaveCount(1);
  await expect(chatTitle(page)).toHaveText("Sourdough notes");
  await expect(sessionLinks(page)).toHaveCount(3);
});

test("delete asks first: Cancel keeps the chat, Delete removes it for good", async ({ page, mock }) => {
  const { trip, oaks } = await threeChats(page, mock);
  expect(sessionIdOf(page)).toBe(oaks);

  // Deleting another chat: asks, Cancel keeps it.
  await (await rowAction(page, "Bread recipe", "Delete")).click();
  const confirm = sessionList(page).getByRole("listitem").filter({ hasText: "This cannot be undone" });
  await expect(confirm).toContainText("Bread recipe");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(row(page, "Bread recipe")).toHaveCount(1);

  // Delete it for real: the open chat is untouched.
  await (await rowAction(page, "Bread recipe", "Delete")).click();
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(row(page, "Bread recipe")).toHaveCount(0);
  await expect(sessionLinks(page)).toHaveCount(2);
  expect(sessionIdOf(page)).toBe(oaks);
  await expect(message(page, "user", "Facts about oaks")).toBeVisible();

  // Deleting the open chat leaves an empty new chat.
  await (await rowAction(page, "Facts about oaks", "Delete")).click();
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(row(page, "Facts about oaks")).toHaveCount(0);
  await expect(userMessages(page)).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "What are we exploring?" })).toBeVisible();
  expect(page.url()).not.toContain("#/s/");

  // Gone after a reload too; a bookmark of it says so instead of showing something else.
  await page.reload();
  await expect(sessionLinks(page)).toHaveCount(1);
  await expect(row(page, "Plan a weekend trip")).toHaveCount(1);
  await page.goto(`/#/s/${oaks}`);
  await expect(page.getByRole("heading", { name: "Chat not found" })).toBeVisible();
  await expect(userMessages(page)).toHaveCount(0);
  await page.goto(`/#/s/${trip}`);
  await expect(message(page, "user", "Plan a weekend trip")).toBeVisible();
});

test("search matches titles and message content, user and assistant alike", async ({ page, mock }) => {
  await threeChats(page, mock);
  const search = sessionList(page).getByRole("searchbox", { name: "Search chats" });
  const results = sessionList(page).getByRole("listbox", { name: "Search results" });
  /** The chats the results name, each once, sorted (the ranking is the index's business). */
  const resultChats = async () =>
    [...new Set(await results.getByRole("option").locator(".session-title").allInnerTexts())].sort();

  await search.fill("weekend");
  await expect.poll(resultChats).toEqual(["Plan a weekend trip to the mountains…"]);

  // "tangy" is only in the second user message of "Bread recipe", not its title.
  await search.fill("TANGY");
  await expect.poll(resultChats).toEqual(["Bread recipe"]);

  // "rye sourdough" is only in an assistant reply.
  await search.fill("rye sourdough");
  await expect.poll(resultChats).toEqual(["Bread recipe"]);

  // Every chat has an echo reply: all match.
  await search.fill("echo:");
  await expect.poll(resultChats).toEqual(["Bread recipe", "Facts about oaks", "Plan a weekend trip to the mountains…"]);

  await search.fill("no such words anywhere");
  await expect(sessionList(page)).toContainText("No chats match.");
  await expect(results.getByRole("option")).toHaveCount(0);

  // A match opens its chat; clearing the search restores the list.
  await search.fill("tangy");
  await results.getByRole("option", { name: /Bread recipe/ }).click();
  await expect(message(page, "user", "How do I make it tangy?")).toBeVisible();
  await search.fill("");
  await expect(sessionLinks(page)).toHaveCount(3);
});

test("a bookmarked session URL opens that session in a fresh page", async ({ page, mock }) => {
  const { bread } = await threeChats(page, mock);
  await row(page, "Bread recipe").click();
  await expect(page).toHaveURL(new RegExp(`#/s/${bread}$`));
  const bookmark = page.url();

  const fresh = await page.context().newPage();
  await fresh.goto(bookmark);
  await expect(message(fresh, "user", "How do I make it tangy?")).toBeVisible();
  await expect(message(fresh, "assistant", "Use a rye sourdough starter.")).toBeVisible();
  await expect(userMessages(fresh)).toHaveCount(2);
  await expect(fresh.locator("main h1")).toHaveText("Bread recipe");
  await expect(row(fresh, "Bread recipe")).toHaveAttribute("aria-current", "page");
  await expect(sessionLinks(fresh)).toHaveCount(3);

  // The bookmarked chat continues where it was, from the fresh page.
  await sendAndWait(fresh, "And a softer crust?");
  expect(turns(lastChat(mock)).map((t) => t.text)).toEqual([
    "Bread recipe",
    "Echo: Bread recipe",
    "How do I make it tangy?",
    "Use a rye sourdough starter.",
    "And a softer crust?",
  ]);
  await fresh.close();
});
