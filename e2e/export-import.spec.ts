/**
 * Export and import end to end (issue 6): a Grove JSON export imported into an empty browser gives
 * the same tree, graph and context; Export all; Markdown and HTML downloads (the HTML opened from
 * file:// makes no request and keeps a hostile title as text); "Keep both" / "Skip"; a malformed
 * file changes nothing; the real ChatGPT and pi files import whole (one of them dropped on the window).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Browser, Download, Page } from "@playwright/test";
import {
  ANTHROPIC_KEY,
  assistantMessages,
  importText,
  OPENAI_KEY,
  openChatMenu,
  openConfigured,
  send,
  sendAndWait,
  userMessages,
  waitIdle,
} from "./app";
import { expect, type MockServer, test } from "./fixtures";
import { requestMessages } from "./mock-server/index";
import { piAssistant, piHeader, piJsonl, piMessage, piToolCall, piToolResult } from "./pi-session";
import { openSeeded, seed, TRIP, TRIP_2, tripRows } from "./seed";

const FIXTURES = resolve(import.meta.dirname, "../../shared/fixtures/real-world");
const SHOTS = "test-results/export-import";

test.use({ actionTimeout: 10_000 });

const sessionLinks = (page: Page) => page.getByRole("navigation", { name: "Sessions" }).getByRole("link");
const graph = (page: Page) => page.getByRole("region", { name: "History graph" });
const graphNodes = (page: Page) => graph(page).getByRole("tree").getByRole("treeitem");
const importDialog = (page: Page) => page.getByRole("dialog", { name: "Import" });

async function exportAs(page: Page, format: "Grove JSON" | "Markdown" | "HTML" | "pi JSONL"): Promise<Download> {
  await openChatMenu(page);
  const item = page.getByRole("menuitem", { name: format, exact: true });
  const [download] = await Promise.all([page.waitForEvent("download"), item.click()]);
  return download;
}

async function downloadedText(download: Download): Promise<string> {
  return readFileSync(await download.path(), "utf8");
}

/** A second, empty browser profile: nothing in IndexedDB. */
async function emptyBrowser(browser: Browser, mock: MockServer): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  await openConfigured(page, mock);
  return page;
}

async function openGraph(page: Page): Promise<void> {
  await page.getByRole("button", { name: "History graph", exact: true }).click();
  await expect(graph(page)).toBeVisible();
}

/**
 * What a user sees of a session, from its history graph fitted to the panel (so a small tree has
 * every node in the DOM; the chat's list is virtualized, its rendered rows depend on scroll): every
 * node, the active path in order, and where "You are here" is.
 */
async function seen(page: Page) {
  await page.setViewportSize({ width: 1440, height: 1400 });
  await openGraph(page);
  await graph(page).getByRole("button", { name: "Fit" }).click(); // the graph culls nodes out of view
  // Every node of the model is in the DOM (none culled), or the comparison below would be partial.
  const shown = Number((await graph(page).getByTitle("Nodes shown").innerText()).replace(/\D/g, ""));
  await expect(graphNodes(page)).toHaveCount(shown);
  const nameOf = (els: Element[]) => els.map((e) => e.getAttribute("aria-label"));
  const view = {
    nodes: (await graphNodes(page).evaluateAll(nameOf)).sort(),
    activePath: await graph(page).locator('[role="treeitem"].on-path').evaluateAll(nameOf),
    current: await graph(page).locator('[role="treeitem"][aria-current="true"]').getAttribute("aria-label"),
  };
  await page.getByRole("button", { name: "History graph", exact: true }).click();
  return view;
}

test("Grove JSON: export, import into an empty browser, and the same tree, graph and context come back", async ({
  page,
  browser,
  mock,
}) => {
  // Two browsers, two exports, an import and a send in each: ~22 s on a quiet machine.
  test.slow();
  await seed(page, tripRows());
  await openConfigured(page, mock);
  await openSeeded(page, TRIP);
  await expect(assistantMessages(page)).toHaveCount(5);

  const download = await exportAs(page, "Grove JSON");
  expect(download.suggestedFilename()).toMatch(/^Alps trip \d{4}-\d{2}-\d{2}\.grove\.json$/);
  const exported = await downloadedText(download);
  expect(JSON.parse(exported)).toMatchObject({ format: "grove-session-export", version: 1 });
  expect(exported).not.toContain(ANTHROPIC_KEY);
  expect(exported).not.toContain(OPENAI_KEY);
  const before = await seen(page);
  expect(before.nodes).toContain(
    "Compaction · Chamonix by train from Geneva; hotels 180–260 EUR · 48,210 → 3,120 tokens",
  );
  // The handoff node is derived from "part 2", a session of its own that this one-chat export leaves out.
  before.nodes = before.nodes.filter((n) => n !== "Handoff · continued in Alps trip (part 2)");
  expect(before.activePath).toHaveLength(12);
  expect(before.current).toMatch(/^Assistant message · Layers, rain jackets/);

  const fresh = await emptyBrowser(browser, mock);
  await expect(sessionLinks(fresh)).toHaveCount(0);
  await importText(fresh, download.suggestedFilename(), exported);
  await expect(fresh.getByRole("heading", { name: "Alps trip", level: 1 })).toBeVisible();
  await expect(fresh.getByText("Imported “Alps trip” from a Grove JSON file.")).toBeVisible();
  await expect(fresh.getByText("Layers, rain jackets and good walking shoes.")).toBeVisible();
  expect(await seen(fresh)).toEqual(before);

  // Exporting the imported copy gives the same file.
  expect(await downloadedText(await exportAs(fresh, "Grove JSON"))).toBe(exported);

  // The same next message sends the same context from both browsers.
  // Long chats are virtualized: wait for the reply itself, not for a count of rendered messages.
  for (const p of [page, fresh]) {
    await send(p, "What should we book first?");
    // A first send in a tab loads the provider code (seconds on a busy machine): as long as sendAndWait allows.
    await expect(p.getByText("Echo: What should we book first?")).toBeVisible({ timeout: 15_000 });
    await waitIdle(p);
  }
  const [a, b] = mock.requests({ api: "anthropic" }).filter((r) => r.method === "POST" && r.path.endsWith("/messages"));
  expect(requestMessages(b!)).toEqual(requestMessages(a!));
  expect(JSON.stringify(requestMessages(a!))).toContain("Chamonix chosen");
  await fresh.context().close();
});

test("Export all in Settings: every chat in one file, no keys; imported elsewhere with the handoff link intact", async ({
  page,
  browser,
  mock,
}) => {
  await seed(page, tripRows());
  await openConfigured(page, mock);
  await page.getByRole("button", { name: "Settings" }).click();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("dialog", { name: "Settings" }).getByRole("button", { name: "Export all" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^Grove chats \d{4}-\d{2}-\d{2}\.grove\.json$/);
  const text = await downloadedText(download);
  const file = JSON.parse(text) as { sessions: Array<{ session: { title: string } }> };
  expect(file.sessions.map((s) => s.session.title)).toEqual(["Alps trip (part 2)", "Alps trip"]);
  for (const secret of [ANTHROPIC_KEY, OPENAI_KEY, "apiKey", "baseUrl"]) expect(text).not.toContain(secret);

  const fresh = await emptyBrowser(browser, mock);
  await importText(fresh, download.suggestedFilename(), text);
  await expect(fresh.getByText("Imported 2 chats from a Grove JSON file.")).toBeVisible();
  await expect(sessionLinks(fresh)).toHaveText([/^Alps trip \(part 2\)/, /^Alps trip/]);
  await sessionLinks(fresh).filter({ hasText: "part 2" }).click();
  await expect(fresh).toHaveURL(new RegExp(TRIP_2));
  const links = fresh.getByRole("navigation", { name: "Handoff links" });
  await expect(links).toContainText("Continued from");
  await links.getByRole("link", { name: /Alps trip/ }).click();
  await expect(fresh).toHaveURL(new RegExp(`${TRIP}$`));
  // Without its parent (deleted here), the continuation says so instead of linking nowhere.
  await sessionLinks(fresh)
    .filter({ has: fresh.locator(".session-title", { hasText: /^Alps trip$/ }) })
    .hover(); // row actions show on hover, as for a mouse user
  await fresh.getByRole("button", { name: "Delete Alps trip", exact: true }).click();
  await fresh.getByRole("button", { name: "Delete", exact: true }).click();
  await sessionLinks(fresh).filter({ hasText: "part 2" }).click();
  await expect(links).toHaveText("↩ Continued from an earlier chat that is no longer here");
  await fresh.context().close();
});

test("Markdown and HTML: downloaded and readable; the HTML opens from file:// with no request and a hostile title as text", async ({
  page,
  browser,
  mock,
}, testInfo) => {
  const hostile = `<img src=x onerror="window.__pwned=1">Alps & "friends"</title><script>window.__pwned=2</script>`;
  const rows = tripRows();
  (rows.sessions[0] as { title: string }).title = hostile;
  await seed(page, rows);
  await openConfigured(page, mock);
  await openSeeded(page, TRIP);

  const md = await exportAs(page, "Markdown");
  expect(md.suggestedFilename()).toMatch(/\.md$/);
  const markdown = await downloadedText(md);
  const order = [
    "Plan a weekend trip",
    "Compare hotel prices",
    "Book the cheapest hotel",
    "what should we pack",
    "Layers, rain jackets",
  ];
  const at = order.map((t) => markdown.indexOf(t));
  expect(at.every((i) => i >= 0)).toBe(true);
  expect([...at].sort((x, y) => x - y)).toEqual(at);
  expect(markdown).toMatch(/^> \*\*Compaction\*\*/m);
  expect(markdown).toContain("> Explored flying into Geneva");
  expect(markdown).not.toContain("Or should we fly into Geneva?");
  // With the other branches.
  await openChatMenu(page);
  await page.getByRole("menuitemcheckbox", { name: "Include other branches" }).click();
  const [mdAll] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("menuitem", { name: "Markdown", exact: true }).click(),
  ]);
  const allBranches = await downloadedText(mdAll);
  expect(allBranches).toContain("Or should we fly into Geneva?");
  expect(allBranches).toContain("Pack light: the weather changes fast up there.");

  const html = await exportAs(page, "HTML");
  expect(html.suggestedFilename()).toMatch(/\.html$/);
  const htmlPath = testInfo.outputPath("chat.html");
  await html.saveAs(htmlPath);

  const context = await browser.newContext();
  const requests: string[] = [];
  context.on("request", (r) => requests.push(r.url()));
  const view = await context.newPage();
  await view.goto(`file://${htmlPath}`);
  await expect(view.getByText("Mid-range hotels run 180–260 EUR a night in June.").first()).toBeVisible();
  expect(await view.title()).toBe(hostile);
  await expect(view.getByRole("heading", { level: 1 })).toHaveText(hostile);
  expect(await view.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(view.locator("img, script")).toHaveCount(0);
  // The other branch is there, folded.
  const branch = view.locator("details", { hasText: "Or should we fly into Geneva?" }).first();
  await expect(branch).toBeAttached();
  const branchText = branch.getByText("Or should we fly into Geneva?").last();
  await expect(branchText).toBeHidden();
  await branch.locator("summary").first().click();
  await expect(branchText).toBeVisible();
  await view.screenshot({ path: `${SHOTS}/html-export.png`, fullPage: true });
  expect(requests).toEqual([`file://${htmlPath}`]);
  await context.close();
});

test("a session that is already here: Skip changes nothing, Keep both adds a separate copy", async ({ page, mock }) => {
  await seed(page, tripRows());
  await openConfigured(page, mock);
  await openSeeded(page, TRIP);
  const exported = await downloadedText(await exportAs(page, "Grove JSON"));
  await expect(sessionLinks(page)).toHaveCount(2);

  await importText(page, "again.json", exported);
  await expect(importDialog(page)).toContainText("One chat in again.json is already here");
  await expect(importDialog(page).getByRole("listitem")).toHaveText(["Alps trip"]);
  await expect(importDialog(page).getByRole("button", { name: "Keep both" })).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/keep-both-or-skip.png` });
  await importDialog(page).getByRole("button", { name: "Skip" }).click();
  await expect(importDialog(page)).toHaveCount(0);
  await expect(page.getByText("Nothing imported: every chat in the file is already here.")).toBeVisible();
  await expect(sessionLinks(page)).toHaveCount(2);

  await importText(page, "again.json", exported);
  await importDialog(page).getByRole("button", { name: "Keep both" }).click();
  await expect(sessionLinks(page)).toHaveCount(3);
  await expect(page.getByRole("heading", { name: "Alps trip (imported)", level: 1 })).toBeVisible();
  await expect(page).not.toHaveURL(new RegExp(TRIP));
  await openGraph(page);
  await expect(graph(page).getByRole("treeitem", { name: /^Compaction/ })).toHaveCount(1);
  await expect(graph(page).getByRole("treeitem", { name: /^Branch summary/ })).toHaveCount(1);
  // The original is untouched.
  await sessionLinks(page)
    .filter({ has: page.locator(".session-title", { hasText: /^Alps trip$/ }) })
    .click();
  await expect(page).toHaveURL(new RegExp(`${TRIP}$`));
  await expect(page.getByRole("heading", { name: "Alps trip", level: 1, exact: true })).toBeVisible();
});

test("a malformed file: the error names the problem, and the session list is unchanged", async ({ page, mock }) => {
  await openConfigured(page, mock);
  await sendAndWait(page, "Keep me");
  await expect(sessionLinks(page)).toHaveCount(1);

  const broken = '{"format":"grove-session-export","version":1,"sessions":[{"session":{"id":"s"},"entries":[';
  // Through the Import button's file picker, as a user would (one control named "Import").
  await expect(page.getByRole("button", { name: "Import" })).toHaveCount(1);
  const [chooser] = await Promise.all([
    page.waitForEvent("filechooser"),
    page.getByRole("button", { name: "Import" }).click(),
  ]);
  await chooser.setFiles({ name: "broken.json", mimeType: "application/json", buffer: Buffer.from(broken) });
  await expect(importDialog(page).getByRole("alert")).toContainText("broken.json");
  await expect(importDialog(page).getByRole("alert")).toContainText("truncated");
  await page.screenshot({ path: `${SHOTS}/malformed.png` });
  await expect(importDialog(page).getByRole("button", { name: "OK" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(importDialog(page)).toHaveCount(0);

  const dangling = {
    format: "grove-session-export",
    version: 1,
    sessions: [
      {
        session: { id: "s1", title: "Bad", titleSource: "user", createdAt: 1, updatedAt: 1, leafId: "e1" },
        entries: [
          {
            id: "e1",
            sessionId: "s1",
            parentId: "nowhere",
            createdAt: 1,
            type: "message",
            role: "user",
            content: [{ type: "text", text: "x" }],
            status: "complete",
          },
        ],
        labels: {},
      },
    ],
  };
  await importText(page, "dangling.json", JSON.stringify(dangling));
  await expect(importDialog(page).getByRole("alert")).toContainText("parentId nowhere");
  await importDialog(page).getByRole("button", { name: "OK" }).click();

  await importText(page, "notes.jsonl", "just some text\n");
  await expect(importDialog(page).getByRole("alert")).toContainText("not a pi session");
  await importDialog(page).getByRole("button", { name: "OK" }).click();

  await expect(sessionLinks(page)).toHaveCount(1);
  await expect(sessionLinks(page)).toHaveText([/Keep me/]);
});

test("the real ChatGPT export imports with every branch and the branch the user last saw", async ({ page, mock }) => {
  await openConfigured(page, mock);
  await importText(page, "conversations.json", readFileSync(resolve(FIXTURES, "chatgpt-tree.json"), "utf8"));
  await expect(page.getByRole("heading", { name: "Assist user with summary", level: 1 })).toBeVisible();
  await expect(userMessages(page)).toHaveText([/hi there/, /hi again/, /tell me a joke/]);
  await expect(assistantMessages(page).last()).toContainText("Why don't scientists trust atoms?");
  await openGraph(page);
  // Two fork points: more nodes than the active path holds.
  expect(await graphNodes(page).count()).toBeGreaterThan(6);

  // The same export again (a newer download, say): recognized, and Skip leaves the one copy.
  await importText(page, "conversations.json", readFileSync(resolve(FIXTURES, "chatgpt-tree.json"), "utf8"));
  await expect(importDialog(page).getByRole("listitem")).toHaveText(["Assist user with summary"]);
  await importDialog(page).getByRole("button", { name: "Skip" }).click();
  await expect(page.getByText("Nothing imported: every chat in the file is already here.")).toBeVisible();
  await expect(sessionLinks(page)).toHaveCount(1);
});

test("a real pi session dropped on the window: the whole tree, both compactions in the graph", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock);
  const text = readFileSync(resolve(FIXTURES, "pi-session-v1-with-compactions.jsonl"), "utf8");
  const dataTransfer = await page.evaluateHandle(
    ({ text, name }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name, { type: "application/x-ndjson" }));
      return dt;
    },
    { text, name: "session.jsonl" },
  );
  await page.dispatchEvent("main", "dragenter", { dataTransfer });
  await expect(page.getByText("Drop to import")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/drop.png` });
  await page.dispatchEvent("main", "dragover", { dataTransfer });
  await page.dispatchEvent("main", "drop", { dataTransfer });
  await expect(page.getByText("Drop to import")).toHaveCount(0);
  await expect(page.getByText(/^Imported “.*” from a pi session file\.$/)).toBeVisible({ timeout: 15_000 });
  await expect(sessionLinks(page)).toHaveCount(1);
  await openGraph(page);
  // 997 entries and 5 thinking-level changes (kept as markers); long straight runs of tool calls are folded into one node each (level of detail).
  await expect(graph(page).getByTitle("Nodes shown")).toHaveText(/^\d+ nodes$/);
  const shown = Number.parseInt((await graph(page).getByTitle("Nodes shown").textContent()) ?? "", 10);
  expect(shown).toBeLessThan(200);
  // Search walks to each compaction and shows its node.
  await graph(page).getByRole("searchbox", { name: "Search graph" }).fill("Context Checkpoint: Coding Agent");
  await expect(graph(page).locator("output")).toHaveText("2 matches");
  const selected = graph(page).locator('[role="treeitem"].selected');
  for (const [i, tokens] of [
    [1, "175,004"],
    [2, "185,014"],
  ] as const) {
    await graph(page).getByRole("button", { name: "Next match" }).click();
    await expect(graph(page).locator("output")).toHaveText(`${i} of 2`);
    await expect(selected).toHaveAccessibleName(new RegExp(`^Compaction · .* · ${tokens} → `));
  }
  await page.screenshot({ path: `${SHOTS}/pi-session.png` });
});

test("300 imported ChatGPT conversations: all listed, newest first, the list renders only what is in view", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock);
  const conversations = Array.from({ length: 300 }, (_, i) => {
    const t = 1_700_000_000 + i * 60;
    const node = (id: string, parent: string | null, role: string | null, text: string, children: string[]) => ({
      id,
      parent,
      children,
      message: role
        ? {
            id,
            author: { role },
            create_time: t,
            content: { content_type: "text", parts: [text] },
            status: "finished_successfully",
          }
        : null,
    });
    return {
      title: `Conversation ${String(i + 1).padStart(3, "0")}`,
      create_time: t,
      update_time: t + 30,
      current_node: `a${i}`,
      mapping: {
        [`r${i}`]: node(`r${i}`, null, null, "", [`u${i}`]),
        [`u${i}`]: node(`u${i}`, `r${i}`, "user", `Question ${i + 1}`, [`a${i}`]),
        [`a${i}`]: node(`a${i}`, `u${i}`, "assistant", `Answer ${i + 1}`, []),
      },
    };
  });
  await importText(page, "conversations.json", JSON.stringify(conversations));
  await expect(page.getByText("Imported 300 chats from a ChatGPT export file.")).toBeVisible();
  const list = page.getByRole("navigation", { name: "Sessions" }).getByRole("listitem");
  await expect(list.first()).toHaveAttribute("aria-setsize", "300");
  await expect(list.first()).toContainText("Conversation 300");
  expect(await list.count()).toBeLessThan(60);
  // Scrolled to the end, the oldest is there.
  await page.locator(".session-scroll").evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(list.filter({ hasText: "Conversation 001" })).toHaveAttribute("aria-posinset", "300");
  await list.filter({ hasText: "Conversation 001" }).getByRole("link").click();
  await expect(assistantMessages(page)).toHaveCount(1);
  await expect(assistantMessages(page)).toContainText("Answer 1");
  await expect(page.getByRole("heading", { name: "Conversation 001", level: 1 })).toBeVisible();
});

test("a pi session with tool calls is continued in the browser: the tools go to the model as text", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock);
  const pi = piJsonl([
    piHeader("pi-e2e"),
    piMessage("u1", null, 1, { role: "user", content: [{ type: "text", text: "What is in this folder?" }] }),
    piMessage("a1", "u1", 2, piAssistant([piToolCall("call_1", "bash", { command: "ls" })], "toolUse")),
    piMessage("t1", "a1", 3, piToolResult("call_1", "bash", "README.md\nsrc-of-the-app")),
    piMessage("a2", "t1", 4, piAssistant([{ type: "text", text: "A README and a source folder." }], "stop")),
  ]);
  await importText(page, "session.jsonl", pi);
  await expect(page.getByText(/^Imported “What is in this folder\?” from a pi session file\.$/)).toBeVisible();
  // The call and its result are one folded step (issue 28): the group holds the tool's output.
  const step = page.getByRole("group", { name: "Tool call: bash" });
  await expect(step).toBeVisible();
  await step.locator("summary").click();
  await expect(step).toContainText("src-of-the-app");

  await sendAndWait(page, "Which one holds the code?");
  const chat = mock
    .requests({ api: "anthropic" })
    .filter((r) => r.method === "POST" && r.path.endsWith("/messages"))
    .at(-1)!;
  const messages = requestMessages(chat);
  const sent = JSON.stringify(messages);
  expect(sent).toContain("bash");
  expect(sent).toContain("src-of-the-app");
  expect(sent).toContain("A README and a source folder.");
  // Sent as text, not as tool_use / tool_result blocks (DESIGN §3): Grove declares no tools.
  expect(new Set(messages.flatMap((m) => m.blockTypes))).toEqual(new Set(["text"]));
});
