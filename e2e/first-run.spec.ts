/**
 * Issue 12 item 1: the first five minutes. No key → the first-run card; "Test key" makes one cheap
 * request to the configured base URL and says what it found; a send without a key sends nothing
 * and says what to do; a chat's system prompt and model settings set before the first message
 * reach that first request.
 */
import { ANTHROPIC_KEY, chatRequests, send, sendAndWait, userMessages } from "./app";
import { expect, test } from "./fixtures";

const SHOTS = "test-results/e2e-artifacts";

test("first run: the card tests a good key and a rejected one against the provider, then saves it", async ({
  page,
  mock,
}) => {
  mock.config({ apiKey: ANTHROPIC_KEY, models: { anthropic: ["claude-sonnet-5-5", "claude-haiku-5-5"] } });
  await page.goto("/");
  const card = page.getByRole("region", { name: "Connect a model provider" });
  await expect(card).toBeVisible();
  await expect(card).toContainText("stored only in this browser");
  await page.screenshot({ path: `${SHOTS}/first-run-page.png` });
  await expect(card.getByRole("link", { name: "console.anthropic.com" })).toHaveAttribute(
    "href",
    /console\.anthropic\.com/,
  );

  // A send without a key: nothing is stored or sent, and the words say what to do.
  await send(page, "Hello?");
  await expect(page.getByText(/Nothing was sent: there is no Anthropic API key yet/)).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("Hello?");
  await expect(userMessages(page)).toHaveCount(0);
  expect(mock.requests()).toHaveLength(0);

  await card.getByText("Address (for a proxy or a local server)").click();
  await card.getByLabel("Base URL").fill(mock.anthropicBaseUrl);
  await card.getByLabel("API key").fill("sk-ant-wrong-key");
  await card.getByRole("button", { name: "Test key" }).click();
  const status = card.getByRole("status");
  await expect(status).toContainText("The API key was rejected (401)");

  await card.getByLabel("API key").fill(ANTHROPIC_KEY);
  await card.getByRole("button", { name: "Test key" }).click();
  await expect(status).toContainText("The key works: 2 models available (claude-haiku-5-5, claude-sonnet-5-5)");
  const listed = mock.requests({ api: "anthropic" }).filter((r) => r.method === "GET");
  // One cheap request per test: the model list, refused for the wrong key, answered for the right one.
  expect(listed.map((r) => [r.path, r.status])).toEqual([
    ["/anthropic/v1/models", 401],
    ["/anthropic/v1/models", 200],
  ]);
  await card.screenshot({ path: `${SHOTS}/first-run-card.png` });

  await card.getByRole("button", { name: "Save key" }).click();
  await expect(card).toBeHidden();
  await sendAndWait(page, "Hello?");
  const [req] = chatRequests(mock, "anthropic");
  expect(req?.body).toMatchObject({ model: "claude-sonnet-5-5" });
});

test("a system prompt and model settings set before the first message reach the first request", async ({
  page,
  mock,
}) => {
  mock.config({ apiKey: ANTHROPIC_KEY });
  await page.goto("/");
  const card = page.getByRole("region", { name: "Connect a model provider" });
  await card.getByText("Address (for a proxy or a local server)").click();
  await card.getByLabel("Base URL").fill(mock.anthropicBaseUrl);
  await card.getByLabel("API key").fill(ANTHROPIC_KEY);
  await card.getByRole("button", { name: "Save key" }).click();
  await expect(card).toBeHidden();

  await page.getByRole("button", { name: "Chat prompt" }).click();
  const promptDialog = page.getByRole("dialog", { name: "Chat system prompt" });
  await promptDialog.getByLabel("Use a system prompt just for this chat").check();
  await promptDialog.getByLabel("Session system prompt").fill("You are a pirate.");
  await promptDialog.getByLabel("Preset name").fill("Pirate");
  await promptDialog.getByRole("button", { name: "Add to presets" }).click();
  await promptDialog.getByRole("button", { name: "Save", exact: true }).click();
  await expect(promptDialog).toBeHidden();

  await page.getByRole("button", { name: "Model options" }).click();
  const params = page.getByRole("dialog", { name: "Model options" });
  await params.getByLabel("Max output tokens").fill("1234");
  await params.getByLabel("Thinking").selectOption("anthropic-adaptive:low");
  await params.screenshot({ path: `${SHOTS}/model-settings.png` });
  await params.getByRole("button", { name: "Save", exact: true }).click();
  await expect(params).toBeHidden();

  await sendAndWait(page, "Ahoy?");
  const [req] = chatRequests(mock, "anthropic");
  expect(req?.body).toMatchObject({
    system: "You are a pirate.",
    max_tokens: 1234,
    thinking: { type: "adaptive" },
    output_config: { effort: "low" },
  });

  // The chat keeps them: the next request carries them too, and the preset is offered for the next chat.
  await sendAndWait(page, "And now?");
  expect(chatRequests(mock, "anthropic")[1]?.body).toMatchObject({ system: "You are a pirate.", max_tokens: 1234 });
  await page.getByRole("button", { name: /New chat/ }).click();
  await page.getByRole("button", { name: "Chat prompt" }).click();
  const again = page.getByRole("dialog", { name: "Chat system prompt" });
  await again.getByLabel("Use a system prompt just for this chat").check();
  await again.getByLabel("Start from a preset").selectOption("Pirate");
  await expect(again.getByLabel("Session system prompt")).toHaveValue("You are a pirate.");
});
