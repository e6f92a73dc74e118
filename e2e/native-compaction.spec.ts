/**
 * Provider-native compaction (issue 10, item 2). Settings → Compaction method per provider:
 * - OpenAI: Compact calls `POST /v1/responses/compact` with the folded part; the next request to
 *   OpenAI starts with the returned items verbatim, then a user message with the kept user turns
 *   and the `<verbatim_tail>`; Grove's digest is not sent to it. The card says "Compacted by OpenAI".
 * - A failed native call: Grove's summary is used and the card says so.
 * - Switching to Claude after an OpenAI compaction: Claude gets Grove's summary, no OpenAI item.
 * - Anthropic: the explicit compaction request (`compaction: {type: "summarize"}`); the next request
 *   to Claude begins with the returned block verbatim, then the floor.
 */
import type { Page } from "@playwright/test";
import { chatRequests, chooseModel, messageAction, openConfigured, sendAndWait, showAdvanced } from "./app";
import {
  compactDialog,
  compactionCards,
  conversationRequests,
  exchange,
  FIRST_SUMMARY,
  messageWith,
  openSmallWindow,
  SHORT_SUMMARY,
  SUMMARIZER_SYSTEM,
  sentText,
  summarizerReply,
} from "./compaction-helpers";
import { expectHeld } from "./faults-helpers";
import { expect, type MockServer, test } from "./fixtures";
import { type RecordedRequest, requestSystem } from "./mock-server/index";
import { compactionBlock, encryptedCompaction, MOCK_COMPACTION_TEXT } from "./mock-server/native-compaction";

const FACT = "(U1) My cat is called Miso-4417 and she hates the vacuum.";
const TAIL_WORDS = "Next I will list her vaccination dates.";
const GROVE_DIGEST = "## Standing facts & constraints\n\n- GROVE-DIGEST-9: the user's cat is Miso-4417.";
const NATIVE_TEXT = "NATIVE-SUMMARY-5150 of the earlier turns.";
const SMALL = { window: 16_000, maxOutput: 1_000, reserve: 2_000, keepRecent: 4_000, auto: false } as const;

async function setMethod(page: Page, providerName: string, method: "Grove summary" | "Provider-native when available") {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  const select = dialog.getByRole("combobox", { name: `Compaction method for ${providerName}` });
  await select.selectOption({ label: method });
  await expect(select).toHaveValue(method === "Grove summary" ? "grove" : "native");
  await dialog
    .getByRole("group", { name: "Compaction method" })
    .screenshot({ path: "test-results/e2e-artifacts/native-compaction-settings.png" });
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
}

/** Two exchanges on OpenAI, then "Compact up to here" on the first reply (U1/A1 folded, U2/A2 kept). */
async function twoTurnsThenCompact(
  page: Page,
  mock: MockServer,
  api: "openai" | "anthropic",
  native: unknown,
  /** The native reply is held: runs while the provider "compacts", then lets it go on. */
  whileNative?: () => Promise<void>,
) {
  const reply = (mark: string, text: string) => ({ text, match: { lastUser: mark } });
  mock.enqueue(api, reply("(U1)", `(A1) Noted. ${TAIL_WORDS}`));
  await sendAndWait(page, FACT);
  mock.enqueue(api, reply("(U2)", "(A2) Cats often dislike loud noises."));
  await sendAndWait(page, "(U2) Why does she hate it?");
  mock.enqueue(
    api,
    summarizerReply(FIRST_SUMMARY, { text: GROVE_DIGEST }),
    summarizerReply(SHORT_SUMMARY, { text: "Miso the cat and the vacuum" }),
    native as never,
  );
  await messageAction(messageWith(page, "assistant", "(A1) Noted."), "Compact up to here");
  await compactDialog(page).getByRole("button", { name: "Compact now" }).click();
  if (whileNative) {
    await expectHeld(mock, api);
    await whileNative();
    mock.release(api);
  }
  await expect(compactDialog(page)).toBeHidden({ timeout: 15_000 });
  await expect(compactionCards(page)).toHaveCount(1);
}

type Item = { type?: string; role?: string; content?: unknown; encrypted_content?: string; id?: string };
const inputOf = (r: RecordedRequest): Item[] => (r.body as { input: Item[] }).input;
const compactCalls = (mock: MockServer) =>
  mock.requests({ api: "openai" }).filter((r) => r.path.endsWith("/responses/compact"));
const chatOnly = (mock: MockServer, api: "openai" | "anthropic") =>
  chatRequests(mock, api).filter((r) => !requestSystem(r).includes(SUMMARIZER_SYSTEM));

test("OpenAI native compaction: the next request carries the returned items verbatim, then the kept user turns and the tail", async ({
  page,
  mock,
}) => {
  test.setTimeout(60_000);
  await openSmallWindow(page, mock, SMALL);
  await setMethod(page, "OpenAI", "Provider-native when available");
  await twoTurnsThenCompact(page, mock, "openai", { text: NATIVE_TEXT, hold: true }, async () => {
    // Progress says who is compacting while the provider works.
    await expect(compactDialog(page).getByRole("status")).toContainText("OpenAI is compacting the conversation");
  });

  // The folded part (U1, A1) went to responses.compact, and only that.
  const [call] = compactCalls(mock);
  expect(call?.status).toBe(200);
  expect(JSON.stringify(call?.body)).toContain("Miso-4417");
  expect(JSON.stringify(call?.body)).not.toContain("(U2)");

  const card = compactionCards(page).first();
  await expect(card).toContainText("Compacted by OpenAI");
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: "test-results/e2e-artifacts/native-compaction-openai-card.png" });

  await exchange(page, mock, "(U3) And what now?", "(U3)", { text: "(A3) Let us plan." });
  const next = conversationRequests(mock).at(-1) as RecordedRequest;
  const input = inputOf(next);
  // The native items first, verbatim: the user message the API kept, then the compaction item.
  expect(input[0]).toMatchObject({ type: "message", role: "user" });
  expect(JSON.stringify(input[0])).toContain("Miso-4417");
  expect(input[1]).toEqual({
    id: expect.stringMatching(/^cmp_mock/),
    type: "compaction",
    encrypted_content: encryptedCompaction(NATIVE_TEXT),
  });
  // Then the floor: the kept user turn verbatim and the verbatim tail, in a user message.
  expect(input[2]?.role).toBe("user");
  const floor = JSON.stringify(input[2]);
  expect(floor).toContain("<user_message>");
  expect(floor).toContain("Miso-4417");
  expect(floor).toContain("<verbatim_tail>");
  expect(floor).toContain(TAIL_WORDS);
  // Grove's own digest is not sent to the provider that compacted.
  expect(sentText(next)).not.toContain("GROVE-DIGEST-9");
  expect(sentText(next)).toContain("(U2) Why does she hate it?");
  expect(next.status).toBe(200);
});

test("a failed native compaction falls back to Grove's summary, and the card says so", async ({ page, mock }) => {
  test.setTimeout(60_000);
  await openSmallWindow(page, mock, SMALL);
  await setMethod(page, "OpenAI", "Provider-native when available");
  await twoTurnsThenCompact(page, mock, "openai", { fault: { kind: "http", status: 500 } });

  expect(compactCalls(mock).map((r) => r.status)).toEqual([500]);
  const card = compactionCards(page).first();
  await expect(card).toContainText("Grove summary");
  await expect(card.getByRole("note")).toContainText("The provider's own compaction failed");
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: "test-results/e2e-artifacts/native-compaction-fallback-card.png" });

  await exchange(page, mock, "(U3) And what now?", "(U3)", { text: "(A3) Let us plan." });
  const next = conversationRequests(mock).at(-1) as RecordedRequest;
  expect(inputOf(next).some((i) => i.type === "compaction")).toBe(false);
  expect(sentText(next)).toContain("GROVE-DIGEST-9");
  expect(sentText(next)).toContain("Miso-4417");
});

test("switching from OpenAI to Claude after a native compaction: Claude gets Grove's summary, no OpenAI item", async ({
  page,
  mock,
}) => {
  test.setTimeout(60_000);
  await openSmallWindow(page, mock, SMALL);
  await setMethod(page, "OpenAI", "Provider-native when available");
  await twoTurnsThenCompact(page, mock, "openai", { text: NATIVE_TEXT });
  await expect(compactionCards(page).first()).toContainText("Compacted by OpenAI");

  await chooseModel(page, "anthropic", "claude-sonnet-4-5");
  mock.enqueue("anthropic", { text: "(A3) Claude here.", match: { lastUser: "(U3)" } });
  await sendAndWait(page, "(U3) Claude, what was her name?");
  const claude = chatOnly(mock, "anthropic").at(-1) as RecordedRequest;
  const body = JSON.stringify(claude.body);
  expect(body).not.toContain('"compaction"');
  expect(body).not.toContain(encryptedCompaction(NATIVE_TEXT));
  expect(body).not.toContain("cmp_mock");
  expect(sentText(claude)).toContain("GROVE-DIGEST-9");
  expect(sentText(claude)).toContain("Miso-4417");
  expect(sentText(claude)).toContain(TAIL_WORDS);
  expect(claude.status).toBe(200);
});

test("Anthropic native compaction: the next request begins with the compaction block verbatim, then the floor", async ({
  page,
  mock,
}) => {
  test.setTimeout(60_000);
  await openConfigured(page, mock, { model: { provider: "anthropic", id: "claude-sonnet-4-5" } });
  await setMethod(page, "Anthropic", "Provider-native when available");
  await twoTurnsThenCompact(page, mock, "anthropic", { text: NATIVE_TEXT, hold: true }, async () => {
    await expect(compactDialog(page).getByRole("status")).toContainText("Claude is compacting the conversation");
  });

  const compactReq = mock
    .requests({ api: "anthropic" })
    .find((r) => (r.body as { compaction?: unknown } | null)?.compaction !== undefined);
  expect(compactReq?.status).toBe(200);
  expect((compactReq?.body as { compaction?: unknown } | undefined)?.compaction).toEqual({ type: "summarize" });
  expect(compactReq?.headers["anthropic-beta"]).toContain("compact-2026-09-04");

  const card = compactionCards(page).first();
  await expect(card).toContainText("Compacted by Claude");
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: "test-results/e2e-artifacts/native-compaction-claude-card.png" });

  mock.enqueue("anthropic", { text: "(A3) Let us plan.", match: { lastUser: "(U3)" } });
  await sendAndWait(page, "(U3) And what now?");
  const next = chatOnly(mock, "anthropic").at(-1) as RecordedRequest;
  expect(next.status).toBe(200);
  expect(next.headers["anthropic-beta"]).toContain("compact-2026-09-04");
  const messages = (next.body as { messages: Array<{ role: string; content: unknown }> }).messages;
  expect(messages[0]).toEqual({ role: "assistant", content: [compactionBlock(NATIVE_TEXT)] });
  expect(messages[1]?.role).toBe("user");
  const floor = JSON.stringify(messages[1]);
  expect(floor).toContain("Miso-4417");
  expect(floor).toContain("<verbatim_tail>");
  expect(floor).toContain(TAIL_WORDS);
  expect(JSON.stringify(next.body)).not.toContain("GROVE-DIGEST-9");
});

test("Let Claude compact on the server: a reply that begins with a compaction block has it stored and sent back first", async ({
  page,
  mock,
}) => {
  test.setTimeout(60_000);
  await openConfigured(page, mock, { model: { provider: "anthropic", id: "claude-sonnet-4-5" } });
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("checkbox", { name: "Automatic compaction" }).uncheck();
  await showAdvanced(dialog);
  const threshold = dialog.getByLabel("Threshold tokens", { exact: true });
  await threshold.fill("60");
  await threshold.press("Enter");
  await dialog.getByRole("checkbox", { name: "Let Claude compact on the server" }).check();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();

  mock.enqueue("anthropic", { text: "(A1) Noted, Miso it is.", match: { lastUser: "(U1)" } });
  await sendAndWait(page, `${FACT} ${"She sleeps on the radiator all winter long. ".repeat(6)}`);
  const first = chatOnly(mock, "anthropic").at(-1) as RecordedRequest;
  expect(first.headers["anthropic-beta"]).toContain("compact-2026-01-12");
  expect((first.body as { context_management?: unknown }).context_management).toEqual({
    edits: [{ type: "compact_20260112", trigger: { type: "input_tokens", value: 60 } }],
  });
  // The block was stored as a compaction, not dropped, and not shown as reply text.
  const card = compactionCards(page).first();
  await expect(card).toContainText("Compacted by Claude");
  await expect(messageWith(page, "assistant", "(A1) Noted, Miso it is.")).toBeVisible();

  mock.enqueue("anthropic", { text: "(A2) Sure.", match: { lastUser: "(U2)" } });
  await sendAndWait(page, "(U2) What is her name?");
  const next = chatOnly(mock, "anthropic").at(-1) as RecordedRequest;
  expect(next.status).toBe(200);
  const messages = (next.body as { messages: Array<{ role: string; content: unknown }> }).messages;
  expect(messages[0]).toEqual({ role: "assistant", content: [compactionBlock(MOCK_COMPACTION_TEXT)] });
  expect(messages[1]?.role).toBe("user");
  expect(JSON.stringify(messages[1])).toContain("Miso-4417");
  expect(JSON.stringify(messages[2])).toContain("(A1) Noted, Miso it is.");
});

test("Cancel while the provider compacts: nothing is written, the next request is not compacted", async ({
  page,
  mock,
}) => {
  test.setTimeout(60_000);
  await openSmallWindow(page, mock, SMALL);
  await setMethod(page, "OpenAI", "Provider-native when available");
  mock.enqueue("openai", { text: `(A1) Noted. ${TAIL_WORDS}`, match: { lastUser: "(U1)" } });
  await sendAndWait(page, FACT);
  mock.enqueue(
    "openai",
    summarizerReply(FIRST_SUMMARY, { text: GROVE_DIGEST }),
    summarizerReply(SHORT_SUMMARY, { text: "Miso the cat and the vacuum" }),
    { text: NATIVE_TEXT, hold: true },
  );
  await messageAction(messageWith(page, "assistant", "(A1) Noted."), "Compact up to here");
  const dialog = compactDialog(page);
  await dialog.getByRole("button", { name: "Compact now" }).click();
  await expectHeld(mock, "openai");
  await expect(dialog.getByRole("status")).toContainText("OpenAI is compacting the conversation");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(compactionCards(page)).toHaveCount(0);
  await expect.poll(() => compactCalls(mock)[0]?.outcome).toBe("client_aborted");

  await exchange(page, mock, "(U2) Still there?", "(U2)", { text: "(A2) Yes." });
  const next = conversationRequests(mock).at(-1) as RecordedRequest;
  expect(inputOf(next).some((i) => i.type === "compaction")).toBe(false);
  expect(sentText(next)).not.toContain("GROVE-DIGEST-9");
});
