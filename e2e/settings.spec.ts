/**
 * Settings that change what the app sends: the global and per-chat system prompt, the model
 * (registry, "Other" free text, the provider's /models list), the context meter's window, and a
 * custom OpenAI-compatible provider without a key.
 */
import type { Page } from "@playwright/test";
import {
  ANTHROPIC_KEY,
  chatAction,
  chatRequests,
  chooseModel,
  chooseModelNamed,
  meter,
  meterBox,
  modelBox,
  OPENAI_KEY,
  openConfigured,
  searchModels,
  sendAndWait,
} from "./app";
import { lastChat, message, meterRange, systemOf, turns, user } from "./branching-helpers";
import { expect, test } from "./fixtures";
import { requestMessages } from "./mock-server/index";

async function openSettings(page: Page) {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function setGlobalPrompt(page: Page, text: string): Promise<void> {
  const dialog = await openSettings(page);
  await dialog.getByRole("textbox", { name: "System prompt", exact: true }).fill(text);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
}

/** Opens "Chat prompt", sets (text) or clears (null) the chat's own system prompt, saves. */
async function setChatPrompt(page: Page, text: string | null): Promise<void> {
  await chatAction(page, "Chat prompt");
  const dialog = page.getByRole("dialog", { name: "Chat system prompt" });
  const own = dialog.getByRole("checkbox");
  if (text === null) {
    await own.uncheck();
    await expect(dialog.getByRole("textbox", { name: "Session system prompt" })).toHaveCount(0);
  } else {
    await own.check();
    await dialog.getByRole("textbox", { name: "Session system prompt" }).fill(text);
  }
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
}

test.describe("system prompt", () => {
  test("Anthropic: the global prompt is sent as `system`; a chat's own prompt replaces it for that chat only", async ({
    page,
    mock,
  }) => {
    await openConfigured(page, mock);
    await setGlobalPrompt(page, "You are a terse botanist.");
    await sendAndWait(page, "What is moss?");
    expect((lastChat(mock).body as { system?: unknown }).system).toBeDefined();
    expect(systemOf(lastChat(mock))).toBe("You are a terse botanist.");
    // The prompt is not also smuggled in as a message.
    expect(turns(lastChat(mock))).toEqual([user("What is moss?")]);
    const mossUrl = page.url();

    // This chat's own prompt: the dialog starts from the global one.
    await chatAction(page, "Chat prompt");
    const dialog = page.getByRole("dialog", { name: "Chat system prompt" });
    await expect(dialog.getByRole("checkbox")).not.toBeChecked();
    await dialog.getByRole("checkbox").check();
    await expect(dialog.getByRole("textbox", { name: "Session system prompt" })).toHaveValue(
      "You are a terse botanist.",
    );
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await setChatPrompt(page, "Answer only in French.");
    await sendAndWait(page, "And lichen?");
    expect(systemOf(lastChat(mock))).toBe("Answer only in French.");
    expect(systemOf(lastChat(mock))).not.toContain("botanist");

    // Another chat still gets the global prompt.
    await page.getByRole("button", { name: "New chat" }).click();
    await sendAndWait(page, "What is fern?");
    expect(systemOf(lastChat(mock))).toBe("You are a terse botanist.");
    expect(turns(lastChat(mock))).toEqual([user("What is fern?")]);

    // The override is stored with its chat: it survives a reload, and shows as set.
    await page.goto(mossUrl);
    await page.reload();
    await expect(message(page, "user", "And lichen?")).toBeVisible();
    await chatAction(page, "Chat prompt");
    await expect(dialog.getByRole("checkbox")).toBeChecked();
    await expect(dialog.getByRole("textbox", { name: "Session system prompt" })).toHaveValue("Answer only in French.");
    await dialog.getByRole("button", { name: "Close" }).click();
    await sendAndWait(page, "And algae?");
    expect(systemOf(lastChat(mock))).toBe("Answer only in French.");

    // Changing the global prompt does not touch a chat with its own…
    await setGlobalPrompt(page, "You are a patient gardener.");
    await sendAndWait(page, "And liverworts?");
    expect(systemOf(lastChat(mock))).toBe("Answer only in French.");

    // …and clearing the chat's own prompt brings the (current) global one back.
    await setChatPrompt(page, null);
    await sendAndWait(page, "And hornworts?");
    expect(systemOf(lastChat(mock))).toBe("You are a patient gardener.");
  });

  test("OpenAI: the global prompt is the first, system-role message", async ({ page, mock }) => {
    await openConfigured(page, mock, { model: { provider: "openai", id: "gpt-4o" } });
    await setGlobalPrompt(page, "Reply in one sentence.");
    await sendAndWait(page, "Why are leaves green?");
    const req = lastChat(mock, "openai");
    expect(requestMessages(req).map(({ role, text }) => ({ role, text }))).toEqual([
      { role: "system", text: "Reply in one sentence." },
      { role: "user", text: "Why are leaves green?" },
    ]);

    await setChatPrompt(page, "Reply in two sentences.");
    await sendAndWait(page, "Why are they red in autumn?");
    const again = requestMessages(lastChat(mock, "openai"));
    expect(again.filter((m) => m.role === "system" || m.role === "developer")).toEqual([
      expect.objectContaining({ role: "system", text: "Reply in two sentences." }),
    ]);
    expect(again[0]?.role).toBe("system");
  });

  test("an empty global prompt sends no system prompt at all", async ({ page, mock }) => {
    await openConfigured(page, mock);
    await sendAndWait(page, "Hello");
    expect(systemOf(lastChat(mock))).toBe("");
  });
});

test.describe("models", () => {
  test("the Model list has the registry, the provider's /models list and free-text ids, and the request uses the choice", async ({
    page,
    mock,
  }) => {
    mock.config({ models: { anthropic: ["claude-sonnet-4-5", "claude-listed-by-provider"] } });
    await openConfigured(page, mock);
    // Registry models of both built-in providers.
    const list = await searchModels(page, "");
    for (const id of [
      "anthropic::claude-sonnet-4-5",
      "anthropic::claude-haiku-4-5",
      "openai::gpt-4o",
      "openai::gpt-4.1",
    ]) {
      await expect(list.locator(`[data-value="${id}"]`)).toHaveCount(1);
    }
    // What the provider's GET /v1/models answered (not in the registry).
    await expect(list.locator('[data-value="anthropic::claude-listed-by-provider"]')).toHaveCount(1);
    await page.keyboard.press("Escape");
    await expect(list).toBeHidden();
    expect(mock.requests({ api: "anthropic" }).some((r) => r.method === "GET" && r.path.endsWith("/v1/models"))).toBe(
      true,
    );

    await chooseModel(page, "anthropic", "claude-listed-by-provider");
    await sendAndWait(page, "Which model are you?");
    expect((lastChat(mock).body as { model: string }).model).toBe("claude-listed-by-provider");

    // "Other …": any id, typed.
    const box = modelBox(page);
    await (await searchModels(page, "other anthropic"))
      .getByRole("option", { name: /^Other Anthropic model id…/ })
      .click();
    const idBox = page.getByRole("textbox", { name: "Model id" });
    await idBox.fill("claude-private-preview-9");
    await page.getByRole("button", { name: "Use" }).click();
    await expect(box).toHaveAttribute("data-model", "anthropic::claude-private-preview-9");
    await expect(idBox).toHaveCount(0);
    await sendAndWait(page, "And now?");
    expect((lastChat(mock).body as { model: string }).model).toBe("claude-private-preview-9");
    expect(turns(lastChat(mock)).map((t) => t.text)).toEqual([
      "Which model are you?",
      "Echo: Which model are you?",
      "And now?",
    ]);

    // The chat remembers its model, and the typed id stays in the list, after a reload.
    await page.reload();
    await expect(box).toHaveAttribute("data-model", "anthropic::claude-private-preview-9");
    await chooseModel(page, "anthropic", "claude-sonnet-4-5");
    await expect(
      (await searchModels(page, "preview")).locator('[data-value="anthropic::claude-private-preview-9"]'),
    ).toHaveCount(1);
    await page.keyboard.press("Escape");
    await sendAndWait(page, "Back to Sonnet");
    expect((lastChat(mock).body as { model: string }).model).toBe("claude-sonnet-4-5");
  });

  test("the context meter's maximum is the model's window; an unknown id is marked as an assumed 128k", async ({
    page,
    mock,
  }) => {
    await openConfigured(page, mock);
    await sendAndWait(page, "Measure me");
    await expect(meter(page)).toHaveAttribute("max", "200000");
    expect((await meterRange(page, "Context usage")).max).toBe(200_000);
    const meterArea = meterBox(page);
    await expect(meterArea).toContainText("/ 200k");
    await expect(meterArea).not.toContainText("assumed");

    await chooseModel(page, "openai", "gpt-4.1");
    await expect(meter(page)).toHaveAttribute("max", "1047576");
    expect((await meterRange(page, "Context usage")).max).toBe(1_047_576);

    await (await searchModels(page, "other openai")).getByRole("option", { name: /^Other OpenAI model id…/ }).click();
    await page.getByRole("textbox", { name: "Model id" }).fill("mystery-model-x");
    await page.getByRole("textbox", { name: "Model id" }).press("Enter");
    await expect(modelBox(page)).toHaveAttribute("data-model", "openai::mystery-model-x");
    await expect(meter(page)).toHaveAttribute("max", "128000");
    expect((await meterRange(page, "Context usage")).max).toBe(128_000);
    await expect(meterArea).toContainText("assumed");
    await expect(meterArea).toContainText("/ 128k");
    await expect(meterArea.locator("[title]").filter({ hasText: "assumed" })).toHaveAttribute(
      "title",
      /128k window assumed/,
    );

    // Back to a known model: the marking goes.
    await chooseModel(page, "anthropic", "claude-sonnet-4-5");
    await expect(meterArea).not.toContainText("assumed");
    expect((await meterRange(page, "Context usage")).max).toBe(200_000);
  });
});

test.describe("custom provider", () => {
  test("an OpenAI-compatible provider without a key can be added, chosen and chatted with", async ({ page, mock }) => {
    await openConfigured(page, mock);
    const dialog = await openSettings(page);
    await dialog.getByRole("button", { name: "Add a provider" }).click();
    await dialog.getByRole("textbox", { name: "Provider name" }).fill("Local Llama");
    await dialog.getByRole("combobox", { name: "API type" }).selectOption({
      label: "OpenAI-compatible (Chat Completions)",
    });
    await dialog.getByRole("textbox", { name: "Base URL", exact: true }).fill(mock.openaiBaseUrl);
    await expect(dialog.getByLabel("API key (optional)", { exact: true })).toHaveValue("");
    await dialog.getByRole("textbox", { name: "Model ids" }).fill("llama-e2e-8b, qwen-e2e-7b");
    await dialog.getByRole("button", { name: "Add provider" }).click();
    // The provider now has its own block in Settings.
    await expect(dialog.getByLabel("Local Llama base URL")).toHaveValue(mock.openaiBaseUrl);
    await expect(dialog.getByLabel("Local Llama model ids")).toHaveValue("llama-e2e-8b, qwen-e2e-7b");
    await dialog.getByRole("button", { name: "Close" }).click();

    const group = (await searchModels(page, "")).getByRole("group", { name: "Local Llama" });
    await expect(group.locator('[data-value$="::llama-e2e-8b"]')).toHaveCount(1);
    await expect(group.locator('[data-value$="::qwen-e2e-7b"]')).toHaveCount(1);
    await page.keyboard.press("Escape");
    await chooseModelNamed(page, "llama-e2e-8b");
    await expect(modelBox(page)).toHaveAttribute("data-model", /^custom-[^:]+::llama-e2e-8b$/);

    mock.enqueue("openai", { text: "Hello from the local model." });
    await sendAndWait(page, "Hi, local model");
    await expect(message(page, "assistant", "Hello from the local model.")).toBeVisible();
    await expect(message(page, "assistant", "Hello from the local model.")).toContainText("llama-e2e-8b");

    const req = lastChat(mock, "openai");
    expect(req.path).toBe("/openai/v1/chat/completions");
    expect(req.body).toMatchObject({ model: "llama-e2e-8b", stream: true });
    expect(turns(req)).toEqual([user("Hi, local model")]);
    // Neither built-in key leaves for a provider that has none of its own.
    const auth = `${req.headers.authorization ?? ""} ${req.headers["x-api-key"] ?? ""}`;
    expect(auth).not.toContain(OPENAI_KEY);
    expect(auth).not.toContain(ANTHROPIC_KEY);
    expect(chatRequests(mock, "anthropic")).toHaveLength(0);

    // The choice and the provider survive a reload.
    await page.reload();
    await expect(modelBox(page)).toHaveAttribute("data-model", /^custom-[^:]+::llama-e2e-8b$/);
    // The chat is drawn again before sending: sendAndWait counts the replies on screen.
    await expect(message(page, "assistant", "Hello from the local model.")).toBeVisible();
    await sendAndWait(page, "Still there?");
    expect((lastChat(mock, "openai").body as { model: string }).model).toBe("llama-e2e-8b");
    expect(chatRequests(mock, "openai")).toHaveLength(2);
  });
});

/**
 * A fake provider host (the browser never reaches it): answers CORS preflights and `GET …/models`,
 * recording each request's URL and Authorization header.
 */
async function fakeHost(page: Page, origin: string, models: string[]) {
  const seen: { url: string; method: string; auth: string }[] = [];
  await page.route(`${origin}/**`, (route) => {
    const req = route.request();
    const headers = req.headers();
    seen.push({ url: req.url(), method: req.method(), auth: headers.authorization ?? "" });
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "GET, POST, OPTIONS",
      "access-control-allow-headers": headers["access-control-request-headers"] ?? "*",
    };
    if (req.method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors });
    return route.fulfill({
      status: 200,
      headers: { ...cors, "content-type": "application/json" },
      body: JSON.stringify({
        object: "list",
        data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "test" })),
      }),
    });
  });
  return seen;
}

test.describe("a key goes only to the host the user confirmed for it", () => {
  test("a key typed before its new base URL never reaches the old host", async ({ page, mock }) => {
    const NEW_KEY = "sk-or-v1-brand-new-key-0001";
    const router = await fakeHost(page, "https://router.example.test", ["router-model-1"]);
    await page.goto("/");
    const dialog = await openSettings(page);
    // The OpenAI block points at the mock (the "old host"), without a key yet; focus moves on.
    await dialog.getByLabel("OpenAI base URL").fill(mock.openaiBaseUrl);
    await dialog.getByRole("textbox", { name: "System prompt", exact: true }).click();
    await expect(dialog.getByRole("button", { name: "Save OpenAI" })).toBeDisabled();

    // A user pasting their OpenRouter details: the key first, then its base URL.
    await dialog.getByLabel("OpenAI API key").fill(NEW_KEY);
    await dialog.getByLabel("OpenAI base URL").fill("https://router.example.test/api/v1");
    await expect(dialog.getByText("The key is sent only to router.example.test.")).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();

    // The committed pair is listed: the new host is asked, with the new key…
    await expect
      .poll(() => router.filter((r) => r.method === "GET" && r.url.endsWith("/models") && r.auth.includes(NEW_KEY)))
      .toHaveLength(1);
    await expect((await searchModels(page, "")).locator('[data-value="openai::router-model-1"]')).toHaveCount(1);
    await page.keyboard.press("Escape");
    // …and the old host never saw the key, not even in a preflight.
    const leaked = mock.requests({ includePreflight: true }).filter((r) => JSON.stringify(r.headers).includes(NEW_KEY));
    expect(leaked).toEqual([]);
  });

  test("a custom provider's base URL cannot be cleared: nothing falls back to an official host", async ({
    page,
    mock,
  }) => {
    const openaiSeen = await fakeHost(page, "https://api.openai.com", []);
    const anthropicSeen = await fakeHost(page, "https://api.anthropic.com", []);
    await page.goto("/");
    const dialog = await openSettings(page);
    await dialog.getByRole("button", { name: "Add a provider" }).click();
    await dialog.getByRole("textbox", { name: "Provider name" }).fill("Local Llama");
    await dialog.getByRole("textbox", { name: "Base URL", exact: true }).fill(mock.openaiBaseUrl);
    await dialog.getByLabel("API key (optional)", { exact: true }).fill("local-secret-key-1");
    await dialog.getByRole("textbox", { name: "Model ids" }).fill("llama-e2e-8b");
    await dialog.getByRole("button", { name: "Add provider" }).click();
    const url = dialog.getByLabel("Local Llama base URL");
    await expect(url).toHaveValue(mock.openaiBaseUrl);

    await url.fill("");
    await expect(dialog.getByRole("alert")).toHaveText("Local Llama needs a base URL: without one nothing is sent.");
    await expect(dialog.getByRole("button", { name: "Save Local Llama" })).toBeDisabled();
    await url.press("Enter");
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(page.getByText(/Local Llama was not saved: Local Llama needs a base URL/)).toBeVisible();

    // The provider keeps the URL it had, and chats through it.
    await chooseModelNamed(page, "llama-e2e-8b");
    mock.enqueue("openai", { text: "Still local." });
    await sendAndWait(page, "Where are you?");
    expect(lastChat(mock, "openai").headers.authorization).toContain("local-secret-key-1");
    expect([...openaiSeen, ...anthropicSeen]).toEqual([]);
  });

  test("plain http:// to a host outside this machine is used only after the user confirms it", async ({ page }) => {
    const KEY = "sk-lan-key-000111222";
    const lan = await fakeHost(page, "http://llm.example.test", ["lan-model-1"]);
    await page.goto("/");
    const dialog = await openSettings(page);
    await dialog.getByLabel("OpenAI API key").fill(KEY);
    await dialog.getByLabel("OpenAI base URL").fill("http://llm.example.test/v1");
    const warning = dialog.getByRole("note").filter({ hasText: "http://llm.example.test" });
    await expect(warning).toContainText("unencrypted");
    const save = dialog.getByRole("button", { name: "Save OpenAI" });
    await expect(save).toBeDisabled();
    // Leaving the block does not save it either.
    await dialog.getByRole("textbox", { name: "System prompt", exact: true }).click();
    const confirm = dialog.getByRole("checkbox", {
      name: "Send the key and chats to http://llm.example.test unencrypted",
    });
    await expect(confirm).not.toBeChecked();
    expect(lan).toEqual([]);

    await confirm.check();
    await save.click();
    await expect
      .poll(() => lan.filter((r) => r.method === "GET" && r.url.endsWith("/v1/models") && r.auth.includes(KEY)))
      .toHaveLength(1);
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect((await searchModels(page, "")).locator('[data-value="openai::lan-model-1"]')).toHaveCount(1);
    await page.keyboard.press("Escape");

    // The confirmation is stored with the provider, for that origin.
    await page.reload();
    const again = await openSettings(page);
    await expect(again.getByLabel("OpenAI base URL")).toHaveValue("http://llm.example.test/v1");
    await expect(
      again.getByRole("checkbox", { name: "Send the key and chats to http://llm.example.test unencrypted" }),
    ).toBeChecked();
  });
});
