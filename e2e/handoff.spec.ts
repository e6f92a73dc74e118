/**
 * Handoff (DESIGN §5), end to end against the mock: the "Handoff" dialog (focus, the document
 * streaming in, Cancel, editing the draft, "Start new session"), the request that writes the
 * document (the chat's context plus exactly one user message), the new session starting from the
 * edited document, the links between the two sessions, and the automatic strategy.
 */
import type { Locator, Page } from "@playwright/test";
import { chatAction, chatRequests, openConfigured, send, waitIdle } from "./app";
import { assistant, sessionIdOf, systemOf, turns } from "./branching-helpers";
import { chatReply, exchange, MODEL, messageWith, openWithAutoHandoff, prose, sentText } from "./compaction-helpers";
import { dbSnapshot, expectHeld } from "./faults-helpers";
import { expect, type MockServer, type RecordedRequest, type ReplyScript, test } from "./fixtures";
import { lastUserText } from "./mock-server/index";

/** The first sentence of prompts/handoff-document.md: the one extra user message of the handoff request. */
const HANDOFF_PROMPT = "this conversation is being handed off to a fresh session";
/** prompts/handoff-context.md: how the new session's model gets the document. */
const HANDOFF_FRAMING = "This session continues work from an earlier session.";

const isHandoffCall = (r: RecordedRequest) => lastUserText(r).includes(HANDOFF_PROMPT);
const handoffCalls = (mock: MockServer) => chatRequests(mock, "openai").filter(isHandoffCall);
const chatCalls = (mock: MockServer) => chatRequests(mock, "openai").filter((r) => !isHandoffCall(r));

const writer = (script: ReplyScript): ReplyScript => ({ ...script, match: { lastUser: HANDOFF_PROMPT } });

const handoffDialog = (page: Page): Locator => page.getByRole("dialog", { name: "Handoff" });
const handoffCards = (page: Page): Locator => page.getByRole("article", { name: /^Handoff/ });

const DOCUMENT = ["## Goal\n\nCount the penguin colony. HANDOFF-DOC-77\n", "\n## Next steps\n\n1. Count at dawn.\n"];

async function twoTurns(page: Page, mock: MockServer): Promise<void> {
  await openConfigured(page, mock, { model: MODEL });
  await exchange(page, mock, "(Q1) Plan a penguin census", "(Q1)", { text: "(A1) Count them at dawn." });
  await exchange(page, mock, "(Q2) Which beach first?", "(Q2)", { text: "(A2) Start with the north beach." });
}

test("Handoff: the draft from the chat's context plus one message, edited, starts a linked new session", async ({
  page,
  mock,
}) => {
  test.setTimeout(60_000);
  await twoTurns(page, mock);
  const oldId = sessionIdOf(page);
  const lastChat = chatCalls(mock).at(-1);

  await chatAction(page, "Handoff");
  const dialog = handoffDialog(page);
  await expect(dialog).toBeVisible();
  const focus = "Focus on the north beach count";
  await dialog.getByRole("textbox", { name: "Handoff focus (optional)" }).fill(focus);
  await page.screenshot({ path: "test-results/e2e-artifacts/handoff-dialog.png" });

  // The mock parks the document after its first part until released: the dialog's streaming state
  // stays on screen until the test has seen it, however slow the machine is.
  mock.enqueue("openai", writer({ chunks: DOCUMENT, hold: { afterChunks: 1 } }));
  await dialog.getByRole("button", { name: "Write handoff document" }).click();
  await expectHeld(mock, "openai");
  await expect(dialog.getByRole("status")).toContainText(/Writing|Preparing/);
  await expect(dialog.getByRole("region", { name: "Document so far" })).toContainText("HANDOFF-DOC-77");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeVisible();
  mock.release("openai");

  const draft = dialog.getByRole("textbox", { name: "Handoff document" });
  await expect(draft).toHaveValue(/HANDOFF-DOC-77/, { timeout: 15_000 });
  await expect(draft).toHaveValue(/Count at dawn/);
  await page.screenshot({ path: "test-results/e2e-artifacts/handoff-draft.png" });

  // The request: exactly the chat's context as the chat sends it (same system prompt, same
  // messages, the last reply included), plus one user message with the handoff prompt and the focus.
  const calls = handoffCalls(mock);
  expect(calls).toHaveLength(1);
  const call = calls[0];
  expect(systemOf(call)).toBe(systemOf(lastChat));
  const sent = turns(call);
  expect(sent.slice(0, -1)).toEqual([...turns(lastChat), assistant("(A2) Start with the north beach.")]);
  expect(sent).toHaveLength(turns(lastChat).length + 2);
  expect(sent.at(-1)?.role).toBe("user");
  expect(sent.at(-1)?.text).toContain(HANDOFF_PROMPT);
  expect(sent.at(-1)?.text).toContain(focus);

  // Edit, then start the new session.
  await draft.fill("## Goal\n\nEDITED-DOC-91: count the north beach first.\n\n## Next steps\n\n1. Go at dawn.");
  await dialog.getByRole("button", { name: "Start new session" }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => sessionIdOf(page)).not.toBe(oldId);
  const newId = sessionIdOf(page);

  const card = handoffCards(page);
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("EDITED-DOC-91");
  await expect(card).not.toContainText("HANDOFF-DOC-77");
  await expect(page.getByRole("heading", { name: /\(part 2\)/ })).toBeVisible();
  const back = page.getByRole("link", { name: /^Continued from / });
  await expect(back).toHaveText("Continued from (Q1) Plan a penguin census");
  await card.screenshot({ path: "test-results/e2e-artifacts/handoff-card.png" });

  // The new session's first request starts from the edited document, none of the old chat.
  mock.enqueue("openai", chatReply("(N1)", { text: "(B1) Heading to the north beach." }));
  await send(page, "(N1) Let's go");
  await expect(messageWith(page, "assistant", "(B1)")).toBeVisible({ timeout: 15_000 });
  await waitIdle(page);
  const first = chatCalls(mock).at(-1);
  const firstText = sentText(first);
  expect(firstText).toContain(HANDOFF_FRAMING);
  expect(firstText).toContain("EDITED-DOC-91: count the north beach first.");
  expect(firstText).not.toContain("HANDOFF-DOC-77");
  expect(firstText).not.toContain("(Q1)");
  expect(firstText).not.toContain("(A2)");
  expect(turns(first).every((t) => t.role === "user")).toBe(true);
  expect(turns(first).at(-1)?.text).toContain("(N1) Let's go");

  // After a reload both links are there, and both navigate.
  await page.reload();
  await expect(page.getByRole("link", { name: /^Continued from / })).toBeVisible({ timeout: 10_000 });
  await page.getByRole("link", { name: /^Continued from / }).click();
  await expect.poll(() => sessionIdOf(page)).toBe(oldId);
  await expect(messageWith(page, "assistant", "(A2) Start with the north beach.")).toBeVisible();
  const forward = page.getByRole("link", { name: /^Handed off to / });
  await expect(forward).toHaveText("Handed off to (Q1) Plan a penguin census (part 2)");
  // The old session is untouched.
  await expect(handoffCards(page)).toHaveCount(0);
  await forward.click();
  await expect.poll(() => sessionIdOf(page)).toBe(newId);
  await expect(handoffCards(page)).toContainText("EDITED-DOC-91");
  await expect(messageWith(page, "assistant", "(B1)")).toBeVisible();
});

test("Cancel while the document is written: nothing is written, no new session", async ({ page, mock }) => {
  await twoTurns(page, mock);
  const oldId = sessionIdOf(page);
  const before = await dbSnapshot(page);
  mock.enqueue(
    "openai",
    writer({ chunks: ["## Goal\n\nNEVER-SAVED ", "more"], fault: { kind: "hang", afterChunks: 1 } }),
  );
  await chatAction(page, "Handoff");
  const dialog = handoffDialog(page);
  await dialog.getByRole("button", { name: "Write handoff document" }).click();
  await expect(dialog.getByRole("region", { name: "Document so far" })).toContainText("NEVER-SAVED");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => handoffCalls(mock)[0]?.outcome).toBe("client_aborted");
  expect(sessionIdOf(page)).toBe(oldId);
  expect(await dbSnapshot(page)).toEqual(before);
  await expect(page.getByRole("link", { name: /^Handed off to / })).toHaveCount(0);
});

test("Auto-handoff: at the threshold a new session opens with a notice, linked to the old one", async ({
  page,
  mock,
}) => {
  test.setTimeout(90_000);
  await openWithAutoHandoff(page, mock);

  // Parked after its first part until the test has seen the "Handing off" bar (see expectHeld).
  mock.enqueue(
    "openai",
    writer({ chunks: ["## Goal\n\nAUTO-HANDOFF-12 ", "keep counting.\n"], hold: { afterChunks: 1 } }),
  );
  await exchange(page, mock, prose("(U1)", 40), "(U1)", { text: prose("(A1)", 300) });
  const oldId = sessionIdOf(page);
  await exchange(page, mock, prose("(U2)", 40), "(U2)", { text: prose("(A2)", 1_300) });

  const status = page.getByRole("status", { name: "Automatic handoff" });
  await expectHeld(mock, "openai");
  await expect(status).toContainText("Handing off");
  await expect(status.getByRole("button", { name: "Cancel handoff" })).toBeVisible();
  mock.release("openai");
  await expect.poll(() => sessionIdOf(page), { timeout: 20_000 }).not.toBe(oldId);
  await expect(handoffCards(page)).toContainText("AUTO-HANDOFF-12");
  await expect(page.locator(".notices")).toContainText("handed off to a new session");
  await expect(page.getByRole("link", { name: /^Continued from / })).toBeVisible();
  expect(handoffCalls(mock)).toHaveLength(1);
});

test("An empty handoff document falls back to compaction in place, with a notice; no new session", async ({
  page,
  mock,
}) => {
  await twoTurns(page, mock);
  const oldId = sessionIdOf(page);
  mock.enqueue("openai", writer({ text: "   " }));
  await chatAction(page, "Handoff");
  const dialog = handoffDialog(page);
  await dialog.getByRole("button", { name: "Write handoff document" }).click();
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(page.locator(".notices")).toContainText("The handoff document came back empty.");
  expect(sessionIdOf(page)).toBe(oldId);
  await expect(page.getByRole("link", { name: /^Handed off to / })).toHaveCount(0);
  await expect(handoffCards(page)).toHaveCount(0);
});
