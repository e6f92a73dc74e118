/**
 * The history graph (DESIGN §6, issue 5): nodes for messages, branches after edit and regenerate,
 * switching from the graph, the active path and the leaf, keyboard navigation, labels and search,
 * compaction / branch-summary / handoff nodes (seeded straight into IndexedDB), the session
 * lineage, and a 10,000-entry session that opens and can be walked. Screenshots go to
 * test-results/graph/.
 *
 * The chat's messages are `article`s named "User message…" too: every locator here is scoped to
 * the "History graph" region.
 */
import type { Page } from "@playwright/test";
import { assistantMessages, openConfigured, sendAndWait, userMessages, waitIdle } from "./app";
import { message } from "./branching-helpers";
import { expect, type MockServer, test } from "./fixtures";
import { msg, openSeeded, type Row, seed, T0, TRIP, TRIP_2, tripRows } from "./seed";

const SHOTS = "test-results/graph";

test.use({ actionTimeout: 10_000 });

const region = (page: Page) => page.getByRole("region", { name: "History graph" });
const tree = (page: Page) => region(page).getByRole("tree");
const nodes = (page: Page, kind: string | RegExp) =>
  tree(page).getByRole("treeitem", { name: typeof kind === "string" ? new RegExp(`^${kind}`) : kind });
const current = (page: Page) => tree(page).locator('[role="treeitem"][aria-current="true"]');
const focused = (page: Page) => tree(page).locator('[role="treeitem"]:focus');

async function openGraph(page: Page): Promise<void> {
  await page.getByRole("button", { name: "History graph", exact: true }).click();
  await expect(region(page)).toBeVisible();
}

/** A chat of `n` exchanges answered by the mock's echo: "Echo: <text>". */
async function chatOf(page: Page, mock: MockServer, texts: string[]): Promise<void> {
  await openConfigured(page, mock);
  for (const text of texts) await sendAndWait(page, text);
  await expect(userMessages(page)).toHaveCount(texts.length);
}

/** Waits until the graph's pan/zoom animation has ended: the transform is the same two frames apart. */
async function viewSettled(page: Page): Promise<void> {
  const world = region(page).locator(".graph-world");
  await expect
    .poll(async () => {
      const before = await world.evaluate((el) => el.style.transform);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      return before !== "" && before === (await world.evaluate((el) => el.style.transform));
    })
    .toBe(true);
}

// ---- tests -----------------------------------------------------------------------------------

test("nodes appear for messages, the active path is marked and the leaf has aria-current", async ({ page, mock }) => {
  await chatOf(page, mock, ["What is a grove?", "Name three trees"]);
  await openGraph(page);
  await expect(nodes(page, "User message")).toHaveCount(2);
  await expect(nodes(page, "Assistant message")).toHaveCount(2);
  await expect(nodes(page, "User message · What is a grove?")).toHaveCount(1);
  await expect(current(page)).toHaveCount(1);
  await expect(current(page)).toHaveAccessibleName(/^Assistant message · Echo: Name three trees/);
  // Every node is on the active path (no branches yet).
  await expect(tree(page).locator(".gnode.on-path")).toHaveCount(4);

  // A new message grows the graph and moves the leaf.
  await sendAndWait(page, "And a fourth?");
  await expect(nodes(page, "User message")).toHaveCount(3);
  await expect(current(page)).toHaveAccessibleName(/^Assistant message · Echo: And a fourth\?/);

  // The panel's left edge resizes it (drag, or arrows on the separator).
  const separator = region(page).getByRole("separator", { name: "Resize history graph" });
  const width = (await region(page).boundingBox())!.width;
  const edge = (await separator.boundingBox())!;
  await page.mouse.move(edge.x + edge.width / 2, edge.y + 200);
  await page.mouse.down();
  await page.mouse.move(edge.x - 80, edge.y + 200, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await region(page).boundingBox())!.width).toBeGreaterThan(width + 60);
  const dragged = Number(await separator.getAttribute("aria-valuenow"));
  await separator.focus();
  await page.keyboard.press("ArrowRight");
  await expect(separator).toHaveAttribute("aria-valuenow", String(dragged - 24));

  // The toggle closes it again.
  await page.getByRole("button", { name: "History graph", exact: true }).click();
  await expect(region(page)).toHaveCount(0);
});

test("edit and regenerate make branches; clicking a node on another branch switches to it", async ({ page, mock }) => {
  await chatOf(page, mock, ["What is a grove?", "Name three trees"]);
  await openGraph(page);

  // Edit the second message: a sibling user message and its reply.
  const second = userMessages(page).nth(1);
  await second.getByRole("button", { name: "Edit" }).click();
  await second.getByRole("textbox", { name: "Edit message" }).fill("Name four trees");
  mock.enqueue("anthropic", { text: "Oak, ash, elm and yew." });
  await second.getByRole("button", { name: "Save and send" }).click();
  await expect(message(page, "assistant", "Oak, ash, elm and yew.")).toBeVisible();
  await waitIdle(page);

  // Regenerate the new reply: another sibling.
  mock.enqueue("anthropic", { text: "Birch, beech, oak and lime." });
  await message(page, "assistant", "Oak, ash, elm and yew.").getByRole("button", { name: "Regenerate" }).click();
  await expect(message(page, "assistant", "Birch, beech, oak and lime.")).toBeVisible();
  await waitIdle(page);

  await expect(nodes(page, "User message")).toHaveCount(3);
  await expect(nodes(page, "Assistant message")).toHaveCount(4);
  const oldReply = nodes(page, "Assistant message · Echo: Name three trees");
  await expect(oldReply).toHaveClass(/off-path/);
  await expect(nodes(page, "Assistant message · Oak, ash, elm and yew.")).toHaveClass(/off-path/);
  await expect(current(page)).toHaveAccessibleName(/^Assistant message · Birch, beech, oak and lime\./);
  // The active path is highlighted: 2 + 2 nodes on it, 3 off it.
  await expect(tree(page).locator(".gnode.on-path")).toHaveCount(4);

  // Clicking a node on another branch offers Switch here; switching shows that branch in the chat.
  // (Fit in the side panel: three lanes do not fit readably, so the outline; a tap zooms in and selects.)
  await region(page).getByRole("button", { name: "Fit" }).click();
  await region(page).locator(".goutline-item", { hasText: "Echo: Name three trees" }).click();
  await expect(oldReply).toHaveClass(/selected/);
  const details = region(page).getByRole("complementary", { name: "Node details" });
  await expect(details).toContainText("another branch");
  await details.getByRole("button", { name: "Switch here" }).click();
  // The chat's "Rewind" dialog asks about the branch being left: summarize it.
  const dialog = page.getByRole("dialog", { name: "Rewind" });
  await dialog.getByRole("button", { name: "Summarize", exact: true }).click();
  await expect(dialog).toHaveCount(0, { timeout: 15_000 });
  await expect(message(page, "assistant", "Echo: Name three trees")).toBeVisible();
  await expect(message(page, "user", "Name three trees")).toBeVisible();
  await expect(message(page, "assistant", "Birch, beech, oak and lime.")).toHaveCount(0);
  await expect(oldReply).toHaveClass(/on-path/);
  await expect(assistantMessages(page)).toHaveCount(2);
  // The summary is the new leaf, under the reply switched to, linked to the branch it summarizes.
  await expect(current(page)).toHaveAccessibleName(/^Branch summary · /);
  await expect(region(page).locator("path.graph-link")).toHaveAttribute("d", /^M/);
});

test("keyboard: Up/Down/Left/Right move through the tree and Enter switches here", async ({ page, mock }) => {
  await chatOf(page, mock, ["What is a grove?", "Name three trees"]);
  mock.enqueue("anthropic", { text: "A second answer." });
  await assistantMessages(page).nth(1).getByRole("button", { name: "Regenerate" }).click();
  await expect(message(page, "assistant", "A second answer.")).toBeVisible();
  await waitIdle(page);
  await openGraph(page);

  // One tab stop: the current leaf.
  await expect(tree(page).locator('[role="treeitem"][tabindex="0"]')).toHaveCount(1);
  await current(page).focus();
  await expect(focused(page)).toHaveAccessibleName(/^Assistant message · A second answer\./);

  await page.keyboard.press("ArrowUp");
  await expect(focused(page)).toHaveAccessibleName(/^User message · Name three trees/);
  await expect(focused(page)).toHaveAttribute("aria-level", "3");
  await expect(focused(page)).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("ArrowUp");
  await expect(focused(page)).toHaveAccessibleName(/^Assistant message · Echo: What is a grove\?/);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(focused(page)).toHaveAccessibleName(/^Assistant message · Echo: Name three trees/);
  await expect(focused(page)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowRight");
  await expect(focused(page)).toHaveAccessibleName(/^Assistant message · A second answer\./);
  await page.keyboard.press("ArrowLeft");
  await expect(focused(page)).toHaveAccessibleName(/^Assistant message · Echo: Name three trees/);
  // Still one tab stop, now on the focused node.
  await expect(tree(page).locator('[role="treeitem"][tabindex="0"]')).toHaveAccessibleName(/Echo: Name three trees/);

  // Enter: Switch here (the "Rewind" dialog asks; no summary this time).
  await page.keyboard.press("Enter");
  await page.getByRole("dialog", { name: "Rewind" }).getByRole("button", { name: "No summary" }).click();
  await expect(message(page, "assistant", "Echo: Name three trees")).toBeVisible();
  await expect(message(page, "assistant", "A second answer.")).toHaveCount(0);
  await expect(current(page)).toHaveAccessibleName(/^Assistant message · Echo: Name three trees/);

  // Home goes to the root, End back to where you are.
  await page.keyboard.press("Home");
  await expect(focused(page)).toHaveAccessibleName(/^User message · What is a grove\?/);
  await page.keyboard.press("End");
  await expect(focused(page)).toHaveAttribute("aria-current", "true");

  // Space collapses the branches below a node (the leaf hidden under it: it becomes "current"), and expands them.
  await page.keyboard.press("ArrowUp");
  await expect(focused(page)).toHaveAccessibleName(/^User message · Name three trees/);
  await expect(tree(page).getByRole("treeitem")).toHaveCount(5);
  await page.keyboard.press(" ");
  await expect(focused(page)).toHaveAttribute("aria-expanded", "false");
  await expect(focused(page)).toHaveAccessibleName(/2 hidden below$/);
  await expect(focused(page)).toHaveAttribute("aria-current", "true");
  await expect(tree(page).getByRole("treeitem")).toHaveCount(3);
  await page.keyboard.press(" ");
  await expect(tree(page).getByRole("treeitem")).toHaveCount(5);
  await expect(focused(page)).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("End");

  // Shift+F10 opens the node's actions; Escape gives focus back.
  await page.keyboard.press("Shift+F10");
  const menu = region(page).getByRole("menu", { name: "Node actions" });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "Copy text" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveCount(0);
  await expect(focused(page)).toHaveAttribute("aria-current", "true");
});

test("label a node, find it with search; filters keep the tree connected", async ({ page, mock }) => {
  await chatOf(page, mock, ["What is a grove?", "Name three trees", "And a fourth?"]);
  await openGraph(page);

  const target = nodes(page, "Assistant message · Echo: Name three trees");
  await target.click();
  await region(page).getByRole("button", { name: "Node actions" }).click();
  await region(page).getByRole("menuitem", { name: "Label…" }).click();
  const field = region(page).getByRole("textbox", { name: "Label" });
  await field.fill("Tree list");
  await field.press("Enter");
  const labelled = nodes(page, "Assistant message · Tree list · Echo: Name three trees");
  await expect(labelled).toHaveCount(1);
  await expect(labelled).toContainText("Tree list");

  // Search finds it by its label (and highlights it); the count says so.
  const search = region(page).getByRole("searchbox", { name: "Search graph" });
  await search.fill("tree list");
  await expect(region(page).locator(".graph-match-count")).toHaveText("1 match");
  await expect(labelled).toHaveClass(/match/);
  await search.press("Enter");
  await expect(region(page).locator(".graph-match-count")).toHaveText("1 of 1");
  await expect(labelled).toHaveClass(/selected/);
  await search.fill("grove");
  await expect(region(page).locator(".graph-match-count")).toHaveText("2 matches");
  await search.fill("");

  // Filters: labelled only, user messages only (each re-attached to the previous one).
  const filter = region(page).getByRole("combobox", { name: "Filter" });
  await filter.selectOption("labelled");
  await expect(tree(page).getByRole("treeitem")).toHaveCount(1);
  await filter.selectOption("user-only");
  await expect(tree(page).getByRole("treeitem")).toHaveCount(3);
  await expect(nodes(page, "User message · And a fourth?")).toHaveAttribute("aria-level", "3");
  await filter.selectOption("all");
  await expect(tree(page).getByRole("treeitem")).toHaveCount(6);

  // The label is stored: it survives a reload.
  await page.reload();
  await openGraph(page);
  await expect(nodes(page, "Assistant message · Tree list")).toHaveCount(1);
  await page.setViewportSize({ width: 1280, height: 800 });
  await region(page).screenshot({ path: `${SHOTS}/labelled.png` });
});

test("compaction, branch summary and handoff nodes, their details, and the session lineage", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await seed(page, tripRows());
  await openSeeded(page, TRIP);
  await openGraph(page);

  const compaction = nodes(page, "Compaction");
  await expect(compaction).toHaveCount(1);
  await expect(compaction).toHaveAccessibleName(
    "Compaction · Chamonix by train from Geneva; hotels 180–260 EUR · 48,210 → 3,120 tokens",
  );
  await expect(compaction).toContainText("48,210 → 3,120 tokens");
  await expect(nodes(page, "Branch summary")).toHaveAccessibleName(/^Branch summary · Explored flying into Geneva/);
  await expect(nodes(page, "Handoff")).toHaveAccessibleName("Handoff · continued in Alps trip (part 2)");
  await expect(nodes(page, "Assistant message · Train plan")).toHaveCount(1);
  // The folded span (from the root up to the first kept entry) is shaded. (Tall enough for Fit to
  // show the nodes themselves, not the outline.)
  await page.setViewportSize({ width: 1440, height: 1400 });
  await region(page).getByRole("button", { name: "Fit" }).click();
  await viewSettled(page);
  await expect(tree(page).locator(".gnode.folded")).toHaveCount(4);
  // The compaction node sits where the chat draws its card: at the cut, right above the first
  // message it kept ("Compare hotel prices…"), not below the newest entry it was written after.
  const firstKept = nodes(page, "User message · Compare hotel prices in Chamonix");
  await expect(firstKept).toHaveAttribute(
    "aria-level",
    String(Number(await compaction.getAttribute("aria-level")) + 1),
  );
  expect((await compaction.boundingBox())!.y).toBeLessThan((await firstKept.boundingBox())!.y);
  const written = nodes(page, "Assistant message · Mid-range hotels");
  expect((await written.boundingBox())!.y).toBeGreaterThan((await firstKept.boundingBox())!.y);
  await expect(current(page)).toHaveAccessibleName(/^Assistant message · Layers, rain jackets/);

  // The branch summary links to the branch it summarized.
  await expect(region(page).locator("path.graph-link")).toHaveAttribute("d", /^M/);

  // Hover shows a compaction's details; selecting it keeps them, with the kept turns and the tail.
  await compaction.hover();
  const details = region(page).getByRole("complementary", { name: "Compaction details" });
  await expect(details).toContainText("48,210 → 3,120 tokens");
  await compaction.click();
  await expect(details).toContainText("Manual");
  await expect(details).toContainText("claude-haiku-4-5");
  await expect(details).toContainText("Keep the budget numbers");
  const kept = details.getByRole("region", { name: "Kept user turns" });
  await expect(kept.getByRole("listitem")).toHaveText([
    "Plan a weekend trip to the Alps for four friends",
    "What about trains from Geneva instead?",
  ]);
  await expect(details.getByRole("region", { name: "Verbatim tail" })).toContainText(
    "Mid-range hotels run 180–260 EUR a night in June.",
  );
  await expect(region(page).locator("path.graph-band.strong")).toHaveAttribute("d", /^M/);
  await page.screenshot({ path: `${SHOTS}/seeded-compaction.png` });

  // Branch summary: "Go to the branch it summarizes".
  await details.getByRole("button", { name: "Close details" }).click();
  await expect(details).toHaveCount(0);
  await nodes(page, "Branch summary").click();
  await region(page).getByRole("button", { name: "Go to the branch it summarizes" }).click();
  await expect(tree(page).locator(".gnode.selected")).toHaveAccessibleName(
    /^Assistant message · Flying only makes sense/,
  );

  // Full screen, then back.
  await region(page).getByRole("button", { name: "Full screen" }).click();
  await expect(region(page)).toHaveClass(/full/);
  await page.screenshot({ path: `${SHOTS}/full-screen.png` });
  await page.keyboard.press("Escape");
  await expect(region(page)).not.toHaveClass(/full/);

  // The handoff node opens the next chat's graph, whose root links back.
  await region(page).getByRole("button", { name: "Close details" }).click();
  await nodes(page, "Handoff").click();
  await region(page).getByRole("button", { name: "Open “Alps trip (part 2)”" }).click();
  await expect(page).toHaveURL(new RegExp(TRIP_2));
  await expect(nodes(page, "Handoff")).toHaveAccessibleName(/^Handoff · continues Alps trip · /);
  await expect(nodes(page, "User message · Which trains leave Friday evening?")).toHaveCount(1);

  // Session lineage: both chats as one chain, this one current.
  await region(page).getByRole("button", { name: "Session lineage" }).click();
  const lineage = region(page).getByRole("navigation", { name: "Session lineage" });
  await expect(lineage.getByRole("button")).toHaveText([/^Alps trip/, /^Alps trip \(part 2\)/]);
  await expect(lineage.getByRole("button", { name: /part 2/ })).toHaveAttribute("aria-current", "page");
  await lineage.getByRole("button", { name: /^Alps trip Earlier part/ }).click();
  await expect(page).toHaveURL(new RegExp(TRIP));
});

test("desktop screenshot: the graph beside a real chat", async ({ page, mock }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await chatOf(page, mock, ["Plan a garden for a shady yard", "Which ferns grow fast?"]);
  mock.enqueue("anthropic", { text: "Hostas and hellebores are the easiest." });
  await userMessages(page).nth(1).getByRole("button", { name: "Edit" }).click();
  await userMessages(page).nth(1).getByRole("textbox", { name: "Edit message" }).fill("Which flowers like shade?");
  await userMessages(page).nth(1).getByRole("button", { name: "Save and send" }).click();
  await expect(message(page, "assistant", "Hostas and hellebores")).toBeVisible();
  await waitIdle(page);
  await sendAndWait(page, "How much water do they need?");
  await openGraph(page);
  await nodes(page, "Assistant message · Echo: Which ferns grow fast?").click();
  await expect(region(page).getByRole("button", { name: "Switch here" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/desktop.png` });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${SHOTS}/desktop-dark.png` });
});

test("a 10,000-entry session opens in the graph and can be walked with the keyboard", async ({ page }) => {
  test.setTimeout(90_000);
  const sessionId = "0196b000-0000-7000-8000-0000000b16b0";
  await page.goto("/");
  await expect(page.getByRole("navigation", { name: "Sessions" })).toBeVisible();
  await page.waitForFunction(async () => (await indexedDB.databases()).some((d) => d.name === "grove"));
  // Generated in the page: a 2,000-message path (user first), 1–5 message alternatives on every
  // 3rd message, 10,000 entries in all.
  await page.evaluate(
    async ({ sessionId, t0 }) => {
      const id = (n: number) => `${sessionId.slice(0, 24)}${n.toString(16).padStart(12, "0")}`;
      const entries: Record<string, unknown>[] = [];
      const add = (n: number, parent: number | null, at: number, role: string, text: string) =>
        entries.push({
          id: id(n),
          sessionId,
          parentId: parent === null ? null : id(parent),
          createdAt: t0 + at,
          type: "message",
          role,
          content: [{ type: "text", text }],
          status: "complete",
        });
      const PATH = 2_000;
      for (let i = 0; i < PATH; i++) {
        add(
          i,
          i === 0 ? null : i - 1,
          i,
          i % 2 === 0 ? "user" : "assistant",
          i === PATH - 1 ? "BIG-LEAF the end" : `Path message ${i}`,
        );
      }
      let n = PATH;
      for (let at = 0; n < 10_000; at = (at + 3) % PATH) {
        let parent = at;
        const len = 1 + (n % 5);
        for (let k = 0; k < len && n < 10_000; k++, n++) {
          add(n, parent, PATH + n, (at + k) % 2 === 0 ? "assistant" : "user", `Alternative ${n}`);
          parent = n;
        }
      }
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open("grove");
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction(["sessions", "entries"], "readwrite");
        for (const e of entries) tx.objectStore("entries").put(e);
        tx.objectStore("sessions").put({
          id: sessionId,
          title: "Ten thousand entries",
          titleSource: "user",
          createdAt: t0,
          updatedAt: t0 + 20_000,
          leafId: id(PATH - 1),
        });
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    },
    { sessionId, t0: T0 },
  );
  await openSeeded(page, sessionId);
  await expect(page.locator("article", { hasText: "BIG-LEAF" })).toBeVisible({ timeout: 20_000 });
  await openGraph(page);
  await expect(region(page).locator(".graph-count")).toHaveText("10,000 nodes", { timeout: 20_000 });
  await expect(current(page)).toHaveAccessibleName(/^Assistant message · BIG-LEAF the end/);
  // Culled: a few dozen nodes in the DOM, not 10,000.
  const rendered = await tree(page).getByRole("treeitem").count();
  expect(rendered).toBeGreaterThan(3);
  expect(rendered).toBeLessThan(400);

  // Walk up 30 levels and sideways: the focused node is always rendered and in view.
  await current(page).focus();
  for (let i = 0; i < 30; i++) await page.keyboard.press("ArrowUp");
  await expect(focused(page)).toHaveAccessibleName(/^Assistant message · Path message 1969/);
  await expect(focused(page)).toBeInViewport();
  await page.keyboard.press("ArrowRight");
  await expect(focused(page)).toHaveAccessibleName(/^(User|Assistant) message · Alternative/);
  await expect(focused(page)).toBeInViewport();
  // Home: the root, 2,000 levels up, rendered and focused; a click on it scrolls the chat there.
  await page.keyboard.press("Home");
  await expect(focused(page)).toHaveAccessibleName(/^User message · Path message 0/);
  await expect(focused(page)).toBeInViewport();
  await expect(page.getByRole("article", { name: /^User message: Path message 0$/ })).toHaveCount(0);
  await focused(page).click();
  await expect(page.getByRole("article", { name: /^User message: Path message 0$/ })).toBeInViewport();
  await page.keyboard.press("End");
  await expect(focused(page)).toHaveAccessibleName(/BIG-LEAF/);

  // Drag pans, the wheel zooms (around the pointer), the minimap jumps.
  const viewport = region(page).locator(".graph-viewport");
  const world = region(page).locator(".graph-world");
  const box = (await viewport.boundingBox())!;
  const before = await world.evaluate((el) => el.style.transform);
  await page.mouse.move(box.x + 30, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 60, box.y + box.height / 2 + 200, { steps: 8 });
  await page.mouse.up();
  await expect.poll(() => world.evaluate((el) => el.style.transform)).not.toBe(before);
  const zoom = region(page).locator(".graph-zoom-level");
  const zoomBefore = await zoom.textContent();
  await page.mouse.move(box.x + box.width / 2, box.y + 90);
  await page.mouse.wheel(0, 400);
  await expect(zoom).not.toHaveText(zoomBefore ?? "");
  const minimap = region(page).locator(".graph-minimap");
  await expect(minimap).toBeVisible();
  const mini = (await minimap.boundingBox())!;
  const jumpFrom = await world.evaluate((el) => el.style.transform);
  await page.mouse.click(mini.x + mini.width / 2, mini.y + 8);
  await expect.poll(() => world.evaluate((el) => el.style.transform)).not.toBe(jumpFrom);

  // "Fit" shows the whole tree as its labelled outline: still a handful of DOM nodes in the tree.
  await region(page).getByRole("button", { name: "Fit" }).click();
  await expect(region(page).locator(".graph-viewport.overview")).toHaveCount(1);
  expect(await tree(page).getByRole("treeitem").count()).toBeLessThan(5);
  await page.setViewportSize({ width: 1440, height: 900 });
  await region(page).getByRole("button", { name: "Fit" }).click();
  await viewSettled(page);
  await expectFitReadable(page);
  await page.screenshot({ path: `${SHOTS}/ten-thousand-fit.png` });
});

test("a 1,000-message agent session in the side panel: legible at Fit, long runs folded, the minimap beside the nodes", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const sessionId = "0196b000-0000-7000-8000-00000000a1c0";
  const id = (n: number) => `${sessionId.slice(0, 24)}${n.toString(16).padStart(12, "0")}`;
  // One straight line of 1,000 messages (a pi session: no forks) with one fork near the end.
  const entries: Row[] = [];
  for (let i = 0; i < 1_000; i++) {
    const role = i % 2 === 0 ? "user" : "assistant";
    entries.push(
      msg(id(i), sessionId, i === 0 ? null : id(i - 1), i, role, `${role === "user" ? "Step" : "Done"} ${i}`),
    );
  }
  entries.push(msg(id(1_000), sessionId, id(990), 1_000, "user", "A second try at step 991"));
  await seed(page, {
    sessions: [
      {
        id: sessionId,
        title: "Long agent run",
        titleSource: "user",
        createdAt: T0,
        updatedAt: T0 + 1,
        leafId: id(999),
      },
    ],
    entries,
  });
  await openSeeded(page, sessionId);
  await openGraph(page);
  await expect(current(page)).toHaveAccessibleName(/^Assistant message · Done 999/);

  // The first view: the active path at a zoom where titles can be read, not "<1%".
  await viewSettled(page);
  const zoom = Number.parseInt((await region(page).locator(".graph-zoom-level").textContent()) ?? "0", 10);
  expect(zoom).toBeGreaterThanOrEqual(60);
  await expect(current(page)).toBeInViewport();
  const title = current(page).locator(".gnode-title");
  await expect(title).toHaveText("Done 999");
  // Rendered text at least 8 CSS px tall once zoomed.
  expect((await title.boundingBox())!.height).toBeGreaterThanOrEqual(8);
  // The long straight stretches are one node each; the fork near the end stays visible.
  const runs = nodes(page, "Collapsed run");
  await expect(runs.first()).toBeVisible();
  await expect(nodes(page, "User message · A second try at step 991")).toHaveCount(1);
  const shown = Number.parseInt(
    ((await region(page).locator(".graph-count").textContent()) ?? "").replace(/,/g, ""),
    10,
  );
  expect(shown).toBeLessThan(20);

  // Showing a run's messages (keyboard: Home, Down to the run, Enter): its first one takes focus.
  await current(page).focus();
  await page.keyboard.press("Home");
  await expect(focused(page)).toHaveAccessibleName(/^User message · Step 0$/);
  await page.keyboard.press("ArrowDown");
  await expect(focused(page)).toHaveAccessibleName(/^Collapsed run · 987 messages/);
  await page.keyboard.press("Enter");
  await expect(region(page).locator(".graph-count")).not.toHaveText(`${shown} nodes`);
  await expect(focused(page)).toHaveAccessibleName(/^Assistant message · Done 1$/);

  // The minimap is beside the nodes, never over one.
  const minimap = region(page).locator(".graph-minimap");
  await expect(minimap).toBeVisible();
  const mini = (await minimap.boundingBox())!;
  const viewport = (await region(page).locator(".graph-viewport").boundingBox())!;
  expect(mini.x).toBeGreaterThanOrEqual(viewport.x + viewport.width - 1);
  await page.screenshot({ path: `${SHOTS}/thousand-agent-session.png` });

  // Fit: the whole tree, every node or group inside the viewport, labels at least 11 px; the long
  // stretches are labelled groups, the fork and "You are here" are visible.
  await region(page).getByRole("button", { name: "Fit" }).click();
  await viewSettled(page);
  const fit = await expectFitReadable(page);
  expect(fit.outline).toBe(true);
  const items = region(page).locator(".goutline-item");
  await expect(items.filter({ hasText: /^≡?\s*\d[\d,]* messages/ }).first()).toBeVisible();
  await expect(items.filter({ hasText: "A second try at step 991" })).toHaveCount(1);
  await expect(region(page).locator(".goutline-item.current")).toContainText("Done 999");
  await expect(region(page).locator(".goutline-item.current")).toContainText("You are here");
  await page.screenshot({ path: `${SHOTS}/thousand-fit.png` });

  // A tap on an item zooms in to it, readable again.
  await items.filter({ hasText: "A second try at step 991" }).click();
  await expect(region(page).locator(".graph-viewport.overview")).toHaveCount(0);
  await expect(nodes(page, "User message · A second try at step 991")).toBeInViewport();
});

// ---- issue 27 item 4: a graph you can read at any size ------------------------------------------

/**
 * After Fit: every node box (or outline item) is inside the graph's viewport and its label is at
 * least 11 px on screen (the node's font size times the zoom; the outline is drawn unzoomed).
 */
async function expectFitReadable(page: Page): Promise<{ outline: boolean; boxes: number }> {
  const viewport = (await region(page).locator(".graph-viewport").boundingBox())!;
  const outline = (await region(page).locator(".graph-viewport.overview").count()) > 0;
  const boxes = outline ? region(page).locator(".goutline-item") : tree(page).getByRole("treeitem");
  const labels = outline ? region(page).locator(".goutline-text") : tree(page).locator(".gnode-title");
  const zoom = outline
    ? 1
    : await region(page)
        .locator(".graph-world")
        .evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).a);
  const count = await boxes.count();
  expect(count).toBeGreaterThan(0);
  for (const box of await boxes.all()) {
    const b = (await box.boundingBox())!;
    expect(b.x, "inside the viewport, left").toBeGreaterThanOrEqual(viewport.x - 0.5);
    expect(b.y, "inside the viewport, top").toBeGreaterThanOrEqual(viewport.y - 0.5);
    expect(b.x + b.width, "inside the viewport, right").toBeLessThanOrEqual(viewport.x + viewport.width + 0.5);
    expect(b.y + b.height, "inside the viewport, bottom").toBeLessThanOrEqual(viewport.y + viewport.height + 0.5);
  }
  const sizes = await labels.evaluateAll((els) => els.map((el) => Number.parseFloat(getComputedStyle(el).fontSize)));
  expect(sizes).toHaveLength(count);
  for (const px of sizes) expect(px * zoom).toBeGreaterThanOrEqual(11);
  return { outline, boxes: count };
}

/**
 * 26 nodes: a 16-message line with two forks (4 and 5 messages), and a compaction written after
 * the last message (keeping its last four): the leaf is the compaction.
 */
function twentySixRows(): { sessions: Row[]; entries: Row[] } {
  const s = "0196c000-0000-7000-8000-00000000c026";
  const id = (n: string) => `${s.slice(0, 24)}${n.padStart(12, "0")}`;
  const entries: Row[] = [];
  const line = (prefix: string, n: number, parent: string | null, t0: number, firstRole: "user" | "assistant") => {
    let p = parent;
    for (let i = 0; i < n; i++) {
      const role = (i % 2 === 0) === (firstRole === "user") ? "user" : "assistant";
      const text = `${role === "user" ? "Ask" : "Answer"} ${prefix}${i}`;
      entries.push(msg(id(`${prefix}${i}`), s, p, t0 + i, role, text));
      p = id(`${prefix}${i}`);
    }
  };
  line("m", 16, null, 0, "user");
  line("b", 4, id("m5"), 100, "user");
  line("c", 5, id("m8"), 200, "assistant");
  entries.push({
    id: id("k"),
    sessionId: s,
    parentId: id("m15"),
    createdAt: T0 + 300 * 60_000,
    type: "compaction",
    summary: "## Progress\nThe first answers.",
    shortSummary: "The first answers, summarized",
    firstKeptEntryId: id("m12"),
    keptUserTurnIds: [],
    tokensBefore: 30_000,
    tokensAfter: 4_000,
    reason: "manual",
    model: "claude-haiku-4-5",
  });
  return {
    sessions: [
      { id: s, title: "Twenty-six nodes", titleSource: "user", createdAt: T0, updatedAt: T0 + 1, leafId: id("k") },
    ],
    entries,
  };
}

test.describe("issue 27 item 4: a graph you can read at any size", () => {
  test("Fit on a 26-node chat: every node labelled (≥ 11 px) inside the view; You are here on the last message", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const rows = twentySixRows();
    await seed(page, rows);
    await openSeeded(page, rows.sessions[0]!.id as string);
    await openGraph(page);
    await expect(region(page).locator(".graph-count")).toHaveText("26 nodes");
    // The leaf is the compaction, drawn at its cut: "You are here" is the chat's last message.
    await expect(current(page)).toHaveAccessibleName(/^Assistant message · Answer m15/);
    await expect(current(page).locator(".gnode-here")).toHaveAttribute("data-text", "You are here");

    await region(page).getByRole("button", { name: "Fit" }).click();
    await viewSettled(page);
    const fit = await expectFitReadable(page);
    // Every node is its own item: the whole tree, labelled.
    expect(fit.boxes).toBe(26);
    await expect(region(page).locator(".goutline-item", { hasText: "Ask b0" })).toHaveCount(1);
    await expect(region(page).locator(".goutline-item", { hasText: "The first answers, summarized" })).toHaveCount(1);
    await expect(region(page).locator(".goutline-item.current")).toContainText("Answer m15");
    await page.screenshot({ path: `${SHOTS}/twenty-six-fit.png` });

    // Full screen reads the same, larger.
    await region(page).getByRole("button", { name: "Full screen" }).click();
    await region(page).getByRole("button", { name: "Fit" }).click();
    await viewSettled(page);
    expect((await expectFitReadable(page)).boxes).toBe(26);
  });

  test("the Legend lists the kinds of node, with their colours and shapes", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await seed(page, tripRows());
    await openSeeded(page, TRIP);
    await openGraph(page);
    const legendButton = region(page).getByRole("button", { name: "Legend" });
    await expect(legendButton).toHaveAttribute("aria-expanded", "false");
    await legendButton.click();
    await expect(legendButton).toHaveAttribute("aria-expanded", "true");
    const legend = region(page).getByRole("list", { name: "Legend" });
    await expect(legend).toBeVisible();
    for (const kind of [
      "User message",
      "Assistant message",
      "Tool result",
      "Compaction",
      "Branch summary",
      "Handoff",
      "Collapsed run",
      "You are here",
    ]) {
      await expect(legend.getByRole("listitem").filter({ hasText: kind }).first()).toBeVisible();
    }
    // Each kind's swatch is drawn in that kind's colour.
    const swatchColour = (kind: string) =>
      legend
        .getByRole("listitem")
        .filter({ hasText: kind })
        .first()
        .locator(".graph-legend-swatch")
        .evaluate((el) => getComputedStyle(el).borderLeftColor);
    expect(await swatchColour("User message")).not.toBe(await swatchColour("Assistant message"));
    expect(await swatchColour("Compaction")).not.toBe(await swatchColour("Branch summary"));
    await page.screenshot({ path: `${SHOTS}/legend.png` });
    await legend.press("Escape");
    await expect(legend).toHaveCount(0);
  });

  test("switching branches moves no node; You are here is the new leaf", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 1400 });
    await seed(page, tripRows());
    await openSeeded(page, TRIP);
    await openGraph(page);
    await region(page).getByRole("button", { name: "Fit" }).click();
    await viewSettled(page);
    await expect(region(page).locator(".graph-viewport.overview")).toHaveCount(0);
    /** Every node's box, relative to the root's (the view may pan to follow the leaf). */
    const places = async () => {
      const root = (await nodes(page, "User message · Plan a weekend trip").boundingBox())!;
      const out: Record<string, string> = {};
      for (const n of await tree(page).getByRole("treeitem").all()) {
        const b = (await n.boundingBox())!;
        out[(await n.getAttribute("data-key"))!] = `${Math.round(b.x - root.x)},${Math.round(b.y - root.y)}`;
      }
      return out;
    };
    const before = await places();
    expect(Object.keys(before).length).toBeGreaterThan(10);

    // Switch to the abandoned "fly" branch, which leaves the compaction off the current path.
    const fly = nodes(page, "Assistant message · Flying only makes sense");
    await fly.click();
    await region(page)
      .getByRole("complementary", { name: "Node details" })
      .getByRole("button", { name: "Switch here" })
      .click();
    const dialog = page.getByRole("dialog", { name: "Rewind" });
    await dialog.getByRole("button", { name: /^(No summary|Rewind)$/ }).click();
    await expect(dialog).toBeHidden();
    await expect(current(page)).toHaveAccessibleName(/^Assistant message · Flying only makes sense/);
    await expect(fly).toHaveClass(/on-path/);
    await expect(nodes(page, "Compaction")).toHaveClass(/off-path/);
    await viewSettled(page);
    expect(await places()).toEqual(before);
    await expect(current(page).locator(".gnode-here")).toHaveAttribute("data-text", "You are here");
  });
});
