/**
 * Issue 11 item 2: "Search chats" over a 300-chat library (seeded straight into IndexedDB). The
 * search index is built in its worker; results are a listbox "Search results" whose options name
 * the chat, with a date and a highlighted snippet; choosing one opens that chat on the entry's
 * branch, scrolled so the entry is in view.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { msg, type Row, seed } from "./seed";

const CHATS = 300;
const FILLER_MESSAGES = 12;
const DEEP_MESSAGES = 240;
/** The message sought on the active path: far above the end of a long chat. */
const DEEP_AT = 30;
/** Where the other branch leaves the active path. */
const FORK_AT = 120;

const WORDS = "river copper lantern meadow orbit harbor velvet quarry summit glacier ember falcon timber canyon".split(
  " ",
);
const prose = (n: number, seedNo: number) =>
  Array.from({ length: 12 }, (_, i) => WORDS[(n * 7 + seedNo * 3 + i * 5) % WORDS.length]).join(" ");

const sid = (n: number) => `0196c000-0000-7000-8000-${n.toString(16).padStart(12, "0")}`;
const eid = (chat: number, n: number) =>
  `0196c000-${chat.toString(16).padStart(4, "0")}-7000-9000-${n.toString(16).padStart(12, "0")}`;

const DEEP = sid(7);
const DEEP_TITLE = "Marmalade logistics";

function library(): { sessions: Row[]; entries: Row[] } {
  const sessions: Row[] = [];
  const entries: Row[] = [];
  for (let c = 0; c < CHATS; c++) {
    const s = sid(c);
    const deep = s === DEEP;
    const count = deep ? DEEP_MESSAGES : FILLER_MESSAGES;
    let parent: string | null = null;
    for (let i = 0; i < count; i++) {
      const role = i % 2 === 0 ? "user" : "assistant";
      let text = `${prose(i, c)} (${c}.${i})`;
      if (deep && i === DEEP_AT) text = "Ship the marmalade by the Tuesday ferry, crates stacked two high.";
      entries.push(msg(eid(c, i), s, parent, c * 100 + i, role, text));
      parent = eid(c, i);
    }
    if (deep) {
      // Another version of the reply at FORK_AT: a branch that is not the active one.
      const forkParent = eid(c, FORK_AT - 1);
      entries.push(
        msg(eid(c, 5000), s, forkParent, c * 100 + 5000, "assistant", "Alternatively, send the quinces by zeppelin."),
      );
      entries.push(msg(eid(c, 5001), s, eid(c, 5000), c * 100 + 5001, "user", "How much would the zeppelin cost?"));
    }
    sessions.push({
      id: s,
      title: deep ? DEEP_TITLE : `Chat ${c}: ${WORDS[c % WORDS.length]}`,
      titleSource: "user",
      createdAt: Date.UTC(2025, 0, 1) + c * 3_600_000,
      updatedAt: Date.UTC(2025, 0, 1) + c * 3_600_000 + count * 60_000,
      leafId: parent,
    });
  }
  return { sessions, entries };
}

const searchBox = (page: Page) => page.getByRole("searchbox", { name: "Search chats" });
const results = (page: Page) => page.getByRole("listbox", { name: "Search results" });

test.beforeEach(async ({ page }) => {
  await seed(page, library());
  await page.reload();
  await expect(page.getByRole("navigation", { name: "Sessions" })).toBeVisible();
});

test("search finds a message deep in one of 300 chats; choosing it opens the chat scrolled to it", async ({ page }) => {
  await searchBox(page).fill("marmalade ferry");
  const option = results(page).getByRole("option");
  await expect(option).toHaveCount(1);
  await expect(option).toContainText(DEEP_TITLE);
  await expect(option.locator("mark")).toHaveText(["marmalade", "ferry"]);
  await expect(option).toContainText(
    new Date(Date.UTC(2025, 4, 1, 9, 0, 0) + (7 * 100 + DEEP_AT) * 60_000).toLocaleDateString("en-US"),
  );

  await option.click();
  const target = page.getByRole("article", { name: /^User message: Ship the marmalade/ });
  await expect(target).toBeInViewport();
  await expect(page.locator("main h1")).toHaveText(DEEP_TITLE);
  expect(page.url()).toContain(`#/s/${DEEP}`);
  // The chat opened at the message, not at its end.
  await expect(page.getByRole("article", { name: /\(7\.239\)$/ })).toHaveCount(0);
});

test("a message on another branch: the keyboard picks it and the chat opens on that branch", async ({ page }) => {
  const box = searchBox(page);
  await box.fill("zeppelin");
  const options = results(page).getByRole("option");
  await expect(options).toHaveCount(2);
  await expect(options.first()).toContainText(DEEP_TITLE);

  // Arrows move the active option; Enter opens it.
  await box.press("ArrowDown");
  await expect(options.nth(0)).toHaveAttribute("aria-selected", "true");
  await box.press("ArrowDown");
  await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(options.nth(0)).toHaveAttribute("aria-selected", "false");
  await box.press("ArrowUp");
  const chosen = (await options.nth(0).innerText()).includes("quinces") ? "quinces" : "cost";
  await box.press("Enter");

  const reply = page.getByRole("article", { name: /^Assistant message: Alternatively, send the quinces/ });
  const question = page.getByRole("article", { name: /^User message: How much would the zeppelin cost/ });
  await expect(chosen === "quinces" ? reply : question).toBeInViewport();
  // The branch is the active one now: the reply shows as version 2 of 2, the old version is off the path.
  await expect(reply.getByText("2 / 2")).toBeVisible();
  await expect(page.getByRole("article", { name: /\(7\.120\)$/ })).toHaveCount(0);

  // Escape clears the search: the session list is back.
  await box.press("Escape");
  await expect(box).toHaveValue("");
  await expect(results(page)).toHaveCount(0);
  await expect(
    page.getByRole("navigation", { name: "Sessions" }).getByRole("link", { name: /^Chat 299/ }),
  ).toBeVisible();
});

test("a deleted chat is no longer found", async ({ page }) => {
  await searchBox(page).fill("Chat 299");
  await expect(results(page).getByRole("option")).toHaveCount(1);
  await expect(results(page).getByRole("option")).toContainText("Chat 299");
  // A chat deleted from the list is no longer found.
  await searchBox(page).fill("");
  const row = page
    .getByRole("navigation", { name: "Sessions" })
    .locator(".session-row")
    .filter({ hasText: "Chat 299" });
  await row.hover();
  await row.getByRole("button", { name: /^Delete Chat 299/ }).click();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(row).toHaveCount(0);
  await searchBox(page).fill("Chat 299");
  await expect(page.getByRole("navigation", { name: "Sessions" })).toContainText("No chats match.");
  await expect(results(page).getByRole("option")).toHaveCount(0);
});

test("CJK text is found by a few of its characters", async ({ page }) => {
  const s = sid(900);
  await seed(page, {
    sessions: [{ id: s, title: "学习笔记", titleSource: "user", createdAt: 1, updatedAt: 2, leafId: eid(900, 1) }],
    entries: [
      msg(eid(900, 0), s, null, 1, "user", "我们今天学习机器学习的基础知识"),
      msg(eid(900, 1), s, eid(900, 0), 2, "assistant", "東京タワーへ行きましょう"),
    ],
  });
  // Written behind the app's back (no Dexie change event): a reload lets the index see it.
  await page.reload();
  await searchBox(page).fill("机器学习");
  await expect(results(page).getByRole("option")).toHaveCount(1);
  await expect(results(page).getByRole("option").locator("mark")).toContainText("机器学习");
  await searchBox(page).fill("タワー");
  await expect(results(page).getByRole("option")).toContainText("東京タワーへ");
});

test("a query of a lone surrogate gets an answer, and the next query still works (issue 24.13)", async ({ page }) => {
  // Typed keys cannot make a lone surrogate: set the box's value as a paste of broken text would.
  await searchBox(page).evaluate((el: HTMLInputElement) => {
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
    setValue?.call(el, "\ud800");
    el.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await expect(page.locator(".search-results")).toHaveAttribute("data-query", "\ud800");
  await expect(page.locator(".search-results .search-status")).toHaveText("No chats match.");
  await searchBox(page).fill("marmalade ferry");
  await expect(results(page).getByRole("option")).toHaveCount(1);
});

test("after a reload the saved index answers: results with no indexing again", async ({ page }) => {
  await searchBox(page).fill("marmalade ferry");
  await expect(results(page).getByRole("option")).toHaveCount(1);
  // The worker saves the index in segments a few seconds after the last change and query.
  const savedKeys = () =>
    page.evaluate(
      () =>
        new Promise<string[]>((resolve, reject) => {
          const req = indexedDB.open("grove");
          req.onsuccess = () => {
            const keys = req.result.transaction("searchIndex").objectStore("searchIndex").getAllKeys();
            keys.onsuccess = () => {
              req.result.close();
              resolve(keys.result.map(String));
            };
          };
          req.onerror = () => reject(req.error);
        }),
    );
  await expect.poll(savedKeys, { timeout: 30_000 }).toContain("segment:0");
  expect((await savedKeys()).every((k) => k.startsWith("segment:"))).toBe(true);

  await page.reload();
  await expect(page.getByRole("navigation", { name: "Sessions" })).toBeVisible();
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { statuses: string[] }).statuses = seen;
    new MutationObserver(() => {
      const text = document.querySelector(".search-status")?.textContent ?? "";
      if (text && text !== seen[seen.length - 1]) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await searchBox(page).fill("zeppelin");
  await expect(results(page).getByRole("option")).toHaveCount(2);
  await expect(page.locator(".search-status")).toHaveText("2 matches.");
  // Loaded, not rebuilt: no answer counted chats being indexed (it may have said it was still
  // loading, or a bare "Indexing…" while the worker checked the database for changes).
  const statuses = await page.evaluate(() => (window as unknown as { statuses: string[] }).statuses);
  expect(statuses.filter((s) => /Indexing \d/.test(s))).toEqual([]);
});
