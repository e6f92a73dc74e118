/**
 * The remote summarizer (issue 10 item 4, seed 002 `compaction.remoteEndpoint`): Settings ›
 * Compaction "Remote summarizer URL" and "Remote summarizer token". Compaction POSTs
 * `{ systemPrompt, prompt }` there and the card shows its summary, the provider gets no summarizer
 * call; when it fails, the model writes the summary and a notice says so. Keys: the remote request
 * carries only its own token, provider requests never carry it.
 */
import type { Page } from "@playwright/test";
import { OPENAI_KEY } from "./app";
import {
  compactFromHeader,
  compactionCards,
  exchange,
  FIRST_SUMMARY,
  openSmallWindow,
  prose,
  SHORT_SUMMARY,
  SUMMARIZER_SYSTEM,
  summarizerReply,
  summarizerRequests,
} from "./compaction-helpers";
import { expect, type MockServer, test } from "./fixtures";

const SMALL = { window: 16_000, maxOutput: 1_000, reserve: 2_000, keepRecent: 700, auto: false } as const;
const TOKEN = "remote-summarizer-token-789";
const REMOTE_SUMMARY = "REMOTE-5521: the user is counting penguins before the storm season.";

const remoteRequests = (mock: MockServer) => mock.requests().filter((r) => r.path === "/remote-summarizer");

async function setRemote(page: Page, url: string, token: string): Promise<void> {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("textbox", { name: "Remote summarizer URL" }).fill(url);
  await dialog.getByLabel("Remote summarizer token").fill(token);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
}

async function converse(page: Page, mock: MockServer): Promise<void> {
  for (let i = 1; i <= 4; i++) {
    await exchange(page, mock, prose(`(U${i})`, 40), `(U${i})`, { text: prose(`(A${i})`, 350) });
  }
}

test("compaction summaries come from the remote summarizer; the provider gets no summarizer call", async ({
  page,
  mock,
}) => {
  test.setTimeout(60_000);
  mock.config({ remoteSummary: REMOTE_SUMMARY });
  await openSmallWindow(page, mock, SMALL);
  await setRemote(page, mock.remoteSummarizerUrl, TOKEN);
  await converse(page, mock);

  const dialog = await compactFromHeader(page);
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(compactionCards(page)).toHaveCount(1);
  await expect(compactionCards(page)).toContainText("REMOTE-5521");
  // Who wrote it: the remote summarizer, not the chat model.
  await expect(compactionCards(page)).toContainText(`remote summarizer (${new URL(mock.remoteSummarizerUrl).host})`);

  const remote = remoteRequests(mock);
  expect(remote.length).toBeGreaterThan(0);
  const first = remote[0]?.body as { systemPrompt: string; prompt: string };
  expect(Object.keys(first).sort()).toEqual(["prompt", "systemPrompt"]);
  expect(first.systemPrompt).toContain(SUMMARIZER_SYSTEM);
  expect(first.prompt).toContain(FIRST_SUMMARY);
  expect(first.prompt).toContain(prose("(U1)", 40));
  expect(summarizerRequests(mock)).toHaveLength(0);

  // Keys: the remote summarizer gets its own token only; the provider never gets it.
  for (const r of remote) {
    expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.stringify(r)).not.toContain(OPENAI_KEY);
    expect(r.headers["x-api-key"]).toBeUndefined();
  }
  for (const r of mock.requests({ api: "openai" })) expect(JSON.stringify(r)).not.toContain(TOKEN);
});

test("a failing remote summarizer falls back to the model, with a notice", async ({ page, mock }) => {
  test.setTimeout(60_000);
  mock.config({ remoteSummarizer: "http-500" });
  await openSmallWindow(page, mock, SMALL);
  await setRemote(page, mock.remoteSummarizerUrl, TOKEN);
  await converse(page, mock);

  mock.enqueue(
    "openai",
    summarizerReply(FIRST_SUMMARY, { text: "## Goal\n\nMODEL-3310: the model wrote this summary." }),
    summarizerReply(SHORT_SUMMARY, { text: "Counting penguins" }),
  );
  const dialog = await compactFromHeader(page);
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(compactionCards(page)).toContainText("MODEL-3310");
  await expect(page.getByRole("alert").filter({ hasText: "Remote summarizer failed" })).toContainText(
    /Remote summarizer failed: The remote summarizer answered HTTP 500.*; used gpt-4o instead\./,
  );
  expect(remoteRequests(mock)).toHaveLength(1);
  expect(summarizerRequests(mock).length).toBeGreaterThan(0);
  for (const r of mock.requests({ api: "openai" })) expect(JSON.stringify(r)).not.toContain(TOKEN);
});

test("a remote summarizer that does not allow this page (CORS) is explained in plain words", async ({ page, mock }) => {
  test.setTimeout(60_000);
  mock.config({ remoteSummarizer: "no-cors" });
  await openSmallWindow(page, mock, SMALL);
  await setRemote(page, mock.remoteSummarizerUrl, "");
  await converse(page, mock);
  mock.enqueue(
    "openai",
    summarizerReply(FIRST_SUMMARY, { text: "## Goal\n\nMODEL-4420: the model wrote this summary." }),
    summarizerReply(SHORT_SUMMARY, { text: "Counting penguins" }),
  );
  const dialog = await compactFromHeader(page);
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(compactionCards(page)).toContainText("MODEL-4420");
  await expect(page.getByRole("alert").filter({ hasText: "Remote summarizer failed" })).toContainText(
    "The remote summarizer did not allow this page to call it (CORS) or is unreachable; used gpt-4o instead.",
  );
});

test("a plain http:// summarizer outside this machine is not called until confirmed (the providers' rule)", async ({
  page,
  mock,
}) => {
  test.setTimeout(60_000);
  await openSmallWindow(page, mock, SMALL);
  // 203.0.113.0/24 is reserved for documentation: nothing answers there, and nothing may be sent.
  await setRemote(page, "http://203.0.113.9:8080/summarize", TOKEN);
  await page.getByRole("button", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  await expect(settings.getByRole("checkbox", { name: /unencrypted/ })).not.toBeChecked();
  await settings.getByRole("button", { name: "Close" }).click();
  await converse(page, mock);
  mock.enqueue(
    "openai",
    summarizerReply(FIRST_SUMMARY, { text: "## Goal\n\nMODEL-6650: the model wrote this summary." }),
    summarizerReply(SHORT_SUMMARY, { text: "Counting penguins" }),
  );
  const dialog = await compactFromHeader(page);
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(compactionCards(page)).toContainText("MODEL-6650");
  await expect(page.getByRole("alert").filter({ hasText: "Remote summarizer failed" })).toContainText(
    "http://203.0.113.9:8080 is plain http:// to a host outside this machine",
  );
});

test("the token does not follow a changed URL until the user confirms the new origin (issue 30.7)", async ({
  page,
  mock,
}) => {
  // Eight exchanges and two compactions.
  test.setTimeout(180_000);
  mock.config({ remoteSummary: REMOTE_SUMMARY });
  await openSmallWindow(page, mock, SMALL);
  await setRemote(page, mock.remoteSummarizerUrl, TOKEN);
  // The same server under another name: another origin, which the token was not given for.
  const oldOrigin = new URL(mock.remoteSummarizerUrl).origin;
  const moved = new URL(mock.remoteSummarizerUrl);
  moved.hostname = "localhost";
  await page.getByRole("button", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  await settings.getByRole("textbox", { name: "Remote summarizer URL" }).fill(moved.href);
  await settings.getByRole("textbox", { name: "Remote summarizer URL" }).press("Enter");
  const ask = settings.getByRole("note").filter({ hasText: "The token was given for" });
  await expect(ask).toContainText(`The token was given for ${oldOrigin}. It is not sent to ${moved.origin}`);
  await expect(ask.getByRole("button", { name: `Send the token to ${moved.origin}` })).toBeVisible();
  await settings.getByRole("button", { name: "Close" }).click();
  await expect(settings).toBeHidden();

  await converse(page, mock);
  mock.enqueue(
    "openai",
    summarizerReply(FIRST_SUMMARY, { text: "## Goal\n\nMODEL-7730: the model wrote this summary." }),
    summarizerReply(SHORT_SUMMARY, { text: "Counting penguins" }),
  );
  const dialog = await compactFromHeader(page);
  await expect(dialog).toBeHidden({ timeout: 15_000 });
  await expect(compactionCards(page)).toContainText("MODEL-7730");
  await expect(page.getByRole("alert").filter({ hasText: "Remote summarizer failed" })).toContainText(
    `The token was given for ${oldOrigin}, not ${moved.origin}: confirm in Settings that it may go there`,
  );
  expect(remoteRequests(mock)).toHaveLength(0);

  // Confirmed: the next compaction goes to the new origin, with the token.
  await page.getByRole("button", { name: "Settings" }).click();
  await ask.getByRole("button", { name: `Send the token to ${moved.origin}` }).click();
  await expect(ask).toBeHidden();
  await settings.getByRole("button", { name: "Close" }).click();
  await expect(settings).toBeHidden();
  for (let i = 5; i <= 8; i++) {
    await exchange(page, mock, prose(`(U${i})`, 40), `(U${i})`, { text: prose(`(A${i})`, 350) });
  }
  const again = await compactFromHeader(page);
  await expect(again).toBeHidden({ timeout: 15_000 });
  await expect(compactionCards(page).filter({ hasText: "REMOTE-5521" })).toHaveCount(1);
  const remote = remoteRequests(mock);
  expect(remote.length).toBeGreaterThan(0);
  for (const r of remote) {
    expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(r.headers.host).toBe(moved.host);
  }
});
