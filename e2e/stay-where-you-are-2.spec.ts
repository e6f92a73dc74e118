/**
 * Issue 27, round 2: one verb for going back ("Rewind to here…"), finding things (the model
 * picker, Ctrl+K), the graph at any size, a steady meter, the header on a phone and touch targets.
 * What the user sees is asserted by role, name and bounding box.
 */
import type { Locator, Page } from "@playwright/test";
import {
  meter,
  meterBox,
  modelBox,
  moreActions,
  openChatMenu,
  openConfigured,
  send,
  userMessages,
  waitIdle,
} from "./app";
import { message } from "./branching-helpers";
import { exchange, MODEL } from "./compaction-helpers";
import { expect, type MockServer, test } from "./fixtures";
import { expectNoOverlap } from "./header-helpers";

const SHOTS = process.env.GROVE_E2E_SHOTS;

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

async function chatOf(page: Page, mock: MockServer, questions: readonly string[]): Promise<void> {
  await openConfigured(page, mock);
  for (const q of questions) {
    mock.enqueue("anthropic", { text: `Answer to ${q}` });
    await send(page, q);
    await expect(message(page, "assistant", `Answer to ${q}`)).toBeVisible({ timeout: 15_000 });
    await waitIdle(page);
  }
}

const rewindDialog = (page: Page): Locator => page.getByRole("dialog", { name: "Rewind" });

test.describe("item 3: one verb for going back", () => {
  test("every message offers Rewind to here…; its dialog says what it does; Esc changes nothing", async ({
    page,
    mock,
  }) => {
    await chatOf(page, mock, ["first question", "second question"]);
    const articles = page.getByRole("article", { name: /^(User|Assistant) message/ });
    await expect(articles).toHaveCount(4);
    for (const article of await articles.all()) {
      const menu = await moreActions(article);
      await expect(menu.getByRole("menuitem", { name: "Rewind to here…" })).toHaveCount(1);
      // The old verbs are gone from the chat.
      await expect(menu.getByRole("menuitem", { name: /^(Branch from here|Switch here)$/ })).toHaveCount(0);
      await page.keyboard.press("Escape");
      await expect(menu).toBeHidden();
    }

    // On a reply: continue from it; the later messages stay in the history.
    const firstAnswer = message(page, "assistant", "Answer to first question");
    await (await moreActions(firstAnswer)).getByRole("menuitem", { name: "Rewind to here…" }).click();
    const dialog = rewindDialog(page);
    await expect(dialog).toContainText("Continue from this message");
    await expect(dialog).toContainText("The 2 messages you leave stay in the history");
    await shot(page, "rewind-dialog-1280");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(userMessages(page)).toHaveCount(2);

    // On a user message: back to just before it, its text in the composer.
    await page.setViewportSize({ width: 390, height: 844 });
    const second = message(page, "user", "second question");
    await (await moreActions(second)).getByRole("menuitem", { name: "Rewind to here…" }).click();
    await expect(dialog).toContainText("Back to just before this message");
    await shot(page, "rewind-dialog-390");
    const box = await dialog.boundingBox();
    expect(box?.width ?? 0).toBeLessThanOrEqual(390);
    await dialog.getByRole("button", { name: "No summary" }).click();
    await expect(dialog).toBeHidden();
    await expect(userMessages(page)).toHaveCount(1);
    await expect(page.getByRole("textbox", { name: "Message", exact: true })).toHaveValue("second question");
  });
});

test.describe("item 7: finding things", () => {
  test("Ctrl+K finds a chat by a word of its title or its messages, and runs theme and export", async ({
    page,
    mock,
  }) => {
    await chatOf(page, mock, ["Plan a walk in Lisbon"]);
    await page.getByRole("button", { name: "New chat" }).first().click();
    mock.enqueue("anthropic", { text: "Penguins count at dawn." });
    await send(page, "How do we count penguins?");
    await expect(message(page, "assistant", "Penguins count at dawn.")).toBeVisible({ timeout: 15_000 });
    await waitIdle(page);

    const palette = page.getByRole("dialog", { name: "Command palette" });
    const input = palette.getByRole("combobox");
    await page.keyboard.press("Control+k");
    await input.fill("lisbon");
    const chats = palette.getByRole("group", { name: "Chats" });
    await expect(chats.getByRole("option", { name: /Plan a walk in Lisbon/ })).toBeVisible();
    await shot(page, "palette-chats-1280");
    await input.press("Enter");
    await expect(palette).toBeHidden();
    await expect(message(page, "user", "Plan a walk in Lisbon")).toBeVisible();

    // By a word of a message, not the title.
    await page.keyboard.press("Control+k");
    await input.fill("dawn");
    await expect(chats.getByRole("option", { name: /How do we count penguins/ })).toBeVisible();
    await page.keyboard.press("Escape");

    // Export commands.
    await page.keyboard.press("Control+k");
    await input.fill("export");
    await expect(palette.getByRole("group", { name: "Commands" }).getByRole("option")).toHaveText([
      /^Export chat as Grove JSON/,
      /^Export chat as Markdown/,
      /^Export all chats/,
    ]);
    await page.keyboard.press("Escape");

    // Theme.
    await page.keyboard.press("Control+k");
    await input.fill("dark");
    await input.press("Enter");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");

    // Rename.
    await page.keyboard.press("Control+k");
    await input.fill("rename");
    await input.press("Enter");
    await expect(palette.getByRole("combobox", { name: "New name for this chat" })).toHaveValue(
      "Plan a walk in Lisbon",
    );
    await input.fill("Lisbon walk");
    await input.press("Enter");
    await expect(palette).toBeHidden();
    await expect(
      page.getByRole("navigation", { name: "Sessions" }).getByRole("link", { name: /Lisbon walk/ }),
    ).toHaveCount(1);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.keyboard.press("Control+k");
    await input.fill("walk");
    await expect(chats.getByRole("option")).toHaveCount(1);
    await shot(page, "palette-chats-390");
  });
});

test.describe("item 7: the model picker", () => {
  test("a combobox 'Model' with a searchable listbox: friendly names, context and price, keyed providers first", async ({
    page,
    mock,
  }) => {
    await openConfigured(page, mock);
    const box = page.getByRole("combobox", { name: "Model" });
    await expect(box).toHaveValue("Claude Sonnet 4.5");
    await box.click();
    const list = page.getByRole("listbox", { name: "Models" });
    await expect(list).toBeVisible();
    const groups = await list.getByRole("group").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
    const firstKeyless = groups.findIndex((g) => g?.endsWith("(no key yet)"));
    if (firstKeyless >= 0) expect(groups.slice(firstKeyless).every((g) => g?.endsWith("(no key yet)"))).toBe(true);

    await box.fill("haiku 4.5");
    const haiku = list.getByRole("option", { name: /^Claude Haiku 4\.5/ });
    await expect(haiku).toHaveCount(1);
    await expect(haiku).toContainText("200k context");
    await expect(haiku).toContainText("per M tokens");
    await shot(page, "model-picker-1280");
    await box.press("ArrowDown");
    await box.press("ArrowUp");
    await box.press("Enter");
    await expect(list).toBeHidden();
    await expect(box).toHaveAttribute("data-model", "anthropic::claude-haiku-4-5");
    await expect(box).toHaveValue("Claude Haiku 4.5");

    // Esc closes the list and keeps the model.
    await box.click();
    await box.fill("gpt");
    await box.press("Escape");
    await expect(list).toBeHidden();
    await expect(box).toHaveAttribute("data-model", "anthropic::claude-haiku-4-5");

    await page.setViewportSize({ width: 390, height: 844 });
    await box.click();
    await expect(list).toBeVisible();
    const listBox = await list.boundingBox();
    expect(listBox?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((listBox?.x ?? 0) + (listBox?.width ?? 999)).toBeLessThanOrEqual(390);
    await shot(page, "model-picker-390");
  });
});

/** A chat of one exchange whose meter shows its count (current, not an estimate). */
async function chatWithItsCount(page: Page, mock: MockServer): Promise<void> {
  await openConfigured(page, mock, { model: MODEL });
  await exchange(page, mock, "(Q1) Plan a penguin census", "(Q1)", { text: "(A1) Count them at dawn." });
  await expect(meterBox(page)).toHaveAttribute("data-count", "current", { timeout: 10_000 });
}

test.describe("item 8: steady numbers", () => {
  test("the meter keeps its last count while a new count runs: no '≈' in between, and it says when it is current", async ({
    page,
    mock,
  }) => {
    await chatWithItsCount(page, mock);
    const first = Number(await meter(page).getAttribute("value"));

    // Every text the meter shows from here on, as the page draws it.
    await meterBox(page).evaluate((box) => {
      const seen: string[] = [];
      (window as unknown as { meterTexts: string[] }).meterTexts = seen;
      new MutationObserver(() => seen.push(`${box.getAttribute("data-count")}|${box.textContent ?? ""}`)).observe(box, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });
    await exchange(page, mock, "(Q2) And by drone?", "(Q2)", { text: "(A2) Drones scare the colony." });
    await expect(meterBox(page)).toHaveAttribute("data-count", "current", { timeout: 10_000 });
    expect(Number(await meter(page).getAttribute("value"))).toBeGreaterThan(first);
    const seen = await page.evaluate(() => (window as unknown as { meterTexts: string[] }).meterTexts);
    // The count did run again (it was "counting" for a while), and never showed an estimate meanwhile.
    expect(seen.some((t) => t.startsWith("counting|"))).toBe(true);
    expect(seen.filter((t) => t.includes("≈"))).toEqual([]);
  });
});

test.describe("item 8: a steady header", () => {
  test("the count arriving does not move the model box: the meter is as wide while it counts as with its count", async ({
    page,
    mock,
  }) => {
    await chatWithItsCount(page, mock);
    const counted = { meter: await meterBox(page).boundingBox(), model: await modelBox(page).boundingBox() };
    // What the meter says before the count comes (PendingMeter: "≈… / <window>"), in the same box.
    const pending = await meterBox(page).evaluate((box) => {
      const text = box.querySelector(".meter-text")?.firstChild;
      if (!text) throw new Error("no meter text");
      text.textContent = `≈… / ${(text.textContent ?? "").split(" / ")[1]}`;
      return text.textContent;
    });
    expect(pending).toMatch(/^≈… \/ \d/);
    const before = { meter: await meterBox(page).boundingBox(), model: await modelBox(page).boundingBox() };
    expect(before.meter?.width).toBe(counted.meter?.width);
    expect(before.model?.x).toBe(counted.model?.x);
  });
});

test.describe("item 8: a steady composer", () => {
  test("the Tools button's code arriving does not move the message box: a stand-in holds its place", async ({
    page,
  }) => {
    // The Tools menu's chunk is held until the message box has been measured without it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let asked = false;
    await page.route("**/assets/ToolsMenu-*.js", async (route) => {
      asked = true;
      await held;
      await route.continue();
    });
    await page.goto("/");
    const box = page.getByRole("textbox", { name: "Message" });
    await expect(box).toBeVisible();
    await expect.poll(() => asked).toBe(true);
    const tools = page.getByRole("button", { name: "Tools" });
    await expect(tools).toHaveCount(0);
    const before = await box.boundingBox();
    release();
    await expect(tools).toBeVisible();
    const after = await box.boundingBox();
    expect(after?.x).toBe(before?.x);
    expect(after?.width).toBe(before?.width);
  });
});

test.describe("item 5 and 10: the header and touch targets on a phone", () => {
  test("390 px: no header control overlaps another or is cut; what does not fit is in Chat actions; targets ≥ 44 px", async ({
    page,
    mock,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await chatOf(page, mock, ["Hi! Can you help me plan a walk through the old grove near Lisbon this weekend?"]);
    await expectNoOverlap(page);
    await shot(page, "header-390");
    // The graph is one tap away in the overflow menu.
    const menu = await openChatMenu(page);
    await menu.getByRole("menuitem", { name: "History graph" }).click();
    await expect(page.getByRole("region", { name: "History graph" })).toBeVisible();
    await page.getByRole("button", { name: "Close history graph" }).click();

    // Touch targets: a message's actions and the version arrows, the session row's icons.
    const reply = message(page, "assistant", "Answer to Hi!");
    for (const target of [
      reply.getByRole("button", { name: "Copy" }),
      reply.getByRole("button", { name: "Regenerate" }),
      reply.getByRole("button", { name: "More actions" }),
    ]) {
      await expectTouchTarget(target);
    }
    await page.getByRole("button", { name: "Show sessions" }).click();
    const list = page.getByRole("navigation", { name: "Sessions" });
    // The drawer slides in: measure once it has arrived, not mid-transition.
    await list.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
    for (const name of [/^Pin /, /^Delete /]) {
      await expectTouchTarget(list.getByRole("button", { name }).first());
    }
    await shot(page, "sessions-390");
  });
});

/** At least 44 px each way; layout in fractional pixels may report 43.99999 for a 44 px box. */
async function expectTouchTarget(target: Locator): Promise<void> {
  const box = await target.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThanOrEqual(44 - 0.01);
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(44 - 0.01);
}
