/**
 * Helpers for the compaction specs (e2e/compaction*.spec.ts): a small-window model configured
 * through Settings, deterministic prose of a known size, scripts that tell summarizer calls from
 * chat calls (by the summarizer's system prompt), and readers for what a request carried.
 */
import type { Locator, Page } from "@playwright/test";
import { chatAction, chatRequests, meter, meterBox, openConfigured, send, showAdvanced, waitIdle } from "./app";
import { expect, type MockServer, type RecordedRequest, type ReplyScript } from "./fixtures";
import { requestMessages, requestSystem } from "./mock-server/index";

/** The model every compaction spec talks to: OpenAI's tokenizer is exact, so counts are not estimates. */
export const MODEL = { provider: "openai", id: "gpt-4o" } as const;

/** First words of prompts/compaction-system.md: every summarizer call carries it as its system prompt. */
export const SUMMARIZER_SYSTEM = "You write context summaries";
/** prompts/compaction-first.md and compaction-update.md (the summary calls) and compaction-short.md. */
export const FIRST_SUMMARY = "Summarize the conversation below";
export const UPDATE_SUMMARY = "Below is the existing summary";
export const SHORT_SUMMARY = "Write a single line of at most 120 characters";
/** prompts/compaction-split-turn.md: the folded beginning of a turn cut in the middle. */
export const SPLIT_TURN = "The conversation below is the beginning of a single turn";
/** The first sentence of prompts/compaction-summary-context.md (the framing the chat model gets). */
export const FRAMING = "Earlier turns of this conversation were compacted to save context space.";
/** prompts/continue-reply.md */
export const CONTINUE_PROMPT = "Your previous reply was cut off by the output length limit.";

export type CompactionSetup = {
  window: number;
  maxOutput: number;
  reserve: number;
  keepRecent: number;
  /** 0 = unset (the default threshold). */
  thresholdTokens?: number;
  auto?: boolean;
};

/** Open Grove on the mock with MODEL, then set its window/output and the compaction settings in Settings. */
export async function openSmallWindow(page: Page, mock: MockServer, setup: CompactionSetup): Promise<void> {
  await openConfigured(page, mock, { model: MODEL });
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  const set = async (label: string, value: number) => {
    const field = dialog.getByLabel(label, { exact: true });
    await field.fill(String(value));
    await field.press("Enter");
  };
  await showAdvanced(dialog);
  await set("Context window override", setup.window);
  await set("Max output override", setup.maxOutput);
  await set("Reserve tokens", setup.reserve);
  await set("Keep recent tokens", setup.keepRecent);
  await set("Threshold tokens", setup.thresholdTokens ?? 0);
  const auto = dialog.getByRole("checkbox", { name: "Automatic compaction" });
  if (setup.auto === false) await auto.uncheck();
  else await auto.check();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(meter(page)).toHaveAttribute("max", String(setup.window));
}

/** A small window (threshold 1,500 tokens) whose strategy at the threshold is "Hand off to a new session". */
export async function openWithAutoHandoff(page: Page, mock: MockServer): Promise<void> {
  await openSmallWindow(page, mock, {
    window: 16_000,
    maxOutput: 1_000,
    reserve: 2_000,
    keepRecent: 600,
    thresholdTokens: 1_500,
  });
  await page.getByRole("button", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  await settings.getByRole("combobox", { name: "When the context is full" }).selectOption({
    label: "Hand off to a new session",
  });
  await settings.getByRole("button", { name: "Close" }).click();
}

const VOCABULARY = (
  "river copper lantern meadow orbit harbor velvet quarry summit glacier ember falcon timber canyon " +
  "mosaic prairie beacon thistle cobalt marble saddle willow garnet compass ledger pepper voyage " +
  "orchard basalt cinder plume tundra quiver jasmine anchor bramble crater drift fennel granite"
).split(" ");

/**
 * Deterministic prose of `words` words (each about one token), opened by `tag` so a request can be
 * searched for it. Different tags give different texts.
 */
export function prose(tag: string, words: number): string {
  let seed = 7;
  for (const ch of tag) seed = (seed * 31 + ch.charCodeAt(0)) % 2_147_483_647;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    seed = (seed * 48_271) % 2_147_483_647;
    const word = VOCABULARY[seed % VOCABULARY.length] ?? "river";
    out.push(i % 12 === 11 ? `${word}.` : word);
  }
  return `${tag} ${out.join(" ")}`;
}

/** A chat reply for the user message that contains `userMark` (never taken by a summarizer call). */
export const chatReply = (userMark: string, script: ReplyScript): ReplyScript => ({
  ...script,
  match: { lastUser: userMark },
});

/** A summarizer reply for the call whose prompt contains `promptMark` (FIRST_SUMMARY, SHORT_SUMMARY, …). */
export const summarizerReply = (promptMark: string, script: ReplyScript): ReplyScript => ({
  ...script,
  match: { system: SUMMARIZER_SYSTEM, lastUser: promptMark },
});

const isSummarizer = (r: RecordedRequest) => requestSystem(r).includes(SUMMARIZER_SYSTEM);

/** Chat-completion requests of the conversation itself (summarizer calls left out). */
export const conversationRequests = (mock: MockServer): RecordedRequest[] =>
  chatRequests(mock, "openai").filter((r) => !isSummarizer(r));

export const summarizerRequests = (mock: MockServer): RecordedRequest[] =>
  chatRequests(mock, "openai").filter(isSummarizer);

/** Everything the model was sent in a request, as one string (system + every message). */
export function sentText(req: RecordedRequest | undefined): string {
  if (!req) throw new Error("no request recorded");
  return [requestSystem(req), ...requestMessages(req).map((m) => m.text)].join("\n");
}

/** Size of what a request sent the model, in characters. */
export const sentChars = (req: RecordedRequest | undefined): number => sentText(req).length;

export const compactionCards = (page: Page): Locator => page.getByRole("article", { name: /^Compaction summary/ });

export const compactDialog = (page: Page): Locator => page.getByRole("dialog", { name: "Compact conversation" });

/** "12,345 → 678 tokens" on a card, as numbers. */
export async function cardTokens(card: Locator): Promise<{ before: number; after: number }> {
  const text = (await card.textContent()) ?? "";
  const m = /([\d,]+)\s*→\s*([\d,]+)\s*tokens/.exec(text);
  if (!m?.[1] || !m[2]) throw new Error(`no "before → after tokens" on the card: ${text}`);
  return { before: Number(m[1].replaceAll(",", "")), after: Number(m[2].replaceAll(",", "")) };
}

/** Open the Compact dialog from the header, type instructions (optional), press "Compact now". */
export async function compactFromHeader(page: Page, instructions?: string): Promise<Locator> {
  await chatAction(page, "Compact");
  const dialog = compactDialog(page);
  await expect(dialog).toBeVisible();
  if (instructions) await dialog.getByRole("textbox", { name: "Instructions (optional)" }).fill(instructions);
  await dialog.getByRole("button", { name: "Compact now" }).click();
  return dialog;
}

/** A message article (user or assistant) containing `text`. */
export function messageWith(page: Page, role: "user" | "assistant", text: string): Locator {
  const prefix = role === "user" ? "User message" : "Assistant message";
  return page.locator(`article[aria-label^="${prefix}"]:not([aria-busy="true"])`).filter({ hasText: text });
}

/** The automatic-compaction status bar. */
export const autoStatus = (page: Page): Locator => page.getByRole("status", { name: "Automatic compaction" });

/**
 * Queue the reply, send `text`, and wait until that reply is on screen and nothing streams. (The
 * list is virtualized: counting articles would miss the ones scrolled out of the DOM.)
 */
export async function exchange(
  page: Page,
  mock: MockServer,
  text: string,
  userMark: string,
  reply: ReplyScript,
  /** Text of the reply as rendered (Markdown formatting gone); default: its first 40 characters. */
  shown = (reply.text ?? reply.chunks?.join("") ?? "").slice(0, 40),
) {
  mock.enqueue("openai", chatReply(userMark, reply));
  await send(page, text);
  await expect(messageWith(page, "assistant", shown)).toBeVisible({ timeout: 15_000 });
  await waitIdle(page);
}

/** Waits for the meter's exact count of the chat on screen and returns it. */
export async function exactTokens(page: Page): Promise<number> {
  // "current": the count of this very context (the last one stays on screen while a new one runs).
  await expect(meterBox(page)).toHaveAttribute("data-count", "current", { timeout: 10_000 });
  return Number(await meter(page).getAttribute("value"));
}

/**
 * Exchanges (user "(Ui) …", assistant "(Ai) …") until a reply takes the context over `threshold`
 * (by the meter's exact count) or automatic compaction starts. Returns how many were sent.
 */
export async function talkUntilOver(
  page: Page,
  mock: MockServer,
  threshold: number,
  replyWords = 300,
): Promise<number> {
  for (let i = 1; i <= 10; i++) {
    await exchange(page, mock, prose(`(U${i})`, 40), `(U${i})`, { text: prose(`(A${i})`, replyWords) });
    await expect
      .poll(
        async () =>
          (await autoStatus(page).count()) > 0 || (await meterBox(page).getAttribute("data-count")) === "current",
      )
      .toBe(true);
    if ((await autoStatus(page).count()) > 0) return i;
    if (Number(await meter(page).getAttribute("value")) > threshold) return i;
    // Under the threshold: nothing was summarized.
    expect(summarizerRequests(mock)).toHaveLength(0);
  }
  throw new Error(`the context never went over ${threshold} tokens`);
}

/**
 * Scroll the (virtualized) chat to its top or bottom, as a user does, so those rows are in the DOM.
 * The list tells the user's scrolling from its own by the input event before it (MessageList's
 * `userScrollAt`): a bare `scrollTop = 0` left it following the end, and the next rows to arrive (a
 * compaction card written meanwhile) took the view back down. Resolves once the list has seen the
 * scroll.
 */
export const scrollChat = (page: Page, to: "top" | "bottom"): Promise<void> =>
  page.locator(".message-scroll").evaluate(
    (el, where) =>
      new Promise<void>((seen) => {
        const target = where === "top" ? 0 : el.scrollHeight - el.clientHeight;
        el.dispatchEvent(new WheelEvent("wheel", { deltaY: where === "top" ? -120 : 120 }));
        if (Math.abs(el.scrollTop - target) < 1) return seen();
        el.addEventListener("scroll", () => seen(), { once: true });
        el.scrollTop = target;
      }),
    to,
  );
