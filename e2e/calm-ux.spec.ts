/**
 * Issue 12 items 3, 4, 9, 10 end to end: the "More actions" menu under a message, the one-row
 * header, Settings as searchable sections (Saved, Theme, Delete all data), the command palette and
 * the skip link, and the chat list (date groups, pin, archive, bulk delete, handoff parts).
 */
import type { Locator, Page } from "@playwright/test";
import { assistantMessages, moreActions, openConfigured, sendAndWait, showAdvanced } from "./app";
import { sessionLinks, sessionList } from "./branching-helpers";
import { expect, type MockServer, test } from "./fixtures";
import { openSeeded, type Row, seed, TRIP, tripRows } from "./seed";

const SHOTS = "test-results/e2e-artifacts";
const composer = (page: Page) => page.getByRole("textbox", { name: "Message", exact: true });
const settingsDialog = (page: Page) => page.getByRole("dialog", { name: "Settings" });
const palette = (page: Page) => page.getByRole("dialog", { name: "Command palette" });
const header = (page: Page) => page.locator("header.chat-header");

async function twoExchanges(page: Page, mock: MockServer): Promise<void> {
  await openConfigured(page, mock);
  mock.enqueue("anthropic", { text: "Penguins huddle to keep warm." });
  await sendAndWait(page, "Why do penguins huddle?");
  mock.enqueue("anthropic", { text: "Emperor penguins breed in winter." });
  await sendAndWait(page, "When do they breed?");
}

/** The header's content box is exactly as tall as its tallest control: everything sits on one row. */
async function expectOneRow(page: Page): Promise<void> {
  const { content, row, tops } = await header(page).evaluate((el) => {
    const style = getComputedStyle(el);
    const content = el.clientHeight - Number.parseFloat(style.paddingTop) - Number.parseFloat(style.paddingBottom);
    const boxes = [...el.querySelectorAll<HTMLElement>(":scope > *, :scope .header-controls > *")]
      .filter((c) => c.offsetParent !== null)
      .map((c) => c.getBoundingClientRect());
    return {
      content,
      row: Math.max(...boxes.map((b) => b.height)),
      tops: boxes.map((b) => Math.round(b.top + b.height / 2)),
    };
  });
  expect(content).toBeLessThanOrEqual(row + 1);
  // Every control's middle on one line (no second row hiding under an overflow).
  expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(4);
}

test.describe("message actions", () => {
  test("Copy and the primary action up front, the rest in a keyboard menu that says what each verb does", async ({
    page,
    mock,
  }) => {
    await twoExchanges(page, mock);
    const first = assistantMessages(page).first();
    await first.hover();
    await expect(first.getByRole("button", { name: "Copy" })).toBeVisible();
    await expect(first.getByRole("button", { name: "Regenerate" })).toBeVisible();
    // Branching verbs live in the menu now, not as buttons.
    await expect(first.getByRole("button", { name: "Rewind to here…" })).toHaveCount(0);

    // Keyboard: focus the menu button, open with Enter, arrows move, Escape closes and returns focus.
    const button = first.getByRole("button", { name: "More actions" });
    await button.focus();
    await page.keyboard.press("Enter");
    const menu = first.getByRole("menu", { name: "More actions" });
    await expect(menu).toBeVisible();
    const items = menu.getByRole("menuitem");
    await expect(items).toHaveText([/^Rewind to here…/, /^Compact up to here/, /^Keep word for word/]);
    await expect(items.nth(0)).toBeFocused();
    await expect(items.nth(0)).toHaveAccessibleDescription(/what came after stays in the history/);
    await page.keyboard.press("ArrowDown");
    await expect(items.nth(1)).toBeFocused();
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    // Up from the first item wraps to the last.
    await expect(items.last()).toBeFocused();
    await page.screenshot({ path: `${SHOTS}/message-more-actions.png` });
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(button).toBeFocused();

    // An item runs the real action: Rewind to here… opens the Rewind dialog.
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog", { name: "Rewind" })).toBeVisible();
    await page.keyboard.press("Escape");

    // Edit says what it does; usage is in words.
    const user = page.getByRole("article", { name: /^User message/ }).first();
    await expect(user.getByRole("button", { name: "Edit" })).toHaveAttribute("title", /edit and send as a new branch/i);
    await expect(assistantMessages(page).last()).not.toContainText("stop:");
  });
});

test.describe("header", () => {
  test("one row at 1280 px with the graph open, and at phone width", async ({ page, mock }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openConfigured(page, mock);
    await seed(page, tripRows());
    await openSeeded(page, TRIP);
    await page.getByRole("button", { name: "History graph", exact: true }).click();
    await expect(page.getByRole("region", { name: "History graph" })).toBeVisible();
    await expectOneRow(page);
    await page.screenshot({ path: `${SHOTS}/header-graph-open-1280.png` });

    // The chat's menu holds what used to be five more buttons.
    await page.getByRole("button", { name: "Chat actions" }).click();
    const menu = page.getByRole("menu", { name: "Chat actions" });
    for (const name of ["Compact", "Handoff", "Chat prompt", "Grove JSON", "Markdown"]) {
      await expect(menu.getByRole("menuitem", { name, exact: true })).toBeVisible();
    }
    await page.screenshot({ path: `${SHOTS}/header-chat-menu.png` });
    await page.keyboard.press("Escape");

    // At phone width the graph covers the screen; closed, the header is back.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Close history graph" }).click();
    await expectOneRow(page);
    const height = (await header(page).boundingBox())!.height;
    expect(height).toBeLessThan(844 * 0.08);
    await page.screenshot({ path: `${SHOTS}/header-phone-light.png` });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await expect(header(page)).toBeVisible();
    await expectOneRow(page);
    await page.screenshot({ path: `${SHOTS}/header-phone-dark.png` });
  });
});

test.describe("settings", () => {
  test("sections as regions, a search that filters them, Advanced, and Saved", async ({ page, mock }) => {
    await openConfigured(page, mock);
    await page.getByRole("button", { name: "Settings" }).click();
    const dialog = settingsDialog(page);
    const sections = ["Providers", "Models", "Compaction", "Branching", "Data", "Appearance"];
    for (const name of sections) await expect(dialog.getByRole("region", { name })).toBeVisible();
    // Token fields wait under Advanced.
    await expect(dialog.getByLabel("Reserve tokens", { exact: true })).toBeHidden();
    await page.screenshot({ path: `${SHOTS}/settings-sections.png` });

    const search = dialog.getByRole("searchbox", { name: "Search settings" });
    await search.fill("threshold");
    await expect(dialog.getByRole("region", { name: "Compaction" })).toBeVisible();
    for (const name of sections.filter((n) => n !== "Compaction")) {
      await expect(dialog.getByRole("region", { name })).toBeHidden();
    }
    // A search for an advanced field shows it.
    await expect(dialog.getByLabel("Threshold tokens", { exact: true })).toBeVisible();
    await search.fill("thème");
    await expect(dialog.getByRole("region", { name: "Appearance" })).toBeVisible();
    await expect(dialog.getByRole("region", { name: "Compaction" })).toBeHidden();
    await search.fill("zebra");
    await expect(dialog.getByText("No setting matches “zebra”.")).toBeVisible();
    await search.fill("");
    await expect(dialog.getByText(/No setting matches/)).toBeHidden();

    // A change says Saved, and it is.
    await showAdvanced(dialog);
    const reserve = dialog.getByLabel("Reserve tokens", { exact: true });
    await reserve.fill("4096");
    await reserve.press("Enter");
    await expect(dialog.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
    await page.reload();
    await page.getByRole("button", { name: "Settings" }).click();
    await expect(settingsDialog(page).getByLabel("Reserve tokens", { exact: true })).toHaveValue("4096");
  });

  test("Theme: applied at once, kept across a reload, no light flash before the app loads", async ({ page, mock }) => {
    await page.emulateMedia({ colorScheme: "light" });
    // Records the theme at the moment the parser creates <body>: what the first paint would use.
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (!document.body) return;
        (window as unknown as { __themeAtBody: string | undefined }).__themeAtBody =
          document.documentElement.dataset.theme ?? "unset";
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    await openConfigured(page, mock);
    const html = page.locator("html");
    await expect(html).toHaveAttribute("data-theme", "light");
    await page.getByRole("button", { name: "Settings" }).click();
    const theme = settingsDialog(page).getByRole("combobox", { name: "Theme" });
    await expect(theme).toHaveValue("system");
    await theme.selectOption("dark");
    await expect(html).toHaveAttribute("data-theme", "dark");
    await expect(settingsDialog(page).getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
    const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(background).toBe("rgb(19, 23, 21)");
    await page.screenshot({ path: `${SHOTS}/settings-dark.png` });

    await page.reload();
    await expect(html).toHaveAttribute("data-theme", "dark");
    expect(await page.evaluate(() => (window as unknown as { __themeAtBody?: string }).__themeAtBody)).toBe("dark");
    await page.getByRole("button", { name: "Settings" }).click();
    await expect(settingsDialog(page).getByRole("combobox", { name: "Theme" })).toHaveValue("dark");

    // System follows the device again.
    await settingsDialog(page).getByRole("combobox", { name: "Theme" }).selectOption("system");
    await expect(html).toHaveAttribute("data-theme", "light");
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(html).toHaveAttribute("data-theme", "dark");
  });

  test("Delete all data: a confirmation, then a fresh app", async ({ page, mock }) => {
    await openConfigured(page, mock);
    await sendAndWait(page, "A chat to delete");
    await expect(sessionLinks(page)).toHaveCount(1);
    await page.getByRole("button", { name: "Settings" }).click();
    await settingsDialog(page).getByRole("combobox", { name: "Theme" }).selectOption("dark");
    await settingsDialog(page).getByRole("button", { name: "Delete all data" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete all data?" });
    await expect(confirm).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/delete-all-confirm.png` });
    // Cancel keeps everything.
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await settingsDialog(page).getByRole("button", { name: "Delete all data" }).click();
    await page
      .getByRole("dialog", { name: "Delete all data?" })
      .getByRole("button", { name: "Delete everything" })
      .click();

    // The page reloads into a fresh app: no chats, no keys, the default theme, no chat in the URL.
    await expect(sessionList(page)).toContainText("No chats yet.");
    await expect(page).not.toHaveURL(/#\/s\//);
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    await page.getByRole("button", { name: "Settings" }).click();
    await expect(settingsDialog(page).getByLabel("Anthropic API key")).toHaveValue("");
  });
});

test.describe("command palette and skip link", () => {
  test("Ctrl+K: filter, arrows and Enter run the real actions", async ({ page, mock }) => {
    await twoExchanges(page, mock);
    const open = async (): Promise<Locator> => {
      await page.keyboard.press("Control+k");
      await expect(palette(page)).toBeVisible();
      return palette(page).getByRole("combobox");
    };

    // Shortcuts are shown next to their commands.
    let input = await open();
    await expect(input).toBeFocused();
    await expect(palette(page).getByRole("option", { name: /New chat/ })).toContainText("Ctrl+Shift+O");
    await page.screenshot({ path: `${SHOTS}/palette.png` });

    // Toggle graph, typed.
    await input.fill("graph");
    await expect(palette(page).getByRole("option")).toHaveText([/^Show history graph/]);
    await input.press("Enter");
    await expect(palette(page)).toBeHidden();
    await expect(page.getByRole("region", { name: "History graph" })).toBeVisible();

    // Compact, chosen with the arrows from the full list.
    input = await open();
    await input.fill("co");
    await expect(palette(page).getByRole("option").first()).toHaveText(/^Compact/);
    await input.press("ArrowDown");
    await input.press("ArrowUp");
    await expect(palette(page).getByRole("option", { selected: true })).toHaveText(/^Compact/);
    await input.press("Enter");
    await expect(page.getByRole("dialog", { name: "Compact conversation" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Compact conversation" })).toBeHidden();

    // Handoff.
    input = await open();
    await input.fill("handoff");
    await input.press("Enter");
    await expect(page.getByRole("dialog", { name: "Handoff" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Handoff" })).toBeHidden();

    // Switch model: a list of models; the choice is the chat's model.
    input = await open();
    await input.fill("switch model");
    await input.press("Enter");
    await expect(palette(page).getByRole("listbox", { name: "Models" })).toBeVisible();
    await input.fill("gpt-4o-mini");
    await input.press("Enter");
    await expect(palette(page)).toBeHidden();
    await expect(page.getByRole("combobox", { name: "Model" })).toHaveAttribute("data-model", "openai::gpt-4o-mini");

    // Settings.
    input = await open();
    await input.fill("sett");
    await input.press("Enter");
    await expect(settingsDialog(page)).toBeVisible();
    await settingsDialog(page).getByRole("button", { name: "Close" }).click();

    // Esc closes without running anything.
    input = await open();
    await input.press("Escape");
    await expect(palette(page)).toBeHidden();

    // New chat.
    input = await open();
    await input.fill("new");
    await input.press("Enter");
    await expect(page).not.toHaveURL(/#\/s\//);
    await expect(page.getByRole("article", { name: /^User message/ })).toHaveCount(0);
  });

  test("Skip to chat: the first Tab stop, past the chat list to the message box", async ({ page, mock }) => {
    await openConfigured(page, mock);
    // Start keyboard navigation from the top of the page (the composer takes focus on load).
    await page.evaluate(() => {
      document.body.tabIndex = -1;
      document.body.focus();
      document.body.removeAttribute("tabindex");
    });
    await page.keyboard.press("Tab");
    const skip = page.getByRole("button", { name: "Skip to chat" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(composer(page)).toBeFocused();
  });
});

test.describe("chat list", () => {
  const DAY = 86_400_000;
  const chat = (id: string, title: string, ago: number, extra: Row = {}): Row => ({
    id: `0196b000-0000-7000-8000-${id.padStart(12, "0")}`,
    title,
    titleSource: "user",
    createdAt: Date.now() - ago,
    updatedAt: Date.now() - ago,
    leafId: null,
    ...extra,
  });

  test("date groups, pin, archive and restore, bulk delete, handoff parts", async ({ page, mock }) => {
    await openConfigured(page, mock);
    const trip = tripRows();
    await seed(page, {
      sessions: [
        ...trip.sessions.map((s) => ({ ...s, updatedAt: Date.now() - 60_000 })),
        chat("1", "Sourdough starter", 60_000),
        chat("2", "Penguin census", DAY + 60_000),
        chat("3", "Tax questions", 3 * DAY),
        chat("4", "Old garden notes", 70 * DAY),
      ],
      entries: trip.entries,
      labels: trip.labels,
    });
    await page.reload();
    const list = sessionList(page);
    const groups = list.locator(".session-group h3");
    await expect(groups.first()).toHaveText("Today");
    await expect(groups).toContainText(["Today", "Yesterday", "Previous 7 days"]);
    await expect(groups.last()).toHaveText(/^[A-Z][a-z]+ \d{4}$/);
    // The handoff's second part shows "(part 2)" in full, however long its name.
    await expect(list.locator(".session-part")).toHaveText(["(part 2)"]);
    await expect(list.locator(".session-part")).toBeVisible();

    // Pin: a "Pinned" group on top.
    const row = (title: string) => sessionLinks(page).filter({ hasText: title });
    await row("Tax questions").hover();
    await list.getByRole("button", { name: "Pin Tax questions" }).click();
    await expect(groups.first()).toHaveText("Pinned");
    await expect(list.locator(".session-title").first()).toHaveText("Tax questions");
    await page.screenshot({ path: `${SHOTS}/chat-list-groups.png` });

    // Archive: out of the list, into "Archived", and back.
    await row("Penguin census").hover();
    await list.getByRole("button", { name: "Archive Penguin census" }).click();
    await expect(row("Penguin census")).toHaveCount(0);
    await list.getByRole("button", { name: "Archived (1)" }).click();
    await expect(list.getByRole("heading", { name: "Archived chats" })).toBeVisible();
    await expect(sessionLinks(page)).toHaveCount(1);
    await row("Penguin census").hover();
    await list.getByRole("button", { name: "Restore Penguin census" }).click();
    await expect(sessionLinks(page)).toHaveCount(0);
    await list.getByRole("button", { name: "Back to chats" }).click();
    await expect(row("Penguin census")).toHaveCount(1);

    // Bulk delete: select two, one confirmation.
    await list.getByRole("button", { name: "Select" }).click();
    await list.getByRole("checkbox", { name: "Select Sourdough starter" }).check();
    await list.getByRole("checkbox", { name: "Select Old garden notes" }).check();
    await expect(list).toContainText("2 chats selected");
    await list.getByRole("button", { name: "Delete selected" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete 2 chats?" });
    await expect(confirm).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/chat-list-bulk-delete.png` });
    await confirm.getByRole("button", { name: "Delete 2 chats" }).click();
    await expect(confirm).toBeHidden();
    await expect(row("Sourdough starter")).toHaveCount(0);
    await expect(row("Old garden notes")).toHaveCount(0);
    await expect(row("Tax questions")).toHaveCount(1);
    await expect(sessionLinks(page)).toHaveCount(4);
  });
});

test("screens at phone width, light and dark", async ({ page, mock }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await openConfigured(page, mock);
  await seed(page, tripRows());
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await openSeeded(page, TRIP);
    await expect(assistantMessages(page).last()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/phone-chat-${scheme}.png` });
    const menu = await moreActions(assistantMessages(page).last());
    // The menu stays on screen at phone width (it opens upward above the composer).
    await expect(menu).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: `${SHOTS}/phone-more-actions-${scheme}.png` });
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Show sessions" }).click();
    await expect(sessionList(page)).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: `${SHOTS}/phone-sessions-${scheme}.png` });
    // The scrim beside the drawer closes it.
    await page.getByRole("button", { name: "Close sessions" }).click({ position: { x: 370, y: 420 }, force: true });
    await expect(sessionList(page)).not.toBeInViewport();
    await page.getByRole("button", { name: "Settings" }).click();
    await page.screenshot({ path: `${SHOTS}/phone-settings-${scheme}.png` });
    await settingsDialog(page).getByRole("button", { name: "Close" }).click();
    await page.keyboard.press("Control+k");
    await expect(palette(page)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/phone-palette-${scheme}.png` });
    await page.keyboard.press("Escape");
  }
});
