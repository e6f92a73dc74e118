/**
 * Compaction fidelity (issue 29), end to end against the mock: pins ("Keep word for word") of
 * messages and of selected passages carried verbatim through later compactions, as the requests
 * the mock recorded show; the chat's info listing them; compaction and memory-check spending per month.
 */
import type { Locator, Page } from "@playwright/test";
import { chatAction, chatRequests, messageAction } from "./app";
import {
  compactDialog,
  compactFromHeader,
  compactionCards,
  conversationRequests,
  exchange,
  FIRST_SUMMARY,
  messageWith,
  openSmallWindow,
  prose,
  SHORT_SUMMARY,
  scrollChat,
  sentText,
  summarizerReply,
  summarizerRequests,
  UPDATE_SUMMARY,
} from "./compaction-helpers";
import { dbSnapshot } from "./faults-helpers";
import { expect, type MockServer, test } from "./fixtures";
import { requestSystem } from "./mock-server/index";

/** First words of prompts/memory-probe-system.md and memory-probe-grade-system.md. */
const PROBE_SYSTEM = "You write memory probes";
const GRADE_SYSTEM = "You grade answers against a source";

const SMALL = { window: 16_000, maxOutput: 1_000, reserve: 2_000, keepRecent: 500, auto: false } as const;

async function converse(page: Page, mock: MockServer, from: number, to: number) {
  for (let i = from; i <= to; i++) {
    await exchange(page, mock, prose(`(U${i})`, 40), `(U${i})`, { text: prose(`(A${i})`, 350) });
  }
}

const junk = () => [
  summarizerReply(FIRST_SUMMARY, { text: "lorem ipsum dolor sit amet" }),
  summarizerReply(UPDATE_SUMMARY, { text: "lorem ipsum dolor sit amet" }),
  summarizerReply(SHORT_SUMMARY, { text: "lorem ipsum" }),
];

/** Selects `text` inside a message's body, as a user dragging over it would. */
async function selectText(message: Locator, text: string): Promise<void> {
  await message.evaluate((el, t) => {
    const body = el.querySelector(".message-body");
    if (!body) throw new Error("no message body");
    const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const at = (n.textContent ?? "").indexOf(t);
      if (at < 0) continue;
      n.parentElement?.scrollIntoView({ block: "center" });
      const range = document.createRange();
      range.setStart(n, at);
      range.setEnd(n, at + t.length);
      const selection = document.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      return;
    }
    throw new Error(`not in the message: ${t}`);
  }, text);
}

/** Pins `text` of `message` with the floating "Keep word for word" over the selection. */
async function pinPassage(page: Page, message: Locator, text: string, shot?: string): Promise<void> {
  await selectText(message, text);
  const button = page.getByRole("button", { name: "Keep word for word", exact: true });
  await expect(button).toBeVisible();
  if (shot) await page.screenshot({ path: shot });
  await button.click();
  await expect(message.getByRole("list", { name: "Pinned passages" })).toContainText(text);
}

/** The `sideUsage` of the chat's compaction entry, as stored. */
function compactionSideUsage(page: Page): Promise<unknown> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open("grove");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const rows = await new Promise<unknown[]>((resolve, reject) => {
      const req = db.transaction("entries", "readonly").objectStore("entries").getAll();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    db.close();
    const compaction = rows.find((r) => (r as { type?: string }).type === "compaction") as { sideUsage?: unknown };
    return compaction?.sideUsage ?? null;
  });
}

async function compactWithJunk(page: Page, mock: MockServer, count: number): Promise<void> {
  mock.enqueue("openai", ...junk());
  await compactFromHeader(page);
  await expect(compactDialog(page)).toBeHidden({ timeout: 15_000 });
  await expect
    .poll(async () => (await dbSnapshot(page)).entries.filter((e) => e.type === "compaction"))
    .toHaveLength(count);
}

test.describe("pins", () => {
  test("a pinned reply is carried word for word through two compactions by a junk summarizer", async ({
    page,
    mock,
  }) => {
    test.setTimeout(120_000);
    await openSmallWindow(page, mock, SMALL);
    const decision = "Decision: the cache key is sha256(tenant || path), TTL 93 minutes.";
    await exchange(page, mock, "(U1) How should we key the cache?", "(U1)", {
      text: `${decision} ${prose("(A1)", 300)}`,
    });
    const reply = messageWith(page, "assistant", "Decision: the cache key");
    await messageAction(reply, "Keep word for word");
    await expect(reply.getByText("kept word for word", { exact: true })).toBeVisible();

    await converse(page, mock, 2, 3);
    await compactWithJunk(page, mock, 1);
    await converse(page, mock, 4, 6);
    await compactWithJunk(page, mock, 2);

    mock.reset();
    await exchange(page, mock, "(U7) What was the TTL?", "(U7)", { text: "Of course." });
    const sent = sentText(conversationRequests(mock).at(-1));
    expect(sent).toContain(`${decision} ${prose("(A1)", 300)}`);
    expect(sent.indexOf(decision)).toBeLessThan(sent.indexOf("lorem ipsum"));

    // Listed on the card; the link scrolls to the pinned reply.
    await scrollChat(page, "bottom");
    const card = compactionCards(page).last();
    const pins = card.getByRole("region", { name: "Pinned messages" });
    await expect(pins).toContainText("Decision: the cache key");
    await page.screenshot({ path: "test-results/fidelity-pins-card.png" });
    await pins.getByRole("button").first().click();
    await expect(reply).toBeInViewport();
    await page.screenshot({ path: "test-results/fidelity-pinned-message.png" });

    // Removable: the next request no longer carries it.
    await messageAction(reply, "Stop keeping word for word");
    await expect(reply.getByText("kept word for word", { exact: true })).toHaveCount(0);
    mock.reset();
    await exchange(page, mock, "(U8) And now?", "(U8)", { text: "Fine." });
    expect(sentText(conversationRequests(mock).at(-1))).not.toContain(decision);
  });
});

test.describe("passages and the chat's info", () => {
  test("a selected passage is kept word for word: marked, carried verbatim above the summary, listed on the card and removable", async ({
    page,
    mock,
  }) => {
    test.setTimeout(120_000);
    await openSmallWindow(page, mock, SMALL);
    const passage = "the signing key rotates every 45 days";
    await exchange(page, mock, "(U1) How do keys rotate?", "(U1)", {
      text: `Some context first. In short, ${passage}; old keys verify for a week. ${prose("(A1)", 300)}`,
    });
    const reply = messageWith(page, "assistant", "Some context first");
    await pinPassage(page, reply, passage, "test-results/fidelity-passage-select.png");
    const pinned = reply.getByRole("list", { name: "Pinned passages" });
    await expect(pinned.getByText("kept word for word", { exact: true })).toBeVisible();
    // Only the passage: the message itself is not pinned.
    await expect(reply.locator(".message-meta").getByText("kept word for word", { exact: true })).toHaveCount(0);
    await page.evaluate(() => document.getSelection()?.removeAllRanges());
    await reply.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/fidelity-passage-pinned.png" });

    await converse(page, mock, 2, 3);
    await compactWithJunk(page, mock, 1);
    mock.reset();
    await exchange(page, mock, "(U4) Remind me of the keys", "(U4)", { text: "Sure." });
    const sent = sentText(conversationRequests(mock).at(-1));
    expect(sent).toContain(`<pinned_passage role="assistant">\n${passage}\n</pinned_passage>`);
    expect(sent).not.toContain("Some context first"); // the rest of the reply is folded
    expect(sent.indexOf(passage)).toBeLessThan(sent.indexOf("lorem ipsum"));

    // On the card, with a link to its message; removable there.
    await scrollChat(page, "bottom");
    const card = compactionCards(page).last();
    const pins = card.getByRole("region", { name: "Pinned messages" });
    await expect(pins).toContainText(`Passage: “${passage}”`);
    await card.screenshot({ path: "test-results/fidelity-passage-card.png" });
    await pins.getByRole("button", { name: `Passage: “${passage}”` }).click();
    await expect(reply).toBeInViewport();
    await scrollChat(page, "bottom");
    await compactionCards(page).last().getByRole("button", { name: "Stop keeping word for word" }).click();
    await expect(compactionCards(page).last().getByRole("region", { name: "Pinned messages" })).toHaveCount(0);
    mock.reset();
    await exchange(page, mock, "(U5) And now?", "(U5)", { text: "Fine." });
    expect(sentText(conversationRequests(mock).at(-1))).not.toContain(passage);
  });

  test("the chat's info lists the pins of the path with links to their messages; Stop keeping word for word removes one", async ({
    page,
    mock,
  }) => {
    test.setTimeout(120_000);
    await openSmallWindow(page, mock, SMALL);
    const decision = "Decision: the queue is partitioned by tenant, 12 partitions.";
    await exchange(page, mock, "(U1) How do we partition?", "(U1)", { text: `${decision} ${prose("(A1)", 200)}` });
    const passage = "retries back off to at most 90 seconds";
    await exchange(page, mock, "(U2) And retries?", "(U2)", {
      text: `For retries: ${passage}, then the job is parked. ${prose("(A2)", 200)}`,
    });
    await converse(page, mock, 3, 4);
    const first = messageWith(page, "assistant", "Decision: the queue");
    const second = messageWith(page, "assistant", "For retries:");
    await scrollChat(page, "top");
    await messageAction(first, "Keep word for word");
    await expect(first.getByText("kept word for word", { exact: true })).toBeVisible();
    await second.scrollIntoViewIfNeeded();
    await pinPassage(page, second, passage);
    await page.evaluate(() => document.getSelection()?.removeAllRanges());

    await scrollChat(page, "bottom");
    await chatAction(page, "Chat info");
    const info = page.getByRole("dialog", { name: "Chat info" });
    const pins = info.getByRole("list", { name: "Pins" });
    await expect(pins.getByRole("listitem")).toHaveCount(2);
    await expect(pins.getByRole("listitem").first()).toContainText("Assistant: Decision: the queue");
    await expect(pins.getByRole("listitem").last()).toContainText(`Passage (Assistant): “${passage}”`);
    await info.screenshot({ path: "test-results/fidelity-chat-info.png" });

    // The link closes the info and scrolls to the message.
    await pins.getByRole("button", { name: /^Assistant: Decision: the queue/ }).click();
    await expect(info).toBeHidden();
    await expect(first).toBeInViewport();

    await chatAction(page, "Chat info");
    await pins.getByRole("listitem").last().getByRole("button", { name: "Stop keeping word for word" }).click();
    await expect(pins.getByRole("listitem")).toHaveCount(1);
    await info.getByRole("button", { name: "Close" }).click();
    await second.scrollIntoViewIfNeeded();
    await expect(second.getByRole("list", { name: "Pinned passages" })).toHaveCount(0);
  });
});

test.describe("compaction spending", () => {
  test("what the summarizer reported shows per month apart from chat replies, in the chat's info and in Settings, after a reload", async ({
    page,
    mock,
  }) => {
    test.setTimeout(120_000);
    await openSmallWindow(page, mock, SMALL);
    await converse(page, mock, 1, 3);
    const usage = { input: 100_000, output: 1_000 }; // $0.26 at gpt-4o's price
    mock.enqueue(
      "openai",
      summarizerReply(FIRST_SUMMARY, { text: "lorem ipsum dolor sit amet", usage }),
      summarizerReply(UPDATE_SUMMARY, { text: "lorem ipsum dolor sit amet", usage }),
      summarizerReply(SHORT_SUMMARY, { text: "lorem ipsum", usage }),
    );
    await compactFromHeader(page);
    await expect(compactDialog(page)).toBeHidden({ timeout: 15_000 });
    await expect
      .poll(() => compactionSideUsage(page))
      .toEqual([{ model: "gpt-4o", usage: { input: 200_000, output: 2_000 } }]);

    await page.reload();
    await expect(compactionCards(page).last()).toBeAttached({ timeout: 15_000 });
    await chatAction(page, "Chat info");
    const info = page.getByRole("dialog", { name: "Chat info" });
    const table = info.getByRole("table", { name: "This chat's spending by month" });
    const month = table.getByRole("row", { name: /^This month/ });
    await expect(month.getByRole("cell").nth(1)).toHaveText("$0.520");
    await expect(month.getByRole("cell").nth(0)).toHaveText(/^\$0\.0\d+$/); // the three replies
    await info.screenshot({ path: "test-results/fidelity-chat-spending.png" });
    await info.getByRole("button", { name: "Close" }).click();

    await page.getByRole("button", { name: "Settings" }).click();
    const spending = page.getByRole("dialog", { name: "Settings" }).getByRole("region", { name: "Spending" });
    const all = spending.getByRole("table", { name: "Spending by month" }).getByRole("row", { name: /^This month/ });
    await expect(all.getByRole("cell").nth(1)).toHaveText("$0.520");
    await spending.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/fidelity-settings-spending.png" });
  });
});

test.describe("when and at what cost", () => {
  test("Compact above (tokens) persists; the Compact dialog shows the estimated cost before running", async ({
    page,
    mock,
  }) => {
    test.setTimeout(90_000);
    await openSmallWindow(page, mock, SMALL);
    await page.getByRole("button", { name: "Settings" }).click();
    const settings = page.getByRole("dialog", { name: "Settings" });
    const cap = settings.getByLabel("Compact above (tokens)", { exact: true });
    await cap.fill("1200");
    await cap.press("Enter");
    const auto = settings.getByRole("checkbox", { name: "Automatic compaction" });
    await auto.check();
    await expect(settings).toContainText("automatic compaction at 1,200 tokens (from Compact above)");
    await auto.uncheck();
    await settings.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Settings" }).click();
    await expect(settings.getByLabel("Compact above (tokens)", { exact: true })).toHaveValue("1200");
    await settings.getByRole("button", { name: "Close" }).click();

    await converse(page, mock, 1, 2);
    await chatAction(page, "Compact");
    const dialog = compactDialog(page);
    const estimate = dialog.getByRole("region", { name: "Estimated cost" });
    await expect(estimate).toContainText("Summary by gpt-4o");
    await expect(estimate).toContainText(/≈ \$/);
    await expect(estimate).toContainText(
      /Next request to gpt-4o: [\d.,]+k? tokens \(≈ \$[\d.]+\) now, about [\d.,]+k? \(≈ \$[\d.]+\) after/,
    );
    await page.screenshot({ path: "test-results/fidelity-compact-dialog.png" });
    expect(summarizerRequests(mock)).toHaveLength(0); // nothing ran by itself
    await dialog.getByRole("button", { name: "Cancel" }).click();
  });
});

test.describe("Check memory", () => {
  test("estimate first; the recall table links to the folded source; Keep this fact pins it and the next request carries it", async ({
    page,
    mock,
  }) => {
    test.setTimeout(120_000);
    await openSmallWindow(page, mock, SMALL);
    const fact = "The connection pool size is 40 per replica.";
    await exchange(page, mock, "(U1) Size the pool", "(U1)", { text: `${fact} ${prose("(A1)", 300)}` });
    await exchange(page, mock, "(U2) And the database?", "(U2)", {
      text: `We chose Postgres 16 for the ledger. ${prose("(A2)", 300)}`,
    });
    await converse(page, mock, 3, 4);
    await compactWithJunk(page, mock, 1);

    await scrollChat(page, "bottom");
    const card = compactionCards(page).last();
    await card.getByRole("button", { name: "Check memory" }).click();
    const panel = card.getByRole("region", { name: "Check memory" });
    await expect(panel).toContainText(/At most \d+ requests, about [\d,]+ tokens — ≈ \$/);
    // Nothing ran by itself: no probe was drafted.
    expect(chatRequests(mock, "openai").filter((r) => requestSystem(r).includes(PROBE_SYSTEM))).toHaveLength(0);

    mock.enqueue(
      "openai",
      {
        match: { system: PROBE_SYSTEM },
        text: JSON.stringify([
          { question: "How big is the connection pool?", span: "pool size is 40", source: 1 },
          { question: "Which database was chosen?", span: "Postgres 16", source: 2 },
        ]),
      },
      { match: { lastUser: "Question: How big is the connection pool?" }, text: "I don't know." },
      { match: { lastUser: "Question: Which database was chosen?" }, text: "You chose Postgres 16." },
      { match: { system: GRADE_SYSTEM }, text: "NO" },
    );
    await panel.getByRole("button", { name: "Run the check" }).click();
    await expect(panel).toContainText("1 of 2 recalled");
    const table = panel.getByRole("table", { name: "Memory check" });
    await expect(table.getByRole("row")).toHaveCount(3);
    await card.screenshot({ path: "test-results/fidelity-memory-check.png" });

    const lost = table.getByRole("row").filter({ hasText: "How big is the connection pool?" });
    await lost.getByRole("button", { name: "“pool size is 40”" }).click();
    await expect(messageWith(page, "assistant", fact)).toBeInViewport();
    await scrollChat(page, "bottom");
    await compactionCards(page).last().scrollIntoViewIfNeeded();
    await lost.getByRole("button", { name: "Keep this fact" }).click();
    await expect(lost).toContainText("kept");

    mock.reset();
    await exchange(page, mock, "(U9) Remind me of the pool", "(U9)", { text: "Sure." });
    const sent = sentText(conversationRequests(mock).at(-1));
    expect(sent).toContain(`${fact} ${prose("(A1)", 300)}`);
  });

  test("what a check cost shows as its own line in the chat's info and in Settings, counted once, still after a reload; a re-run adds", async ({
    page,
    mock,
  }) => {
    test.setTimeout(120_000);
    await openSmallWindow(page, mock, SMALL);
    await exchange(page, mock, "(U1) Size the pool", "(U1)", {
      text: `The connection pool size is 40 per replica. ${prose("(A1)", 300)}`,
    });
    await converse(page, mock, 2, 4);
    await compactWithJunk(page, mock, 1);

    const usage = { input: 100_000, output: 1_000 }; // $0.26 at gpt-4o's price
    const check = async (): Promise<Locator> => {
      mock.enqueue(
        "openai",
        {
          match: { system: PROBE_SYSTEM },
          text: JSON.stringify([{ question: "How big is the connection pool?", span: "pool size is 40", source: 1 }]),
          usage,
        },
        { match: { lastUser: "Question: How big is the connection pool?" }, text: "The pool size is 40.", usage },
      );
      await scrollChat(page, "bottom");
      const card = compactionCards(page).last();
      await card.getByRole("button", { name: "Check memory" }).click();
      const panel = card.getByRole("region", { name: "Check memory" });
      await panel.getByRole("button", { name: "Run the check" }).click();
      await expect(panel).toContainText("1 of 1 recalled");
      return panel;
    };
    /** This month's row of a spending table: [replies, compaction, memory checks]. */
    const thisMonth = (table: Locator) => table.getByRole("row", { name: /^This month/ }).getByRole("cell");
    const chatInfoMonth = async () => {
      await chatAction(page, "Chat info");
      const info = page.getByRole("dialog", { name: "Chat info" });
      const table = info.getByRole("table", { name: "This chat's spending by month" });
      await expect(table.getByRole("columnheader", { name: "Memory checks" })).toBeVisible();
      return { info, cells: thisMonth(table) };
    };

    const panel = await check();
    await expect(panel).toContainText("2 requests, ≈ $0.520");
    let { info, cells } = await chatInfoMonth();
    await expect(cells.nth(2)).toHaveText("$0.520");
    await expect(cells.nth(1)).not.toHaveText("$0.520"); // apart from compaction
    await info.screenshot({ path: "test-results/fidelity-chat-info-memory-check.png" });
    await info.getByRole("button", { name: "Close" }).click();

    // Stored: the same figure after a reload (the card shows no result any more: nothing re-runs).
    await page.reload();
    await expect(compactionCards(page).last()).toBeAttached({ timeout: 15_000 });
    ({ info, cells } = await chatInfoMonth());
    await expect(cells.nth(2)).toHaveText("$0.520");
    await info.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Settings" }).click();
    const spending = page.getByRole("dialog", { name: "Settings" }).getByRole("region", { name: "Spending" });
    await expect(thisMonth(spending.getByRole("table", { name: "Spending by month" })).nth(2)).toHaveText("$0.520");
    await spending.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/fidelity-settings-memory-check.png" });
    await page.getByRole("dialog", { name: "Settings" }).getByRole("button", { name: "Close" }).click();

    // A re-run is a new cost (after the reload, the panel starts closed again).
    await check();
    ({ info, cells } = await chatInfoMonth());
    await expect(cells.nth(2)).toHaveText("$1.04");
  });
});
