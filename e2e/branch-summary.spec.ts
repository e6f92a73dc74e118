/**
 * Rewind and branch summaries (DESIGN §5), end to end against the mock: the "Rewind"
 * dialog (No summary / Summarize / Summarize with instructions, Remember my choice), the summary
 * streaming in with Cancel, the card with its way back to the abandoned branch, a user message's
 * text going back into the composer, and what the next chat request carries — read from the
 * requests the mock recorded.
 */
import type { Locator, Page } from "@playwright/test";
import { chatRequests, messageAction, moreActions, openConfigured, send, userMessages, waitIdle } from "./app";
import { turns, user } from "./branching-helpers";
import { chatReply, conversationRequests, exchange, MODEL, messageWith, sentText } from "./compaction-helpers";
import { dbSnapshot, expectHeld, reloadSession } from "./faults-helpers";
import { expect, type MockServer, type RecordedRequest, type ReplyScript, test } from "./fixtures";
import { requestSystem } from "./mock-server/index";

/** First words of prompts/branch-summary-system.md: every branch summarizer call carries it. */
const BRANCH_SYSTEM = "You write summaries of conversation branches";
/** prompts/branch-summary-preamble.md, the start of every stored branch summary. */
const PREAMBLE = "The user explored a different branch of this conversation, then came back here.";
/** prompts/branch-summary-context.md: how the chat model is told about it. */
const CONTEXT_FRAMING = "The user explored another branch of this conversation and then came back to this point.";

const isBranchSummarizer = (r: RecordedRequest) => requestSystem(r).includes(BRANCH_SYSTEM);
const branchSummarizerRequests = (mock: MockServer) => chatRequests(mock, "openai").filter(isBranchSummarizer);
/** Chat requests of the conversation (summarizer calls left out). */
const chatTurns = (mock: MockServer) => conversationRequests(mock).filter((r) => !isBranchSummarizer(r));

const summarizer = (script: ReplyScript): ReplyScript => ({ ...script, match: { system: BRANCH_SYSTEM } });

const switchDialog = (page: Page): Locator => page.getByRole("dialog", { name: "Rewind" });
const summaryCards = (page: Page): Locator => page.getByRole("article", { name: /^Branch summary/ });

/** Three exchanges: "(Q1) …" / "(A1) …" … */
async function threeTurns(page: Page, mock: MockServer): Promise<void> {
  await openConfigured(page, mock, { model: MODEL });
  await exchange(page, mock, "(Q1) Plan a penguin census", "(Q1)", { text: "(A1) Count them at dawn." });
  await exchange(page, mock, "(Q2) Try counting by drone", "(Q2)", { text: "(A2) Drones scare the colony." });
  await exchange(page, mock, "(Q3) What about infrared?", "(Q3)", { text: "(A3) Infrared works at night." });
}

async function switchAt(msg: Locator): Promise<void> {
  await messageAction(msg, "Rewind to here…");
}

test("Switch here with a summary: progress, the card, the next request carries it, and the way back", async ({
  page,
  mock,
}) => {
  test.setTimeout(60_000);
  await threeTurns(page, mock);
  // One verb for going back: at the leaf Rewind is there but has nothing to do; the old verbs are gone.
  const leafMenu = await moreActions(messageWith(page, "assistant", "(A3)"));
  await expect(leafMenu.getByRole("menuitem", { name: "Rewind to here…" })).toBeDisabled();
  await expect(leafMenu.getByRole("menuitem", { name: "Branch from here" })).toHaveCount(0);
  await expect(leafMenu.getByRole("menuitem", { name: "Switch here" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(leafMenu).toBeHidden();

  await switchAt(messageWith(page, "assistant", "(A1)"));
  const dialog = switchDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("4 messages");
  await expect(dialog.getByRole("button", { name: "No summary" })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Summarize", exact: true })).toBeVisible();
  await expect(dialog.getByRole("checkbox", { name: "Remember my choice" })).not.toBeChecked();
  await page.screenshot({ path: "test-results/e2e-artifacts/switch-branch-dialog.png" });

  // With instructions: they replace the default prompt.
  await dialog.getByRole("button", { name: "Summarize with instructions" }).click();
  const instructions = "Record only which counting methods failed";
  await dialog.getByRole("textbox", { name: "Summary instructions" }).fill(instructions);
  mock.enqueue(
    "openai",
    summarizer({
      chunks: ["## Tried\n\n- BRANCH-4242: drones ", "scared the colony; ", "infrared worked at night.\n"],
      // Parked after its first part until released: the streaming state stays until seen.
      hold: { afterChunks: 1 },
    }),
  );
  await dialog.getByRole("button", { name: "Summarize", exact: true }).click();
  await expectHeld(mock, "openai");
  await expect(dialog.getByRole("status")).toContainText(/Summarizing|Preparing/);
  await expect(dialog.getByRole("region", { name: "Summary so far" })).toContainText("BRANCH-4242");
  mock.release("openai");
  await expect(dialog).toBeHidden({ timeout: 15_000 });

  // The summarizer got the abandoned branch (Q2…A3) and the instructions, not the kept part.
  const calls = branchSummarizerRequests(mock);
  expect(calls).toHaveLength(1);
  const asked = sentText(calls[0]);
  expect(asked).toContain(instructions);
  for (const mark of ["(Q2)", "(A2)", "(Q3)", "(A3)"]) expect(asked).toContain(mark);
  expect(asked).not.toContain("(Q1)");

  // The card: the summary, where it came from, a way back.
  const card = summaryCards(page);
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("BRANCH-4242");
  await expect(card).toContainText("(A3) Infrared works at night.");
  await expect(card).toContainText(instructions);
  await expect(messageWith(page, "assistant", "(A2)")).toHaveCount(0);
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: "test-results/e2e-artifacts/branch-summary-card.png" });

  // The next chat request: the kept part, then the summary as user context; the abandoned branch is gone.
  await exchange(page, mock, "(Q4) So, dawn it is?", "(Q4)", { text: "(A4) Yes, at dawn." });
  const next = chatTurns(mock).at(-1);
  const sent = turns(next);
  expect(sent[0]).toEqual(user("(Q1) Plan a penguin census"));
  expect(sent[1]?.text).toBe("(A1) Count them at dawn.");
  const rest = sent.slice(2);
  expect(rest.every((t) => t.role === "user")).toBe(true);
  const context = rest.map((t) => t.text).join("\n");
  expect(context).toContain(CONTEXT_FRAMING);
  expect(context).toContain(PREAMBLE);
  expect(context).toContain("BRANCH-4242: drones scared the colony; infrared worked at night.");
  expect(context).toContain("(Q4) So, dawn it is?");
  const all = sentText(next);
  for (const mark of ["(Q2)", "(A2)", "(Q3)", "(A3)"]) expect(all).not.toContain(mark);

  // Back to that branch: the leaf returns to where the branch was left.
  await card.getByRole("button", { name: "Back to that branch" }).click();
  await expect(messageWith(page, "assistant", "(A3) Infrared works at night.")).toBeVisible();
  await expect(messageWith(page, "assistant", "(A2) Drones scare the colony.")).toBeVisible();
  await expect(messageWith(page, "user", "(Q4)")).toHaveCount(0);
  await expect(summaryCards(page)).toHaveCount(0);
  await reloadSession(page);
  await expect(messageWith(page, "assistant", "(A3) Infrared works at night.")).toBeVisible();
});

test("Switch here on a user message: its text goes back into the composer, the position is its parent", async ({
  page,
  mock,
}) => {
  await threeTurns(page, mock);
  await switchAt(messageWith(page, "user", "(Q2)"));
  const dialog = switchDialog(page);
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "No summary" }).click();
  await expect(dialog).toBeHidden();

  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("(Q2) Try counting by drone");
  await expect(messageWith(page, "assistant", "(A1) Count them at dawn.")).toBeVisible();
  await expect(messageWith(page, "user", "(Q2)")).toHaveCount(0);
  await expect(messageWith(page, "assistant", "(A3)")).toHaveCount(0);
  expect(branchSummarizerRequests(mock)).toHaveLength(0);

  // Sent again (edited): it continues from Q2's parent, A1.
  mock.enqueue("openai", chatReply("(Q2b)", { text: "(A2b) Use binoculars instead." }));
  await send(page, "(Q2b) Try counting with binoculars");
  await expect(messageWith(page, "assistant", "(A2b)")).toBeVisible({ timeout: 15_000 });
  await waitIdle(page);
  expect(turns(chatTurns(mock).at(-1)).map((t) => t.text)).toEqual([
    "(Q1) Plan a penguin census",
    "(A1) Count them at dawn.",
    "(Q2b) Try counting with binoculars",
  ]);
});

test("Cancel while the summary is written: nothing is written, the leaf stays (also after a reload)", async ({
  page,
  mock,
}) => {
  test.setTimeout(60_000);
  await threeTurns(page, mock);
  const before = await dbSnapshot(page);

  mock.enqueue(
    "openai",
    summarizer({ chunks: ["## Tried\n\n- NEVER-SAVED ", "more"], fault: { kind: "hang", afterChunks: 1 } }),
  );
  await switchAt(messageWith(page, "assistant", "(A1)"));
  const dialog = switchDialog(page);
  await dialog.getByRole("button", { name: "Summarize", exact: true }).click();
  await expect(dialog.getByRole("region", { name: "Summary so far" })).toContainText("NEVER-SAVED");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => branchSummarizerRequests(mock)[0]?.outcome).toBe("client_aborted");

  await expect(messageWith(page, "assistant", "(A3) Infrared works at night.")).toBeVisible();
  await expect(summaryCards(page)).toHaveCount(0);
  expect(await dbSnapshot(page)).toEqual(before);

  // Esc cancels too.
  mock.enqueue(
    "openai",
    summarizer({ chunks: ["## Tried\n\n- ALSO-NEVER ", "more"], fault: { kind: "hang", afterChunks: 1 } }),
  );
  await switchAt(messageWith(page, "assistant", "(A1)"));
  await switchDialog(page).getByRole("button", { name: "Summarize", exact: true }).click();
  await expect(switchDialog(page).getByRole("region", { name: "Summary so far" })).toContainText("ALSO-NEVER");
  await page.keyboard.press("Escape");
  await expect(switchDialog(page)).toBeHidden();
  await expect.poll(() => branchSummarizerRequests(mock)[1]?.outcome).toBe("client_aborted");

  await reloadSession(page);
  await expect(messageWith(page, "assistant", "(A3) Infrared works at night.")).toBeVisible();
  await expect(summaryCards(page)).toHaveCount(0);
  await expect(userMessages(page)).toHaveCount(3);
  expect(await dbSnapshot(page)).toEqual(before);
});

test("Remember my choice: the next Switch here does not ask; Settings changes it back to Ask", async ({
  page,
  mock,
}) => {
  await threeTurns(page, mock);
  await switchAt(messageWith(page, "assistant", "(A2)"));
  const dialog = switchDialog(page);
  await dialog.getByRole("checkbox", { name: "Remember my choice" }).check();
  await dialog.getByRole("button", { name: "No summary" }).click();
  await expect(dialog).toBeHidden();
  await expect(messageWith(page, "assistant", "(A3)")).toHaveCount(0);

  // No dialog this time: the switch happens at once, without a summary.
  await switchAt(messageWith(page, "assistant", "(A1)"));
  await expect(messageWith(page, "assistant", "(A2)")).toHaveCount(0);
  await expect(switchDialog(page)).toHaveCount(0);
  expect(branchSummarizerRequests(mock)).toHaveLength(0);

  // The default shows in Settings, and survives a reload.
  await reloadSession(page);
  await page.getByRole("button", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  const select = settings.getByRole("combobox", { name: "Summary when switching branches" });
  await expect(select).toHaveValue("none");
  await select.selectOption({ label: "Ask" });
  await settings.getByRole("button", { name: "Close" }).click();

  // Back to asking: a new branch under A1, then Switch here on A1 asks again.
  await exchange(page, mock, "(Q5) Another idea", "(Q5)", { text: "(A5) Count from a boat." });
  await switchAt(messageWith(page, "assistant", "(A1)"));
  await expect(switchDialog(page)).toBeVisible();
});
