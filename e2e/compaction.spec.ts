/**
 * Manual compaction, end to end: the Compact dialog (instructions, progress, Cancel, the "nothing to
 * do" answers), the card at the cut with the folded history dimmed, "Compact up to here", and what
 * the model is sent afterwards — checked on the requests the mock recorded, against what the chat
 * shows as "summarized" / "kept in full".
 */
import type { Page } from "@playwright/test";
import { animationsDone, chatAction, messageAction, meter, meterBox, showAdvanced } from "./app";
import {
  cardTokens,
  compactDialog,
  compactFromHeader,
  compactionCards,
  conversationRequests,
  exactTokens,
  exchange,
  FIRST_SUMMARY,
  FRAMING,
  messageWith,
  openSmallWindow,
  prose,
  SHORT_SUMMARY,
  SPLIT_TURN,
  scrollChat,
  sentChars,
  sentText,
  summarizerReply,
  summarizerRequests,
  UPDATE_SUMMARY,
} from "./compaction-helpers";
import { dbSnapshot, expectHeld, reloadSession } from "./faults-helpers";
import { expect, type MockServer, test } from "./fixtures";
import { requestMessages } from "./mock-server/index";

const SMALL = { window: 16_000, maxOutput: 1_000, reserve: 2_000, keepRecent: 700, auto: false } as const;

/** `n` exchanges: user "(Ui) …" (userWords), assistant "(Ai) …" (replyWords). */
async function converse(page: Page, mock: MockServer, from: number, to: number, userWords = 40, replyWords = 350) {
  for (let i = from; i <= to; i++) {
    await exchange(page, mock, prose(`(U${i})`, userWords), `(U${i})`, { text: prose(`(A${i})`, replyWords) });
  }
}

test.describe("manual compaction", () => {
  test("with instructions: progress, the card at the cut, folded history dimmed, and a smaller next request", async ({
    page,
    mock,
  }) => {
    test.setTimeout(60_000);
    await openSmallWindow(page, mock, SMALL);
    await converse(page, mock, 1, 6);
    const beforeCompaction = conversationRequests(mock).at(-1);

    const instructions = "Keep every penguin count exact";
    mock.enqueue(
      "openai",
      summarizerReply(FIRST_SUMMARY, {
        chunks: [
          "## Standing facts & constraints\n\n- SUMMARY-7781: the user is planning a penguin census.\n",
          "\n## Goal\n\nCount the colony ",
          "before the storm season.\n",
        ],
        // Parked after its first part until released: the streaming state stays until seen.
        hold: { afterChunks: 1 },
      }),
      summarizerReply(SHORT_SUMMARY, { text: "Planning a penguin census before the storms" }),
    );
    const dialog = await compactFromHeader(page, instructions);
    // While it runs: the phase and the summary streaming in.
    await expectHeld(mock, "openai");
    await expect(dialog.getByRole("status")).toContainText(/Summarizing|Preparing/);
    await expect(dialog.getByRole("region", { name: "Summary so far" })).toContainText("SUMMARY-7781");
    mock.release("openai");
    await expect(dialog).toBeHidden({ timeout: 15_000 });

    // The instructions reached every summarizer call.
    const calls = summarizerRequests(mock);
    expect(calls).toHaveLength(2);
    for (const call of calls) expect(sentText(call)).toContain(instructions);

    const card = compactionCards(page);
    await expect(card).toHaveCount(1);
    await expect(card).toHaveAccessibleName(/^Compaction summary: Planning a penguin census/);
    await expect(card).toContainText("manual");
    await expect(card).toContainText(instructions);
    await expect(card).toContainText("gpt-4o");
    await expect(card).toContainText("SUMMARY-7781");
    const tokens = await cardTokens(card);
    expect(tokens.after).toBeLessThan(tokens.before);

    // The next request: framing + summary, smaller, and exactly the messages the chat shows as sent.
    await exchange(page, mock, "(U7) What should we do next?", "(U7)", { text: "Noted, carrying on." });
    const after = conversationRequests(mock).at(-1);
    expect(sentChars(after)).toBeLessThan(sentChars(beforeCompaction));
    const sent = sentText(after);
    expect(sent).toContain(FRAMING);
    expect(sent).toContain("SUMMARY-7781");

    await scrollChat(page, "top");
    let folded = 0;
    let kept = 0;
    for (let i = 1; i <= 6; i++) {
      for (const role of ["user", "assistant"] as const) {
        const mark = role === "user" ? `(U${i})` : `(A${i})`;
        const article = messageWith(page, role, mark);
        await article.scrollIntoViewIfNeeded();
        const text = prose(mark, role === "user" ? 40 : 350);
        if ((await article.getByText("summarized", { exact: true }).count()) > 0) {
          folded += 1;
          expect(sent, `${mark} is shown as not sent`).not.toContain(text);
        } else {
          if ((await article.getByText("kept in full", { exact: true }).count()) > 0) kept += 1;
          expect(sent, `${mark} is shown as sent`).toContain(text);
        }
      }
    }
    expect(folded).toBeGreaterThan(0);
    expect(kept).toBeGreaterThan(0);
    // The oldest reply was folded, the oldest user message kept word for word.
    await scrollChat(page, "top");
    await expect(messageWith(page, "assistant", "(A1)").getByText("summarized", { exact: true })).toBeVisible();
    await expect(messageWith(page, "user", "(U1)").getByText("kept in full", { exact: true })).toBeVisible();

    // It survives a reload.
    await reloadSession(page);
    await expect(compactionCards(page)).toHaveCount(1);
  });

  test("nothing to compact, and already compacted, are explained in the dialog (no error, no card)", async ({
    page,
    mock,
  }) => {
    await openSmallWindow(page, mock, { ...SMALL, keepRecent: 4_000 });
    await exchange(page, mock, "(U1) A short question", "(U1)", { text: "A short answer." });

    // Honest before acting (issue 27): with the meter's count in, the dialog says so before any
    // instructions are asked for.
    await exactTokens(page);
    await chatAction(page, "Compact");
    let dialog = compactDialog(page);
    await expect(dialog.getByRole("status")).toContainText("Nothing to compact yet");
    await expect(dialog).toContainText(/stay word for word/);
    await expect(dialog.getByRole("textbox", { name: "Instructions (optional)" })).toHaveCount(0);
    await expect(dialog.getByRole("alert")).toHaveCount(0);
    await dialog.locator(".dialog-actions").getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    expect(summarizerRequests(mock)).toHaveLength(0);
    await expect(compactionCards(page)).toHaveCount(0);

    // Fold what there is with "Compact up to here" on the reply, then ask again: already compacted.
    mock.enqueue(
      "openai",
      summarizerReply(FIRST_SUMMARY, { text: "## Standing facts & constraints\n\n- A short question was asked." }),
      summarizerReply(SHORT_SUMMARY, { text: "A short exchange" }),
    );
    await messageAction(messageWith(page, "assistant", "A short answer."), "Compact up to here");
    await compactDialog(page).getByRole("button", { name: "Compact now" }).click();
    await expect(compactDialog(page)).toBeHidden({ timeout: 15_000 });
    await expect(compactionCards(page)).toHaveCount(1);

    await exactTokens(page);
    await chatAction(page, "Compact");
    dialog = compactDialog(page);
    await expect(dialog.getByRole("status")).toContainText("Nothing to compact yet");
    await expect(dialog.getByRole("alert")).toHaveCount(0);
    await dialog.locator(".dialog-actions").getByRole("button", { name: "Close" }).click();
    expect(summarizerRequests(mock)).toHaveLength(2);
    await expect(compactionCards(page)).toHaveCount(1);
  });

  test("Cancel while the summary streams: the request is aborted, nothing is written, the next request is uncompacted", async ({
    page,
    mock,
  }) => {
    test.setTimeout(60_000);
    await openSmallWindow(page, mock, SMALL);
    await converse(page, mock, 1, 3);
    const snapshot = await dbSnapshot(page);

    mock.enqueue(
      "openai",
      summarizerReply(FIRST_SUMMARY, {
        chunks: ["## Standing facts & constraints\n\n- streaming in", " and never finishing"],
        fault: { kind: "hang", afterChunks: 1 },
      }),
    );
    const dialog = await compactFromHeader(page);
    await expect(dialog.getByRole("region", { name: "Summary so far" })).toContainText("streaming in");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(() => summarizerRequests(mock)[0]?.outcome).toBe("client_aborted");
    await expect(compactionCards(page)).toHaveCount(0);

    await reloadSession(page);
    expect(await dbSnapshot(page)).toEqual(snapshot);
    await expect(compactionCards(page)).toHaveCount(0);
    await expect(page.getByText("summarized", { exact: true })).toHaveCount(0);

    await exchange(page, mock, "(U4) Are you still there?", "(U4)", { text: "Still all here." });
    const sent = sentText(conversationRequests(mock).at(-1));
    expect(sent).not.toContain(FRAMING);
    for (let i = 1; i <= 3; i++) {
      expect(sent).toContain(prose(`(U${i})`, 40));
      expect(sent).toContain(prose(`(A${i})`, 350));
    }
    expect(summarizerRequests(mock)).toHaveLength(1);
  });

  test("Cancel before starting just closes the dialog", async ({ page, mock }) => {
    await openSmallWindow(page, mock, SMALL);
    await converse(page, mock, 1, 3);
    await exactTokens(page);
    await chatAction(page, "Compact");
    await compactDialog(page).getByRole("textbox", { name: "Instructions (optional)" }).fill("never used");
    await compactDialog(page).getByRole("button", { name: "Cancel" }).click();
    await expect(compactDialog(page)).toBeHidden();
    expect(summarizerRequests(mock)).toHaveLength(0);
  });

  test("Compact up to here: the card sits right after that message, and what follows it is sent word for word", async ({
    page,
    mock,
  }) => {
    test.setTimeout(60_000);
    // Keep-recent larger than the whole chat: an ordinary compaction would have nothing to fold.
    await openSmallWindow(page, mock, { ...SMALL, keepRecent: 4_000 });
    await converse(page, mock, 1, 4, 30, 350);
    mock.enqueue(
      "openai",
      summarizerReply(FIRST_SUMMARY, { text: "## Standing facts & constraints\n\n- UPTO-SUMMARY-42" }),
      summarizerReply(SHORT_SUMMARY, { text: "The first two exchanges" }),
    );
    await scrollChat(page, "top");
    await messageAction(messageWith(page, "assistant", "(A2)"), "Compact up to here");
    await expect(compactDialog(page)).toContainText("(A2)");
    await compactDialog(page).getByRole("button", { name: "Compact now" }).click();
    await expect(compactDialog(page)).toBeHidden({ timeout: 15_000 });
    await expect(compactionCards(page)).toHaveCount(1);

    // Rows in order: …, A2 (not sent), the card, U3 (sent), …
    await scrollChat(page, "top");
    const labels = await page
      .locator(".message-row > article")
      .evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
    const cardAt = labels.findIndex((l) => l.startsWith("Compaction summary"));
    expect(labels[cardAt - 1]).toMatch(/^Assistant message: \(A2\)/);
    expect(labels[cardAt + 1]).toMatch(/^User message: \(U3\)/);
    await expect(messageWith(page, "assistant", "(A2)").getByText("summarized", { exact: true })).toBeVisible();
    await expect(messageWith(page, "user", "(U3)").getByText("summarized", { exact: true })).toHaveCount(0);

    await exchange(page, mock, "(U5) next", "(U5)", { text: "Go on." });
    const req = conversationRequests(mock).at(-1);
    if (!req) throw new Error("no request after the compaction");
    const sent = sentText(req);
    expect(sent).toContain("UPTO-SUMMARY-42");
    expect(sent).not.toContain(prose("(A1)", 350));
    expect(sent).not.toContain(prose("(A2)", 350));
    // …except the end of the last folded reply, the verbatim tail anchor in the summary.
    expect(sent).toMatch(/<verbatim_tail>\n\[\.\.\.truncated\][\s\S]*<\/verbatim_tail>/);
    expect(sent).toContain(`${prose("(A2)", 350).slice(-300)}\n</verbatim_tail>`);
    expect(sent).toContain(prose("(U3)", 30));
    expect(sent).toContain(prose("(A3)", 350));
    expect(sent).toContain(prose("(A4)", 350));
    // The folded user turns come back verbatim inside the summary message, before the kept region.
    const first = requestMessages(req).find((m) => m.role === "user");
    expect(first?.text).toContain(FRAMING);
    expect(first?.text).toContain(prose("(U1)", 30));
  });

  test("a fact stated early survives two compactions by a summarizer that writes junk", async ({ page, mock }) => {
    test.setTimeout(90_000);
    await openSmallWindow(page, mock, { ...SMALL, keepRecent: 500 });
    const fact = "My cat's name is Zanzibar-7";
    await exchange(page, mock, `(U1) ${fact}. Remember it.`, "(U1)", { text: prose("(A1)", 350) });
    await converse(page, mock, 2, 3);

    const junk = () => [
      summarizerReply(FIRST_SUMMARY, { text: "lorem ipsum dolor sit amet" }),
      summarizerReply(UPDATE_SUMMARY, { text: "lorem ipsum dolor sit amet" }),
      summarizerReply(SHORT_SUMMARY, { text: "lorem ipsum" }),
    ];
    mock.enqueue("openai", ...junk());
    await compactFromHeader(page);
    await expect(compactDialog(page)).toBeHidden({ timeout: 15_000 });
    await expect(compactionCards(page)).toHaveCount(1);

    await converse(page, mock, 4, 6);
    mock.reset();
    mock.enqueue("openai", ...junk());
    await compactFromHeader(page);
    await expect(compactDialog(page)).toBeHidden({ timeout: 15_000 });
    await expect
      .poll(async () => (await dbSnapshot(page)).entries.filter((e) => e.type === "compaction"))
      .toHaveLength(2);
    // The second call updated the first (junk) summary instead of starting over.
    expect(summarizerRequests(mock).some((r) => sentText(r).includes("<previous-summary>"))).toBe(true);

    await exchange(page, mock, "(U7) What is my cat called?", "(U7)", { text: "Of course." });
    const sent = sentText(conversationRequests(mock).at(-1));
    expect(sent).toContain(fact);
    expect(sent).toContain("lorem ipsum");
    expect(sent.split(FRAMING)).toHaveLength(2); // one framing, not one per compaction
    await scrollChat(page, "top");
    await expect(messageWith(page, "user", fact).getByText("kept in full", { exact: true })).toBeVisible();
    // Only the latest card counts; the earlier one (further up) says so.
    await expect(compactionCards(page).first()).toContainText("superseded");
    await scrollChat(page, "bottom");
    await expect(compactionCards(page).last()).not.toContainText("superseded");
  });

  test("Settings › Compaction: values persist, and the summary model writes the summaries", async ({ page, mock }) => {
    test.setTimeout(60_000);
    await openSmallWindow(page, mock, SMALL);
    await page.getByRole("button", { name: "Settings" }).click();
    let dialog = page.getByRole("dialog", { name: "Settings" });
    await expect(dialog.getByLabel("Threshold percent", { exact: true })).toHaveValue("0");
    await expect(dialog.getByLabel("Kept user turn max tokens", { exact: true })).toHaveValue("1500");
    await expect(dialog.getByLabel("Kept user turns budget", { exact: true })).toHaveValue("");
    await expect(dialog.getByRole("combobox", { name: "Summary model" })).toHaveValue("");
    await dialog.getByRole("combobox", { name: "Summary model" }).selectOption("openai::gpt-4o-mini");
    await showAdvanced(dialog);
    await dialog.getByLabel("Kept user turns budget", { exact: true }).fill("3000");
    await dialog.getByLabel("Threshold percent", { exact: true }).fill("70");
    // The effective numbers for the model in use are spelled out (Threshold tokens is 0: the percent rules).
    await dialog.getByLabel("Kept user turn max tokens", { exact: true }).focus();
    await expect(dialog).toContainText("automatic compaction is off");
    await dialog.getByRole("checkbox", { name: "Automatic compaction" }).check();
    await expect(dialog).toContainText("automatic compaction at 11,200 tokens (from Threshold percent)");
    await page.screenshot({ path: "test-results/e2e-artifacts/compaction-settings.png" });
    await dialog.getByRole("button", { name: "Close" }).click();

    await page.reload();
    await page.getByRole("button", { name: "Settings" }).click();
    dialog = page.getByRole("dialog", { name: "Settings" });
    await expect(dialog.getByLabel("Keep recent tokens", { exact: true })).toHaveValue("700");
    await expect(dialog.getByLabel("Kept user turns budget", { exact: true })).toHaveValue("3000");
    await expect(dialog.getByLabel("Threshold percent", { exact: true })).toHaveValue("70");
    await expect(dialog.getByRole("combobox", { name: "Summary model" })).toHaveValue("openai::gpt-4o-mini");
    await expect(dialog.getByRole("checkbox", { name: "Automatic compaction" })).toBeChecked();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(meter(page)).toHaveAttribute("high", "11200");

    await converse(page, mock, 1, 3);
    mock.enqueue(
      "openai",
      summarizerReply(FIRST_SUMMARY, { text: "## Standing facts & constraints\n\n- MINI-SUMMARY" }),
      summarizerReply(SHORT_SUMMARY, { text: "Written by the small model" }),
    );
    await compactFromHeader(page);
    await expect(compactDialog(page)).toBeHidden({ timeout: 15_000 });
    await expect(compactionCards(page)).toContainText("by gpt-4o-mini");
    const models = summarizerRequests(mock).map((r) => (r.body as { model: string }).model);
    expect(models).toEqual(["gpt-4o-mini", "gpt-4o-mini"]);
    expect(conversationRequests(mock).map((r) => (r.body as { model: string }).model)).toEqual([
      "gpt-4o",
      "gpt-4o",
      "gpt-4o",
    ]);
  });

  test("screenshots: a compacted chat at desktop and phone width", async ({ page, mock }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width: 1280, height: 860 });
    // Automatic compaction on (so the meter marks its threshold), far from triggering.
    await openSmallWindow(page, mock, {
      window: 8_000,
      maxOutput: 1_000,
      reserve: 2_000,
      keepRecent: 60,
      thresholdTokens: 6_000,
    });
    for (const [question, answer, shown] of PENGUIN_CHAT) {
      await exchange(page, mock, question, question.slice(0, 30), { text: answer }, shown);
    }
    mock.enqueue(
      "openai",
      summarizerReply(FIRST_SUMMARY, { text: PENGUIN_SUMMARY }),
      summarizerReply(SPLIT_TURN, { text: "## Turn in progress\n\nThe user asked for the ground-count costs." }),
      summarizerReply(SHORT_SUMMARY, { text: "Falklands penguin census: five-week plan, drone budget £6,400" }),
    );
    await compactFromHeader(page, "Keep all the money figures");
    await expect(compactDialog(page)).toBeHidden({ timeout: 15_000 });
    await exchange(
      page,
      mock,
      "So what's the total so far?",
      "So what's the total",
      {
        text: "About **£9,500** so far — £6,400 for the drones and £3,100 for the ground counts — which leaves £8,500 of the £18,000 for contingency and travel.",
      },
      "so far — £6,400 for the drones",
    );
    await expect(meterBox(page)).toHaveAttribute("data-count", "current");

    // Desktop: the dimmed, folded history above the card at the cut.
    const card = compactionCards(page);
    await card.evaluate((el) => el.scrollIntoView({ block: "end" }));
    await page.mouse.move(0, 0);
    await page.screenshot({ path: "test-results/e2e-artifacts/compaction-desktop.png" });
    await card.evaluate((el) => el.scrollIntoView({ block: "start" }));
    await page.screenshot({ path: "test-results/e2e-artifacts/compaction-desktop-card.png" });

    await page.setViewportSize({ width: 390, height: 844 });
    await animationsDone(page); // the session drawer slides away at this width
    await card.evaluate((el) => el.scrollIntoView({ block: "end" }));
    await page.screenshot({ path: "test-results/e2e-artifacts/compaction-phone.png" });
    await chatAction(page, "Compact");
    await page.screenshot({ path: "test-results/e2e-artifacts/compaction-phone-dialog.png" });
    await compactDialog(page).getByRole("button", { name: "Cancel" }).click();
    await expect(compactDialog(page)).toBeHidden();
  });
});

const PENGUIN_SUMMARY = `## Standing facts & constraints

- Penguin census on the Falklands next season.
- Budget £18,000; a team of four.
- Drone flights only on days with wind under 20 knots.

## Goal

A survey plan and a budget for the census.

## Progress

- Done: a five-week plan (drones for the large rookeries, ground counts for the small colonies); drone costs estimated at £6,400.
- In progress: costing the ground counts.

## Next steps

1. Finish the ground-count budget.
2. Check the total against £18,000.`;

/** Question, answer (Markdown), and a phrase of the answer as rendered. */
const PENGUIN_CHAT: Array<[string, string, string]> = [
  [
    "I'm planning a penguin census on the Falklands for next season. My budget is £18,000 and the team is four people.",
    `Great project. For a colony survey on that budget I'd plan around **drone photogrammetry** for the big rookeries and ground counts for the small ones.

1. Map the colonies from last season's survey, and mark which ones are too small to be worth a flight.
2. Book the drone permits early — they take about six weeks, and the window for the breeding season is short.
3. Split the team into two pairs so ground counts and flights can run in parallel.

Drone counts are usually within a few percent of careful ground counts for gentoo and rockhopper colonies, and they disturb the birds far less if you keep the flying height above 50 m. The main risk is weather: wind grounds small drones quickly, so the plan needs spare days.

For the counts themselves, fly a lawnmower pattern at 60–70% image overlap and count from the stitched orthomosaic afterwards, not from single frames: birds at the image edges are otherwise counted twice. Free tools such as OpenDroneMap handle the stitching on a laptop overnight, and a second person should recount a random tenth of the tiles so you can report a counting error alongside the totals.

Want me to draft a week-by-week plan?`,
    "drone photogrammetry",
  ],
  [
    "Yes please. We can only fly on days with wind under 20 knots.",
    `Here is a draft plan that respects the wind limit:

| Week | Work |
| --- | --- |
| 1 | Arrival, kit checks, test flights over a small colony |
| 2–3 | Volunteer Point and Bertha's Beach rookeries |
| 4 | Buffer for bad-weather days |
| 5 | Ground counts of the small colonies, data checks |

On the Falklands, wind under 20 knots is likely on roughly half of the days in November, so two weeks of flying need about four weeks on the calendar. I put the buffer in week 4 so that a windy fortnight does not eat into the ground counts.

Two practical notes. First, keep the flights to the morning: the wind usually rises after midday on the east coast, and the light is kinder for the cameras before ten. Second, plan each rookery as two short missions rather than one long one, so a sudden gust costs you half a colony, not all of it, and the batteries stay inside their safe temperature range.`,
    "a draft plan that respects",
  ],
  [
    "Good. Can you estimate the cost of the drone part?",
    `Roughly **£6,400** all in:

- two survey drones with mapping cameras: £4,200
- spare batteries and a field charger: £900
- insurance for the season: £650
- permit fees: £650

If you can borrow one drone from the university, that drops to about £4,300.`,
    "two survey drones",
  ],
  [
    "And the ground counts?",
    `About **£3,100**: £1,800 for transport between the settlements, £900 for the field camp, and £400 for clickers, GPS units and waterproof notebooks. The small colonies are mostly reachable by Land Rover, so boat charters should not be needed.`,
    "for transport between",
  ],
];
