/**
 * Robustness, end to end: hostile text stays inert, API keys go only to their own provider, two tabs
 * on one session lose nothing, and a full disk is reported plainly with nothing half-written.
 */
import type { Page } from "@playwright/test";
import {
  ANTHROPIC_KEY,
  assistantMessages,
  chatRequests,
  chooseModel,
  OPENAI_KEY,
  openConfigured,
  send,
  sendAndWait,
  userMessages,
  waitIdle,
} from "./app";
import {
  dbSnapshot,
  errorNotices,
  expectHeld,
  installQuotaSwitch,
  reloadSession,
  setQuotaFull,
  versionLabel,
} from "./faults-helpers";
import { expect, test } from "./fixtures";

/** Fails the test (at its end) if any dialog opens: alert(), confirm(), prompt(), beforeunload. */
function forbidDialogs(page: Page): string[] {
  const opened: string[] = [];
  page.on("dialog", (d) => {
    opened.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  return opened;
}

const xssFlag = (page: Page) => page.evaluate(() => Reflect.get(window, "__xss"));

test.describe("XSS", () => {
  test("HTML and script URLs in a reply, a user message and a chat title stay inert text", async ({ page, mock }) => {
    const dialogs = forbidDialogs(page);
    await openConfigured(page, mock);
    const reply = [
      "Here is everything:",
      "",
      "<script>window.__xss=1;alert('script')</script>",
      "",
      `<img src=x onerror="window.__xss=2;alert('img')">`,
      "",
      "[click me](javascript:window.__xss=3)",
      "",
      `<iframe src="javascript:window.__xss=4;alert('iframe')"></iframe>`,
      "",
      `<a href="javascript:window.__xss=5">raw link</a> <svg onload="window.__xss=6"></svg>`,
      "",
      "![pic](javascript:window.__xss=7)",
      "",
      `<details open ontoggle="window.__xss=8">toggle</details>`,
    ].join("\n");
    mock.enqueue("anthropic", { text: reply });
    const userText = `<b id="inj-user">bold</b><img src=x onerror="window.__xss=10;alert('user')">`;
    await sendAndWait(page, userText);

    const article = assistantMessages(page).last();
    await expect(article).toContainText("click me");
    // The markup is shown as text, not executed or rendered.
    await expect(article).toContainText("<script>");
    await expect(article).toContainText("onerror=");
    // In what the reply says (the message's own action icons are SVG).
    const body = article.locator(".message-body");
    for (const selector of ["script", "iframe", "img", "svg", "details", "[onerror]", "[onload]", "[ontoggle]"]) {
      await expect(body.locator(selector), selector).toHaveCount(0);
    }
    await expect(page.locator('[href^="javascript:" i], [src^="javascript:" i]')).toHaveCount(0);
    // Clicking what was the javascript: link does nothing.
    await article.getByText("click me").click();

    // The user's own message is text too.
    const user = userMessages(page).first();
    await expect(user).toContainText('<b id="inj-user">bold</b>');
    await expect(page.locator("#inj-user")).toHaveCount(0);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);

    // A title made of HTML (from the first message, then renamed by hand) is text everywhere.
    const title = `<img src=x onerror="window.__xss=11;alert('title')"><i id="inj-title">t</i>`;
    const sessions = page.getByRole("navigation", { name: "Sessions" });
    await sessions.getByRole("listitem").first().hover(); // row actions show on hover / focus
    await sessions.getByRole("button", { name: /^Rename / }).click();
    await sessions.getByLabel("Chat title").fill(title);
    await sessions.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(sessions.getByRole("link").first()).toContainText(title);
    await expect(page.locator("#inj-title")).toHaveCount(0);
    await expect(page.locator('img[src="x"], [onerror]')).toHaveCount(0);

    // Survives a reload (rendered from the database, not the stream) without executing either.
    await reloadSession(page);
    await expect(assistantMessages(page).last()).toContainText("click me");
    await expect(page.locator("script:not([src]), iframe, [onerror], [onload], #inj-user, #inj-title")).toHaveCount(0);

    await page.waitForTimeout(300); // an onerror or a javascript: frame would have fired by now
    expect(await xssFlag(page)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});

test.describe("API keys", () => {
  test("each key goes only to its own provider, in a header, never in a body, URL or the console", async ({
    page,
    mock,
  }) => {
    const consoleText: string[] = [];
    page.on("console", (m) => consoleText.push(m.text()));
    page.on("pageerror", (e) => consoleText.push(`${e.name}: ${e.message}\n${e.stack ?? ""}`));
    const outgoing: { url: string; headers: Record<string, string>; body: string }[] = [];
    page.on("request", (r) => {
      void r.allHeaders().then((headers) => outgoing.push({ url: r.url(), headers, body: r.postData() ?? "" }));
    });

    await openConfigured(page, mock);
    await sendAndWait(page, "Hello Claude");
    await chooseModel(page, "openai", "gpt-4o");
    await sendAndWait(page, "Hello GPT");
    // Also an error path (the mock rejects a key) so error logging is covered: the 401 must not echo it.
    mock.config({ apiKey: "sk-something-else" });
    await send(page, "And once more");
    await expect(assistantMessages(page).last().getByRole("alert")).toBeVisible({ timeout: 10_000 });
    await expect(assistantMessages(page).last()).not.toContainText(OPENAI_KEY);

    const anthropic = mock.requests({ api: "anthropic" });
    const openai = mock.requests({ api: "openai" });
    expect(chatRequests(mock, "anthropic")).toHaveLength(1);
    expect(chatRequests(mock, "openai")).toHaveLength(2);
    // Nothing went to an address outside the two providers' base URLs.
    expect(mock.requests().filter((r) => r.api === null)).toEqual([]);

    const keyOf = (h: Record<string, string>) => `${h["x-api-key"] ?? ""} ${h.authorization ?? ""}`;
    for (const r of anthropic) {
      expect(keyOf(r.headers), r.path).toContain(ANTHROPIC_KEY);
      expect(JSON.stringify(r.headers), r.path).not.toContain(OPENAI_KEY);
    }
    for (const r of openai) {
      expect(keyOf(r.headers), r.path).toContain(OPENAI_KEY);
      expect(JSON.stringify(r.headers), r.path).not.toContain(ANTHROPIC_KEY);
    }
    for (const r of [...anthropic, ...openai]) {
      const body = JSON.stringify(r.body ?? "");
      expect(body, r.path).not.toContain(ANTHROPIC_KEY);
      expect(body, r.path).not.toContain(OPENAI_KEY);
      expect(`${r.path}${r.search}`).not.toMatch(/sk-(ant|openai)-test/);
    }

    // The browser's side: every request it made, to any origin.
    // A key may reach its provider's default address (the model list is fetched as soon as the key is
    // committed, before the base URL is changed to the mock's) but never anything else.
    const mockOrigin = new URL(mock.url).origin;
    const anthropicHome = (url: string) =>
      url.startsWith(mock.anthropicBaseUrl) || url.startsWith("https://api.anthropic.com/");
    const openaiHome = (url: string) => url.startsWith(mock.openaiBaseUrl) || url.startsWith("https://api.openai.com/");
    for (const r of outgoing) {
      expect(r.url).not.toContain(ANTHROPIC_KEY);
      expect(r.url).not.toContain(OPENAI_KEY);
      expect(r.body).not.toContain(ANTHROPIC_KEY);
      expect(r.body).not.toContain(OPENAI_KEY);
      const headers = JSON.stringify(r.headers);
      if (headers.includes(ANTHROPIC_KEY)) expect(anthropicHome(r.url), r.url).toBe(true);
      if (headers.includes(OPENAI_KEY)) expect(openaiHome(r.url), r.url).toBe(true);
      if (!r.url.startsWith(mockOrigin) && !anthropicHome(r.url) && !openaiHome(r.url)) {
        expect(headers, r.url).not.toMatch(/sk-(ant|openai)-test/);
      }
    }
    expect(outgoing.some((r) => r.url.startsWith(mock.anthropicBaseUrl))).toBe(true);

    for (const line of consoleText) {
      expect(line).not.toContain(ANTHROPIC_KEY);
      expect(line).not.toContain(OPENAI_KEY);
    }
  });
});

test.describe("two tabs", () => {
  test("a message from tab A shows in tab B live; simultaneous sends from the same leaf become siblings", async ({
    page: tabA,
    mock,
  }) => {
    await openConfigured(tabA, mock);
    await sendAndWait(tabA, "Hello from A");
    await expect(tabA).toHaveURL(/#\/s\//);
    const tabB = await tabA.context().newPage();
    await tabB.goto(tabA.url());
    await expect(userMessages(tabB)).toHaveCount(1);
    await expect(assistantMessages(tabB)).toHaveCount(1);

    // Live: no reload in B.
    await sendAndWait(tabA, "Second from A");
    await expect(userMessages(tabB).filter({ hasText: "Second from A" })).toBeVisible();
    await expect(assistantMessages(tabB).filter({ hasText: "Echo: Second from A" })).toBeVisible();

    // Both tabs show the same leaf; each sends at the same moment.
    await tabA.getByRole("textbox", { name: "Message" }).fill("Branch A");
    await tabB.getByRole("textbox", { name: "Message" }).fill("Branch B");
    const at = Date.now() + 400;
    // Clicks Send at wall-clock time `at`; answers the user turns the tab showed at that moment.
    const clickSendAt = (p: Page) =>
      p.evaluate((when) => {
        return new Promise<string[]>((resolve) => {
          setTimeout(
            () => {
              const shown = [...document.querySelectorAll('article[aria-label^="User message"]')].map(
                (a) => a.getAttribute("aria-label") ?? "",
              );
              document.querySelector<HTMLButtonElement>('form.composer button[type="submit"]')?.click();
              resolve(shown);
            },
            Math.max(0, when - Date.now()),
          );
        });
      }, at);
    const [shownA, shownB] = await Promise.all([clickSendAt(tabA), clickSendAt(tabB)]);
    // Precondition: both tabs showed the same leaf when Send was clicked.
    expect(shownB, "tab B already showed tab A's message: the sends were not simultaneous").toEqual(shownA);
    expect(shownA).toHaveLength(2);
    await expect.poll(() => chatRequests(mock, "anthropic").length).toBe(4);
    await waitIdle(tabA);
    await waitIdle(tabB);

    // Nothing lost: both messages, both replies, each in its own version of the third user turn.
    const db = await dbSnapshot(tabA);
    const branchA = db.entries.find((e) => e.text === "Branch A");
    const branchB = db.entries.find((e) => e.text === "Branch B");
    expect(branchA).toBeDefined();
    expect(branchB).toBeDefined();
    expect(branchA?.parentId).toBe(branchB?.parentId);
    expect(db.entries.filter((e) => e.text === "Echo: Branch A" && e.parentId === branchA?.id)).toHaveLength(1);
    expect(db.entries.filter((e) => e.text === "Echo: Branch B" && e.parentId === branchB?.id)).toHaveLength(1);
    expect(db.drafts).toEqual([]);

    for (const tab of [tabA, tabB]) {
      await expect(userMessages(tab)).toHaveCount(3);
      const third = userMessages(tab).nth(2);
      await expect(versionLabel(third)).toHaveText(/^[12] \/ 2$/);
      const shown = (await third.textContent())?.includes("Branch A") ? "A" : "B";
      const other = shown === "A" ? "B" : "A";
      await expect(assistantMessages(tab).last()).toContainText(`Echo: Branch ${shown}`);
      const step = (await versionLabel(third).textContent())?.startsWith("1") ? "Next version" : "Previous version";
      await third.getByRole("button", { name: step }).click();
      await expect(userMessages(tab).nth(2)).toContainText(`Branch ${other}`);
      await expect(assistantMessages(tab).last()).toContainText(`Echo: Branch ${other}`);
    }
    await tabB.close();
  });

  test("tab B's conversation never blinks out while tab A writes to it", async ({ page: tabA, mock }) => {
    await openConfigured(tabA, mock);
    await sendAndWait(tabA, "Start");
    const tabB = await tabA.context().newPage();
    await tabB.goto(tabA.url());
    await expect(userMessages(tabB)).toHaveCount(1);
    // Record every moment B shows no conversation (the welcome screen, or no user message at all).
    await tabB.evaluate(() => {
      const seen: string[] = [];
      Reflect.set(window, "__blank", seen);
      new MutationObserver(() => {
        if (document.querySelector(".empty-state")) seen.push("empty state");
        else if (!document.querySelector('article[aria-label^="User message"]')) seen.push("no messages");
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    for (let i = 1; i <= 4; i++) {
      await send(tabA, `Turn ${i}`);
      await expect(tabA.getByText(`Echo: Turn ${i}`)).toBeVisible();
      await waitIdle(tabA);
      await expect(tabB.getByText(`Echo: Turn ${i}`)).toBeVisible();
    }
    expect(await tabB.evaluate(() => Reflect.get(window, "__blank"))).toEqual([]);
    await tabB.close();
  });
});

test.describe("storage full", () => {
  test("a send that hits the quota says storage is full and writes nothing", async ({ page, mock }) => {
    await installQuotaSwitch(page);
    await openConfigured(page, mock);
    await sendAndWait(page, "Saved before the disk filled up");
    const before = await dbSnapshot(page);
    const requestsBefore = chatRequests(mock, "anthropic").length;

    await setQuotaFull(page, true);
    await send(page, "This one does not fit");
    const notice = errorNotices(page).last();
    await expect(notice).toBeVisible();
    await expect(notice).toContainText(/storage .*full/i);
    await expect(notice).not.toContainText(/QuotaExceededError|DOMException/);
    // What the user typed is not thrown away, and no reply was asked for.
    await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("This one does not fit");
    await expect(userMessages(page)).toHaveCount(1);
    expect(chatRequests(mock, "anthropic")).toHaveLength(requestsBefore);

    await reloadSession(page); // the switch is off again after a reload
    expect(await dbSnapshot(page)).toEqual(before);
    await expect(userMessages(page)).toHaveCount(1);
    await expect(assistantMessages(page)).toHaveCount(1);
  });

  test("the first message of a new chat hitting the quota creates no chat", async ({ page, mock }) => {
    await installQuotaSwitch(page);
    await openConfigured(page, mock);
    const before = await dbSnapshot(page);
    await setQuotaFull(page, true);
    await send(page, "Nowhere to put this");
    await expect(errorNotices(page).last()).toContainText(/storage .*full/i);
    await expect(page).not.toHaveURL(/#\/s\//);
    await page.reload();
    await expect(page.getByRole("navigation", { name: "Sessions" })).toContainText("No chats yet.");
    expect(await dbSnapshot(page)).toEqual(before);
    expect(before.sessions).toEqual([]);
  });

  test("a reply that cannot be saved (quota) is not lost: it comes back after a reload", async ({ page, mock }) => {
    await installQuotaSwitch(page);
    await openConfigured(page, mock);
    // Parked after its first words until released, so the disk fills while the reply streams.
    mock.enqueue("anthropic", { chunks: ["Words that ", "must survive"], hold: { afterChunks: 1 } });
    await send(page, "Reply slowly");
    // The user message is saved; the disk fills while the reply streams.
    await expect(userMessages(page)).toHaveCount(1);
    await expectHeld(mock, "anthropic");
    await setQuotaFull(page, true);
    mock.release("anthropic");
    // Said in the reply itself, which stays on screen (send-hardening.spec.ts saves it once space returns).
    const unsaved = page.getByRole("article", { name: "Assistant message (not saved)" });
    await expect(unsaved.getByRole("alert")).toContainText(/storage .*full/i);
    await expect(unsaved).toContainText("Words that must survive");
    await waitIdle(page);

    await reloadSession(page);
    const reply = assistantMessages(page).last();
    await expect(reply).toContainText("Words that must survive", { timeout: 15_000 });
  });
});
