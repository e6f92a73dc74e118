/**
 * Driving Grove like a user: open it, configure providers in Settings, send, wait for replies.
 * Every helper goes through the UI by accessible name (the UI contract).
 */
import type { Locator, Page } from "@playwright/test";
import { expect, type MockServer } from "./fixtures";
import { isChatTitleRequest } from "./mock-server/index";

export const ANTHROPIC_KEY = "sk-ant-test-key-123";
export const OPENAI_KEY = "sk-openai-test-key-456";

/**
 * Waits until no CSS transition or animation runs (the session drawer sliding after a resize), so a
 * screenshot shows where things settle. `getAnimations()` flushes pending style changes first, so a
 * transition that a resize just triggered counts as running.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
}

/** Hands a file to the "Import file" input, as the Import button's picker would. */
export async function importText(page: Page, name: string, text: string): Promise<void> {
  await page.getByLabel("Import file").setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(text) });
}

/**
 * Open Grove, set both providers to the mock with test keys, pick a model. "Generate chat titles" is
 * turned off unless `titles` is true: the specs written before it was on by default count requests
 * and name chats by their first words; a title request after the first reply would change both.
 */
export async function openConfigured(
  page: Page,
  mock: MockServer,
  opts: { model?: { provider: "anthropic" | "openai"; id: string }; titles?: boolean } = {},
): Promise<void> {
  await page.goto("/");
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  // Base URLs first: with a key and the default URL the app would ask the real provider for its models.
  await dialog.getByLabel("Anthropic base URL").fill(mock.anthropicBaseUrl);
  await dialog.getByLabel("OpenAI base URL").fill(mock.openaiBaseUrl);
  await dialog.getByLabel("Anthropic API key").fill(ANTHROPIC_KEY);
  await dialog.getByLabel("OpenAI API key").fill(OPENAI_KEY);
  await dialog.getByRole("checkbox", { name: "Generate chat titles" }).setChecked(opts.titles === true);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  const model = opts.model ?? { provider: "anthropic", id: "claude-sonnet-4-5" };
  await chooseModel(page, model.provider, model.id);
}

/** The chat's model picker: a combobox whose `data-model` is the model in use ("provider::model id"). */
export const modelBox = (page: Page): Locator => page.getByRole("combobox", { name: "Model" });

/** Opens the model picker and types `search`: its listbox "Models", filtered. */
export async function searchModels(page: Page, search: string): Promise<Locator> {
  const box = modelBox(page);
  await box.click();
  await box.fill(search);
  const list = page.getByRole("listbox", { name: "Models" });
  await expect(list).toBeVisible();
  return list;
}

export async function chooseModel(page: Page, provider: string, modelId: string): Promise<void> {
  const list = await searchModels(page, modelId);
  await list.locator(`[role="option"][data-value="${provider}::${modelId}"]`).click();
  await expect(modelBox(page)).toHaveAttribute("data-model", `${provider}::${modelId}`);
}

/** Chooses the model whose name (or, for one Grove does not know, id) is `label`. */
export async function chooseModelNamed(page: Page, label: string): Promise<void> {
  const list = await searchModels(page, label);
  await list
    .getByRole("option")
    .filter({
      has: page.locator(".model-option-label", {
        hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`),
      }),
    })
    .first()
    .click();
  await expect(list).toBeHidden();
}

/** Type a message and press Enter. Does not wait for the reply. */
export async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

/** Send and wait until the reply to it is finished (written, no longer streaming). */
export async function sendAndWait(page: Page, text: string): Promise<void> {
  const before = await assistantMessages(page).count();
  await send(page, text);
  await expect(assistantMessages(page)).toHaveCount(before + 1, { timeout: 15_000 });
  await waitIdle(page);
}

/** Waits until no reply is streaming. */
export async function waitIdle(page: Page): Promise<void> {
  await expect(page.locator('article[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
  await expect(page.getByRole("button", { name: "Stop", exact: true })).toHaveCount(0);
}

export const userMessages = (page: Page) => page.getByRole("article", { name: /^User message/ });
/** Finished assistant messages (the one streaming is left out). */
export const assistantMessages = (page: Page) =>
  page.locator('article[aria-label^="Assistant message"]:not([aria-busy="true"])');
export const streamingMessage = (page: Page) => page.locator('article[aria-busy="true"]');

/** The context meter in the header. */
export const meter = (page: Page): Locator => page.getByRole("meter", { name: "Context usage" });
/** The meter's box: its text ("≈" while an estimate), its tooltip (`title`) and its Compact button. */
export const meterBox = (page: Page): Locator => meter(page).locator("..");

/** Requests to the model's endpoint: Messages, Chat Completions or Responses (model-list calls left out). */
function modelRequests(mock: MockServer, api: "anthropic" | "openai") {
  return mock
    .requests({ api })
    .filter((r) => r.method === "POST" && /\/(messages|chat\/completions|responses)$/.test(r.path));
}

/**
 * Chat requests the app sent: Messages, Chat Completions or Responses, without model-list calls and
 * without the side request for a new chat's title ("Generate chat titles": `titleRequests`).
 */
export function chatRequests(mock: MockServer, api: "anthropic" | "openai") {
  return modelRequests(mock, api).filter((r) => !isChatTitleRequest(r));
}

/** The side requests for a new chat's title (known by Grove's title prompt, as the mock knows them). */
export function titleRequests(mock: MockServer, api: "anthropic" | "openai") {
  return modelRequests(mock, api).filter((r) => isChatTitleRequest(r));
}

/** Opens a message's "More actions" menu (the actions beyond Copy and Edit/Regenerate). */
export async function moreActions(message: Locator): Promise<Locator> {
  await message.hover();
  await message.getByRole("button", { name: "More actions" }).click();
  const menu = message.getByRole("menu", { name: "More actions" });
  await menu.waitFor();
  return menu;
}

/** Runs one of a message's actions from its "More actions" menu ("Rewind to here…", "Compact up to here", …). */
export async function messageAction(message: Locator, name: string): Promise<void> {
  const menu = await moreActions(message);
  await menu.getByRole("menuitem", { name, exact: true }).click();
}

/**
 * "Rewind to here…" on a message, without a summary: the "Rewind" dialog offers "No summary" when
 * there is something to summarize and a plain "Rewind" otherwise (never both).
 */
export async function rewindTo(message: Locator): Promise<void> {
  await messageAction(message, "Rewind to here…");
  const dialog = message.page().getByRole("dialog", { name: "Rewind" });
  await dialog.getByRole("button", { name: /^(No summary|Rewind)$/ }).click();
  await expect(dialog).toBeHidden();
}

/** Opens the chat's menu in the header ("Chat actions": Compact, Handoff, Chat prompt, Export). */
export async function openChatMenu(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "Chat actions" }).click();
  const menu = page.getByRole("menu", { name: "Chat actions" });
  await menu.waitFor();
  return menu;
}

/** Runs one item of the chat's header menu ("Compact", "Handoff", "Chat prompt", "Grove JSON", …). */
export async function chatAction(page: Page, name: string): Promise<void> {
  const menu = await openChatMenu(page);
  await menu.getByRole("menuitem", { name, exact: true }).click();
}

/** Opens the history graph: the header's button, or on a narrow screen the "Chat actions" menu's item. */
export async function openHistoryGraph(page: Page): Promise<void> {
  const button = page.getByRole("button", { name: "History graph", exact: true });
  if (await button.isVisible()) await button.click();
  else await chatAction(page, "History graph");
}

/** Opens every closed "Advanced" part of the Settings dialog (the token fields live there). */
export async function showAdvanced(dialog: Locator): Promise<void> {
  const closed = dialog.getByRole("button", { name: "Advanced", expanded: false });
  while ((await closed.count()) > 0) await closed.first().click();
}
