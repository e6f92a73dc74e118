/**
 * Compaction fidelity (issue 29), end to end against the mock: pins ("Keep word for word") carried
 * verbatim through later compactions, as the requests the mock recorded show.
 */
import type { Page } from "@playwright/test";
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
});
