/**
 * Provider faults, end to end: what the user sees and what is saved when the key is wrong, the
 * provider rate-limits, overflows, is overloaded, drops the connection or errors; Stop and Esc; a
 * reload in the middle of a reply; strict-template role merging. Every test asserts behaviour
 * (text on screen, rows that survive a reload, requests the mock received), not that code ran.
 */
import {
  ANTHROPIC_KEY,
  assistantMessages,
  chatRequests,
  openConfigured,
  send,
  sendAndWait,
  streamingMessage,
  userMessages,
  waitIdle,
} from "./app";
import {
  draftTexts,
  expectChatRequestCount,
  expectHeld,
  messageAlert,
  reloadSession,
  setApiKey,
  versionLabel,
} from "./faults-helpers";
import { expect, test } from "./fixtures";
import { requestMessages } from "./mock-server/index";

const RIGHT_KEY = "sk-ant-the-right-key-789";

test.describe("wrong key", () => {
  test("401: plain words about the key, message kept, Retry after fixing the key makes a new version", async ({
    page,
    mock,
  }) => {
    mock.config({ apiKey: RIGHT_KEY });
    await openConfigured(page, mock);
    await send(page, "Are you there?");
    const reply = assistantMessages(page).last();
    const alert = messageAlert(reply);
    await expect(alert).toBeVisible({ timeout: 10_000 });
    await expect(alert).toContainText(/API key/);
    await expect(alert).toContainText(/Settings/);
    // Plain words, not a JSON dump or the key itself.
    await expect(alert).not.toContainText("{");
    await expect(alert).not.toContainText(ANTHROPIC_KEY);
    await expect(alert.getByRole("button", { name: "Retry" })).toBeVisible();
    await expectChatRequestCount(mock, "anthropic", 1); // auth errors are not retried

    // The user's message was saved: it is still there after a reload, with the error and Retry.
    await reloadSession(page);
    await expect(userMessages(page)).toHaveCount(1);
    await expect(userMessages(page).first()).toContainText("Are you there?");
    await expect(messageAlert(assistantMessages(page).last()).getByRole("button", { name: "Retry" })).toBeVisible();

    await setApiKey(page, "Anthropic", RIGHT_KEY);
    mock.enqueue("anthropic", { text: "Yes, the key works now." });
    await messageAlert(assistantMessages(page).last()).getByRole("button", { name: "Retry" }).click();
    await expect(assistantMessages(page).last()).toContainText("Yes, the key works now.", { timeout: 10_000 });
    await waitIdle(page);
    const retried = chatRequests(mock, "anthropic").at(-1);
    expect(retried?.headers["x-api-key"] ?? retried?.headers.authorization).toContain(RIGHT_KEY);
    expect(retried?.status).toBe(200);

    // One click: one new reply, which replaces the failed attempt on screen (issue 27: a failure
    // before any content is not a version to flip back to; it stays in the tree and the graph).
    await expect(userMessages(page)).toHaveCount(1);
    const newest = assistantMessages(page).last();
    await expect(newest.locator(".versions")).toHaveCount(0);
    await expect(messageAlert(newest)).toHaveCount(0);
    await expect(page.getByRole("alert")).toHaveCount(0);
  });
});

test.describe("rate limits", () => {
  test("429 twice with retry-after 1: the UI says it is waiting, then the reply arrives (3 requests)", async ({
    page,
    mock,
  }) => {
    await openConfigured(page, mock);
    // Attempts 2 and 3 are parked by the mock until released: the status that names the attempt
    // stays on screen (it lasts until the reply's first words) however slow the machine is.
    mock.enqueue(
      "anthropic",
      { fault: { kind: "http", status: 429, retryAfterSeconds: 1 } },
      { fault: { kind: "http", status: 429, retryAfterSeconds: 1 }, hold: true },
      { text: "Finally through.", hold: true },
    );
    await send(page, "Busy day?");
    const status = streamingMessage(page).getByRole("status");
    await expectHeld(mock, "anthropic");
    await expect(status).toContainText(/Retrying in \d+ s \(attempt 2 of 4\)/);
    await expect(status).toContainText(/rate-limit/i);
    mock.release("anthropic");
    await expectHeld(mock, "anthropic");
    await expect(status).toContainText(/Retrying in \d+ s \(attempt 3 of 4\)/);
    mock.release("anthropic");
    await expect(assistantMessages(page).last()).toContainText("Finally through.", { timeout: 10_000 });
    await waitIdle(page);
    await expect(messageAlert(assistantMessages(page).last())).toHaveCount(0);

    const sent = chatRequests(mock, "anthropic");
    expect(sent.map((r) => r.status)).toEqual([429, 429, 200]);
    // retry-after was honoured: about a second between attempts, never an instant hammering.
    for (let i = 1; i < sent.length; i++) {
      expect(sent[i]!.at - sent[i - 1]!.at).toBeGreaterThanOrEqual(900);
    }
  });

  test("more 429s than the retry bound: an error with Retry, and Retry works", async ({ page, mock }) => {
    await openConfigured(page, mock, { model: { provider: "openai", id: "gpt-4o" } });
    for (let i = 0; i < 5; i++) {
      mock.enqueue("openai", { fault: { kind: "http", status: 429, retryAfterSeconds: 1 } });
    }
    await send(page, "Hello?");
    const reply = assistantMessages(page).last();
    await expect(messageAlert(reply)).toBeVisible({ timeout: 15_000 });
    await expect(messageAlert(reply)).toContainText(/rate-limit/i);
    // Bounded: 4 attempts in all, the 5th scripted 429 was never asked for.
    expect(chatRequests(mock, "openai")).toHaveLength(4);
    expect(mock.queued("openai")).toBe(1);
    // A negative check: a 5th attempt would have come a second (retry-after) later. A fixed wait
    // can only miss a bug here, never fail a correct app.
    await page.waitForTimeout(1_500);
    expect(chatRequests(mock, "openai")).toHaveLength(4);

    mock.reset();
    mock.enqueue("openai", { text: "Now it works." });
    await messageAlert(reply).getByRole("button", { name: "Retry" }).click();
    await expect(assistantMessages(page).last()).toContainText("Now it works.", { timeout: 10_000 });
    // The failed attempt had no content: the reply replaces it, no "1 / 2" error card (issue 27).
    await expect(assistantMessages(page).last().locator(".versions")).toHaveCount(0);
  });
});

test.describe("context overflow", () => {
  for (const api of ["anthropic", "openai"] as const) {
    test(`${api}: a 400 overflow is not retried (exactly one request) and is explained`, async ({ page, mock }) => {
      await openConfigured(page, mock, {
        model:
          api === "anthropic"
            ? { provider: "anthropic", id: "claude-sonnet-4-5" }
            : { provider: "openai", id: "gpt-4o" },
      });
      mock.enqueue(api, { fault: { kind: "http", status: 400 } }, { text: "should never be asked for" });
      await send(page, "A very long paste");
      const alert = messageAlert(assistantMessages(page).last());
      await expect(alert).toBeVisible({ timeout: 10_000 });
      await expect(alert).toContainText(/too long/i);
      await expect(alert.getByRole("button", { name: "Retry" })).toBeVisible();
      // A retry would have come within ~1 s (backoff without retry-after); wait past that. A negative
      // check: the fixed wait can only miss a bug, never fail a correct app.
      await page.waitForTimeout(1_500);
      expect(chatRequests(mock, api)).toHaveLength(1);
      expect(mock.queued(api)).toBe(1);
    });
  }
});

test.describe("overloaded", () => {
  test("Anthropic 529 before streaming is retried and the reply arrives", async ({ page, mock }) => {
    await openConfigured(page, mock);
    mock.enqueue(
      "anthropic",
      { fault: { kind: "http", status: 529, retryAfterSeconds: 1 } },
      // The retry is parked: "overloaded… Retrying" stays on screen until the test has seen it.
      { text: "Back online.", hold: true },
    );
    await send(page, "Hi");
    await expectHeld(mock, "anthropic");
    await expect(streamingMessage(page).getByRole("status")).toContainText(/overloaded.*Retrying in/i);
    mock.release("anthropic");
    await expect(assistantMessages(page).last()).toContainText("Back online.", { timeout: 10_000 });
    await waitIdle(page);
    expect(chatRequests(mock, "anthropic").map((r) => r.status)).toEqual([529, 200]);
  });

  test("mid-stream overloaded error: partial reply saved and marked, survives reload, Retry works", async ({
    page,
    mock,
  }) => {
    await openConfigured(page, mock);
    mock.enqueue("anthropic", {
      chunks: ["The first ", "half of ", "the answer", " never arrives"],
      fault: { kind: "midstream_error", afterChunks: 3 },
    });
    await send(page, "Explain");
    const reply = assistantMessages(page).last();
    await expect(messageAlert(reply)).toBeVisible({ timeout: 10_000 });
    await expect(messageAlert(reply)).toContainText(/overloaded/i);
    await expect(reply).toContainText("The first half of the answer");
    await expect(reply).not.toContainText("never arrives");
    await expect(reply).toHaveClass(/status-error/);
    // Not retried after content streamed: the partial is what the user keeps.
    expect(chatRequests(mock, "anthropic")).toHaveLength(1);

    await reloadSession(page);
    const saved = assistantMessages(page).last();
    await expect(saved).toContainText("The first half of the answer");
    await expect(messageAlert(saved)).toContainText(/overloaded/i);

    mock.enqueue("anthropic", { text: "The whole answer." });
    await messageAlert(saved).getByRole("button", { name: "Retry" }).click();
    await expect(assistantMessages(page).last()).toContainText("The whole answer.", { timeout: 10_000 });
    await waitIdle(page);
    await expect(versionLabel(assistantMessages(page).last())).toHaveText("2 / 2");
    // The retried request re-asks the same question, without the failed partial in it.
    const retried = chatRequests(mock, "anthropic").at(-1);
    expect(retried && requestMessages(retried).map((m) => m.role)).toEqual(["user"]);
  });
});

test.describe("network drop", () => {
  for (const api of ["anthropic", "openai"] as const) {
    test(`${api}: socket dropped mid-stream keeps the partial, says so plainly, Retry works`, async ({
      page,
      mock,
    }) => {
      await openConfigured(page, mock, {
        model:
          api === "anthropic"
            ? { provider: "anthropic", id: "claude-sonnet-4-5" }
            : { provider: "openai", id: "gpt-4o" },
      });
      // The chunk sent right before the drop may die with the socket (the browser discards what the
      // page had not read yet when the stream errors), so the drop comes one chunk after the words
      // the test checks; those were on screen before the connection went.
      // The mock parks the stream after "Kept words" until the test has seen them streaming.
      mock.enqueue(api, {
        chunks: ["Kept ", "words", " maybe", " never sent"],
        hold: { afterChunks: 2 },
        fault: { kind: "drop", afterChunks: 3 },
      });
      await send(page, "Go");
      await expectHeld(mock, api);
      await expect(streamingMessage(page)).toContainText("Kept words");
      mock.release(api);
      const reply = assistantMessages(page).last();
      await expect(messageAlert(reply)).toBeVisible({ timeout: 10_000 });
      await expect(messageAlert(reply)).toContainText(/connection/i);
      await expect(messageAlert(reply)).not.toContainText(/TypeError|undefined|\{/);
      await expect(reply).toContainText("Kept words");
      await expect(reply).not.toContainText("never sent");
      await expect(reply).toHaveClass(/status-error/);
      expect(chatRequests(mock, api)).toHaveLength(1);

      await reloadSession(page);
      await expect(assistantMessages(page).last()).toContainText("Kept words");
      mock.enqueue(api, { text: "Complete this time." });
      await messageAlert(assistantMessages(page).last()).getByRole("button", { name: "Retry" }).click();
      await expect(assistantMessages(page).last()).toContainText("Complete this time.", { timeout: 10_000 });
      await expect(versionLabel(assistantMessages(page).last())).toHaveText("2 / 2");
    });
  }
});

test.describe("server errors", () => {
  test("Anthropic 500 is retried a bounded number of times, then a plain error", async ({ page, mock }) => {
    test.slow(); // exponential backoff without retry-after: up to ~7 s of waiting
    await openConfigured(page, mock);
    mock.enqueue("anthropic", { fault: { kind: "http", status: 500 } });
    // The first retry is parked, so "Retrying in" stays on screen until the test has seen it.
    mock.enqueue("anthropic", { fault: { kind: "http", status: 500 }, hold: true });
    for (let i = 0; i < 4; i++) mock.enqueue("anthropic", { fault: { kind: "http", status: 500 } });
    await send(page, "Hello");
    await expectHeld(mock, "anthropic");
    await expect(streamingMessage(page).getByRole("status")).toContainText(/Retrying in \d+ s \(attempt 2 of 4\)/);
    mock.release("anthropic");
    const alert = messageAlert(assistantMessages(page).last());
    await expect(alert).toBeVisible({ timeout: 20_000 });
    await expect(alert).toContainText(/server error/i);
    await expect(alert.getByRole("button", { name: "Retry" })).toBeVisible();
    expect(chatRequests(mock, "anthropic")).toHaveLength(4);
    await page.waitForTimeout(1_500); // a negative check (no 5th attempt): can only miss a bug
    expect(chatRequests(mock, "anthropic")).toHaveLength(4);
    expect(mock.queued("anthropic")).toBe(2);
  });

  test("OpenAI 503 twice, then the reply", async ({ page, mock }) => {
    await openConfigured(page, mock, { model: { provider: "openai", id: "gpt-4o" } });
    mock.enqueue(
      "openai",
      { fault: { kind: "http", status: 503, retryAfterSeconds: 1 } },
      { fault: { kind: "http", status: 503, retryAfterSeconds: 1 }, hold: true },
      { text: "Served." },
    );
    await send(page, "Hello");
    await expectHeld(mock, "openai");
    await expect(streamingMessage(page).getByRole("status")).toContainText(/Retrying in/);
    mock.release("openai");
    await expect(assistantMessages(page).last()).toContainText("Served.", { timeout: 10_000 });
    expect(chatRequests(mock, "openai").map((r) => r.status)).toEqual([503, 503, 200]);
  });
});

test.describe("stop", () => {
  test("Stop keeps the partial, marks it stopped, and it survives a reload", async ({ page, mock }) => {
    await openConfigured(page, mock);
    mock.enqueue("anthropic", {
      chunks: ["Once upon ", "a time", " there was"],
      fault: { kind: "hang", afterChunks: 2 },
    });
    await send(page, "Tell me a story");
    await expect(streamingMessage(page)).toContainText("Once upon a time");
    await page.getByRole("button", { name: "Stop" }).click();
    await waitIdle(page);
    const reply = assistantMessages(page).last();
    await expect(reply).toContainText("Once upon a time");
    await expect(reply.getByText("stopped", { exact: true })).toBeVisible();
    await expect(messageAlert(reply)).toHaveCount(0);
    // The app really went away (not just hid the stream).
    await expect.poll(() => chatRequests(mock, "anthropic")[0]?.outcome).toBe("client_aborted");

    await reloadSession(page);
    const saved = assistantMessages(page).last();
    await expect(saved).toContainText("Once upon a time");
    await expect(saved.getByText("stopped", { exact: true })).toBeVisible();
    // The composer is usable again: a follow-up goes out with the stopped text as the user saw it.
    await sendAndWait(page, "Go on");
    const follow = chatRequests(mock, "anthropic").at(-1);
    const msgs = follow ? requestMessages(follow) : [];
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(msgs[1]?.text).toBe("Once upon a time");
  });

  test("Esc stops streaming", async ({ page, mock }) => {
    await openConfigured(page, mock, { model: { provider: "openai", id: "gpt-4o" } });
    mock.enqueue("openai", { chunks: ["Counting: one", " two", " three"], fault: { kind: "hang", afterChunks: 2 } });
    await send(page, "Count");
    await expect(streamingMessage(page)).toContainText("Counting: one two");
    await page.keyboard.press("Escape");
    await waitIdle(page);
    const reply = assistantMessages(page).last();
    await expect(reply).toContainText("Counting: one two");
    await expect(reply.getByText("stopped", { exact: true })).toBeVisible();
    await expect.poll(() => chatRequests(mock, "openai")[0]?.outcome).toBe("client_aborted");
  });
});

test.describe("reload mid-reply", () => {
  test("a reply streaming when the page reloads comes back as interrupted, with the text that had arrived", async ({
    page,
    mock,
  }) => {
    await openConfigured(page, mock);
    mock.enqueue("anthropic", {
      chunks: ["Checkpointed ", "words ", "arrive"],
      chunkDelayMs: 50,
      fault: { kind: "hang", afterChunks: 3 },
    });
    await send(page, "Write slowly");
    await expect(streamingMessage(page)).toContainText("Checkpointed words arrive");
    // The reply's periodic checkpoint has saved every word (read from IndexedDB, not guessed from time).
    await expect.poll(() => draftTexts(page), { timeout: 15_000 }).toContain("Checkpointed words arrive");
    await page.reload();

    const reply = assistantMessages(page).last();
    // Recovery runs at start-up (or at the latest on the periodic sweep).
    await expect(reply.getByText("interrupted", { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(reply).toContainText("Checkpointed words arrive");
    await expect(userMessages(page)).toHaveCount(1);
    await expect(streamingMessage(page)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
    await expect.poll(() => chatRequests(mock, "anthropic")[0]?.outcome).toBe("client_aborted");

    // It is a real entry: it stays after another reload, and Regenerate makes a sibling.
    await reloadSession(page);
    await expect(assistantMessages(page).last().getByText("interrupted", { exact: true })).toBeVisible();
    mock.enqueue("anthropic", { text: "A full reply." });
    await assistantMessages(page).last().getByRole("button", { name: "Regenerate" }).click();
    await expect(assistantMessages(page).last()).toContainText("A full reply.", { timeout: 10_000 });
    await expect(versionLabel(assistantMessages(page).last())).toHaveText("2 / 2");
  });
});

test.describe("strict chat templates", () => {
  test("user, [error reply], user is merged into one user turn that a strict server accepts", async ({
    page,
    mock,
  }) => {
    mock.config({ apiKey: RIGHT_KEY, strict: true });
    await openConfigured(page, mock);
    await send(page, "First question");
    await expect(messageAlert(assistantMessages(page).last())).toContainText(/API key/, { timeout: 10_000 });
    await setApiKey(page, "Anthropic", RIGHT_KEY);

    // A new message (not Retry): the path is user, error-without-content, user.
    mock.enqueue("anthropic", { text: "Answering both." });
    await send(page, "Second question");
    await expect(assistantMessages(page).last()).toContainText("Answering both.", { timeout: 10_000 });
    await waitIdle(page);
    await expect(userMessages(page)).toHaveCount(2);

    const last = chatRequests(mock, "anthropic").at(-1);
    expect(last?.status).toBe(200);
    const msgs = last ? requestMessages(last) : [];
    for (let i = 1; i < msgs.length; i++) expect(msgs[i]?.role).not.toBe(msgs[i - 1]?.role);
    expect(msgs[0]?.role).toBe("user");
    expect(msgs).toHaveLength(1);
    expect(msgs[0]?.text).toContain("First question");
    expect(msgs[0]?.text).toContain("Second question");
    expect(msgs[0]!.text.indexOf("First question")).toBeLessThan(msgs[0]!.text.indexOf("Second question"));
  });
});
