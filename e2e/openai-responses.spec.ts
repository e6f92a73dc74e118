/**
 * OpenAI through the Responses API (issue 10, item 1): the built-in OpenAI provider streams via
 * `POST /v1/responses`; a reasoning reply's summary shows like thinking; its reasoning item (id +
 * encrypted content) goes back verbatim on the next turn to the same provider, and never to another
 * one (Claude, or a second provider that also speaks Responses). Adding a provider offers the three
 * API types; OpenAI-compatible providers keep Chat Completions (settings.spec.ts).
 */
import type { Page } from "@playwright/test";
import { chatRequests, chooseModel, chooseModelNamed, openConfigured, sendAndWait } from "./app";
import { assistant, lastChat, message, turns, user } from "./branching-helpers";
import { expect, test } from "./fixtures";
import { type RecordedRequest, requestMessages } from "./mock-server/index";
import { encryptedReasoning } from "./mock-server/openai-responses";

const THINKING = "The user asks about tides. Noon fits the table.";

type InputItem = { type?: string; role?: string; id?: string; encrypted_content?: string; summary?: unknown };
const inputOf = (req: RecordedRequest): InputItem[] => (req.body as { input: InputItem[] }).input;
const reasoningItems = (req: RecordedRequest) => inputOf(req).filter((i) => i.type === "reasoning");

async function openSettings(page: Page) {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("a GPT reasoning chat: summary shown like thinking, the encrypted reasoning item sent back verbatim, never to Claude", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock, { model: { provider: "openai", id: "gpt-5" } });
  mock.enqueue("openai", { thinking: THINKING, text: "High tide is at noon." });
  await sendAndWait(page, "When is high tide?");

  // The first request speaks Responses: stateless, asking for the encrypted reasoning.
  const [first] = chatRequests(mock, "openai");
  expect(first?.path).toBe("/openai/v1/responses");
  expect(first?.body).toMatchObject({
    model: "gpt-5",
    stream: true,
    store: false,
    include: ["reasoning.encrypted_content"],
  });

  // The summary is shown like thinking: collapsed, outside the answer text.
  const reply = message(page, "assistant", "High tide is at noon.");
  const details = reply.locator("details.thinking");
  await expect(details).toHaveCount(1);
  await expect(details.locator("summary")).toHaveText("Thinking");
  await expect(reply.getByText("Noon fits the table.")).toBeHidden();
  await details.locator("summary").click();
  await expect(reply.getByText("Noon fits the table.")).toBeVisible();
  await expect(reply.locator(".message-body > :not(details)")).not.toContainText("Noon fits");
  await page.screenshot({ path: "test-results/e2e-artifacts/openai-responses-reasoning.png" });

  // Second turn: the first reply's reasoning item travels back verbatim, before its text.
  mock.enqueue("openai", { text: "Low tide is at six." });
  await sendAndWait(page, "And low tide?");
  const second = lastChat(mock, "openai");
  expect(second.status).toBe(200); // the mock verifies the encrypted content it issued
  const items = reasoningItems(second);
  expect(items).toHaveLength(1);
  const id = items[0]?.id ?? "";
  expect(id).toMatch(/^rs_/);
  expect(items[0]).toEqual({
    type: "reasoning",
    id,
    summary: [{ type: "summary_text", text: THINKING }],
    encrypted_content: encryptedReasoning(id, THINKING),
  });
  expect(inputOf(second).map((i) => i.type)).toEqual(["message", "reasoning", "message", "message"]);
  expect(turns(second)).toEqual([
    user("When is high tide?"),
    assistant("High tide is at noon."),
    user("And low tide?"),
  ]);

  // Switch the chat to Claude: the Anthropic request holds no OpenAI reasoning, in any form.
  await chooseModel(page, "anthropic", "claude-sonnet-4-5");
  mock.enqueue("anthropic", { text: "Tides follow the moon." });
  await sendAndWait(page, "Why?");
  const claude = lastChat(mock, "anthropic");
  const wire = JSON.stringify(claude.body);
  expect(wire).not.toContain(id);
  expect(wire).not.toContain(encryptedReasoning(id, THINKING));
  expect(wire).not.toContain("Noon fits the table");
  expect(requestMessages(claude).map((m) => m.blockTypes)).toEqual([["text"], ["text"], ["text"], ["text"], ["text"]]);
  expect(turns(claude)).toEqual([
    user("When is high tide?"),
    assistant("High tide is at noon."),
    user("And low tide?"),
    assistant("Low tide is at six."),
    user("Why?"),
  ]);

  // Back to GPT: the item is still there for its own provider.
  await chooseModel(page, "openai", "gpt-5");
  mock.enqueue("openai", { text: "Yes." });
  await sendAndWait(page, "Back to you, GPT.");
  expect(reasoningItems(lastChat(mock, "openai")).map((i) => i.id)).toEqual([id]);
});

test("adding a provider offers the three API types; one added as OpenAI Responses streams via /v1/responses and gets no other provider's reasoning", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock, { model: { provider: "openai", id: "gpt-5" } });
  mock.enqueue("openai", { thinking: THINKING, text: "High tide is at noon." });
  await sendAndWait(page, "When is high tide?");

  const dialog = await openSettings(page);
  await dialog.getByRole("button", { name: "Add a provider" }).click();
  const apiType = dialog.getByRole("combobox", { name: "API type" });
  await expect(apiType.locator("option")).toHaveText([
    "Anthropic",
    "OpenAI Responses",
    "OpenAI-compatible (Chat Completions)",
  ]);
  // OpenRouter, Ollama, LM Studio speak Chat Completions: the default.
  await expect(apiType).toHaveValue("openai-chat");
  await dialog.getByRole("textbox", { name: "Provider name" }).fill("Team OpenAI");
  await apiType.selectOption({ label: "OpenAI Responses" });
  await dialog.getByRole("textbox", { name: "Base URL", exact: true }).fill(mock.openaiBaseUrl);
  await dialog.getByLabel("API key (optional)", { exact: true }).fill("sk-team-key-789");
  await dialog.getByRole("textbox", { name: "Model ids" }).fill("gpt-5-team");
  await dialog.getByRole("button", { name: "Add provider" }).click();
  await expect(dialog.getByText("(OpenAI Responses)")).toHaveCount(1);
  await dialog.getByRole("button", { name: "Close" }).click();

  await chooseModelNamed(page, "gpt-5-team");
  mock.enqueue("openai", { text: "Team answer." });
  await sendAndWait(page, "Same question, team account.");
  const req = lastChat(mock, "openai");
  expect(req.path).toBe("/openai/v1/responses");
  expect(req.body).toMatchObject({ model: "gpt-5-team", store: false });
  // Same api, another provider: the built-in OpenAI's encrypted reasoning stays home.
  expect(reasoningItems(req)).toEqual([]);
  expect(turns(req)).toEqual([
    user("When is high tide?"),
    assistant("High tide is at noon."),
    user("Same question, team account."),
  ]);
});
