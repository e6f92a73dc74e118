/**
 * Attachments (issue 11, item 1), end to end against the mock provider: files picked, pasted or
 * dropped show as chips (preview, token cost, Remove); an image and a PDF reach each wire format in
 * its own block type (Anthropic image/document blocks with base64 sources, Responses input_image /
 * input_file, Chat Completions image_url / file parts); the sent message shows its attachments; a
 * chat with an image survives Grove JSON export → import into an empty browser, bytes and all; a
 * model that reads no images says so before anything is sent.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "@playwright/test";
import {
  chatAction,
  chatRequests,
  chooseModel,
  chooseModelNamed,
  openConfigured,
  send,
  sendAndWait,
  userMessages,
  waitIdle,
} from "./app";
import {
  attachmentItems,
  attachmentList,
  blobKeys,
  NOTE,
  PDF,
  PNG,
  pasteOrDrop,
  pickFiles,
} from "./attachments-helpers";
import { lastChat } from "./branching-helpers";
import { expect, type MockServer, test } from "./fixtures";

const SHOTS = "test-results/attachments";
const PNG_B64 = PNG.buffer.toString("base64");
const PDF_B64 = PDF.buffer.toString("base64");

type Part = Record<string, unknown> & { type: string };
type Msg = { role: string; content: string | Part[] };

/** The content parts of the last user message of a recorded request (Messages, Chat Completions or Responses). */
function lastUserParts(body: unknown): Part[] {
  const b = body as { messages?: Msg[]; input?: Msg[] };
  const list = (b.messages ?? b.input ?? []).filter((m) => m.role === "user");
  const last = list[list.length - 1];
  if (!last) return [];
  return typeof last.content === "string" ? [{ type: "text", text: last.content }] : last.content;
}

async function sendWithAttachments(page: Page, text: string): Promise<void> {
  const before = await userMessages(page).count();
  await send(page, text);
  await expect(userMessages(page)).toHaveCount(before + 1);
  await waitIdle(page);
}

test("Claude: picked image, PDF and text file show as chips with cost; Remove works; image and PDF go as image and document blocks", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock);
  await expect(page.getByRole("button", { name: "Attach files" })).toBeVisible();
  await pickFiles(page, [PNG, PDF, NOTE]);
  await expect(attachmentItems(page)).toHaveCount(3);
  const image = attachmentItems(page).filter({ hasText: PNG.name });
  // 96×64 px → 96·64/750 ≈ 9 tokens (Anthropic's rule); a one-page PDF ≈ 2,000.
  await expect(image).toContainText("≈9 tokens");
  await expect(attachmentItems(page).filter({ hasText: PDF.name })).toContainText("PDF");
  await expect(attachmentItems(page).filter({ hasText: PDF.name })).toContainText("≈2.0k tokens");
  await expect(image.locator("img")).toHaveJSProperty("naturalWidth", 96);
  await page.locator(".composer").screenshot({ path: `${SHOTS}/composer-chips.png` });

  await page.getByRole("button", { name: `Remove ${NOTE.name}` }).click();
  await expect(attachmentItems(page)).toHaveCount(2);
  await expect(attachmentList(page)).not.toContainText(NOTE.name);

  mock.enqueue("anthropic", { text: "The chart shows high tide at noon." });
  await sendWithAttachments(page, "What does the chart say?");
  await expect(attachmentList(page)).toHaveCount(0);

  const parts = lastUserParts(lastChat(mock, "anthropic").body);
  expect(parts).toEqual([
    { type: "text", text: "What does the chart say?" },
    { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_B64 } },
    { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF_B64 }, title: PDF.name },
  ]);

  // The sent message shows its image (opens larger) and its PDF as a chip.
  const sent = userMessages(page).last();
  const thumb = sent.getByRole("button", { name: `Open image ${PNG.name}` });
  await expect(thumb.locator("img")).toHaveJSProperty("naturalWidth", 96);
  await expect(sent).toContainText(PDF.name);
  await page.screenshot({ path: `${SHOTS}/sent-message.png` });
  await thumb.click();
  const large = page.getByRole("dialog", { name: PNG.name });
  await expect(large.getByRole("img", { name: PNG.name })).toBeVisible();
  await large.getByRole("button", { name: "Close" }).click();

  // A follow-up turn carries the earlier image again (it is part of the context).
  mock.enqueue("anthropic", { text: "Yes." });
  await sendAndWait(page, "Sure?");
  const request = lastChat(mock, "anthropic").body as { messages: Msg[] };
  const first = request.messages[0]?.content as Part[];
  expect(first.map((p) => p.type)).toEqual(["text", "image", "document"]);
});

test("OpenAI Responses: a pasted image goes as input_image, a dropped PDF as input_file", async ({ page, mock }) => {
  await openConfigured(page, mock, { model: { provider: "openai", id: "gpt-5" } });
  await pasteOrDrop(page, "paste", PNG);
  await pasteOrDrop(page, "drop", PDF);
  await expect(attachmentItems(page)).toHaveCount(2);
  // Dropped on the composer: attached, not imported.
  await expect(page.getByRole("dialog", { name: "Import" })).toHaveCount(0);

  mock.enqueue("openai", { text: "Noon." });
  await sendWithAttachments(page, "When is high tide?");
  const req = lastChat(mock, "openai");
  expect(req.path).toBe("/openai/v1/responses");
  expect(lastUserParts(req.body)).toEqual([
    { type: "input_text", text: "When is high tide?" },
    { type: "input_image", image_url: `data:image/png;base64,${PNG_B64}`, detail: "auto" },
    { type: "input_file", filename: PDF.name, file_data: `data:application/pdf;base64,${PDF_B64}` },
  ]);
});

test("Chat Completions: image as image_url, PDF as a file part", async ({ page, mock }) => {
  await openConfigured(page, mock);
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("button", { name: "Add a provider" }).click();
  await dialog.getByRole("textbox", { name: "Provider name" }).fill("Local Vision");
  await dialog
    .getByRole("combobox", { name: "API type" })
    .selectOption({ label: "OpenAI-compatible (Chat Completions)" });
  await dialog.getByRole("textbox", { name: "Base URL", exact: true }).fill(mock.openaiBaseUrl);
  await dialog.getByRole("textbox", { name: "Model ids" }).fill("vision-e2e");
  await dialog.getByRole("button", { name: "Add provider" }).click();
  await dialog.getByRole("button", { name: "Close" }).click();
  await chooseModelNamed(page, "vision-e2e");

  await pickFiles(page, [PNG, PDF]);
  await expect(attachmentItems(page)).toHaveCount(2);
  mock.enqueue("openai", { text: "Seen." });
  await sendWithAttachments(page, "Look");
  const req = lastChat(mock, "openai");
  expect(req.path).toBe("/openai/v1/chat/completions");
  expect(lastUserParts(req.body)).toEqual([
    { type: "text", text: "Look" },
    { type: "image_url", image_url: { url: `data:image/png;base64,${PNG_B64}` } },
    { type: "file", file: { filename: PDF.name, file_data: `data:application/pdf;base64,${PDF_B64}` } },
  ]);
});

test("a model that reads no images says so, and nothing is sent", async ({ page, mock }) => {
  mock.config({ models: { openai: ["gpt-4o", "o3-mini"] } });
  await openConfigured(page, mock, { model: { provider: "openai", id: "o3-mini" } });
  await pickFiles(page, [PNG]);
  await expect(attachmentItems(page)).toHaveCount(1);
  await expect(page.getByRole("alert")).toHaveText(/o3-mini cannot read images/);
  await page.locator(".composer").screenshot({ path: `${SHOTS}/no-image-model.png` });
  await page.getByRole("textbox", { name: "Message" }).fill("What is this?");
  await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
  await page.getByRole("textbox", { name: "Message" }).press("Enter");
  await expect(userMessages(page)).toHaveCount(0);
  expect(chatRequests(mock, "openai")).toHaveLength(0);

  // Another model that reads images: the message goes, image included.
  await chooseModel(page, "openai", "gpt-4o");
  await expect(page.getByRole("alert")).toHaveCount(0);
  mock.enqueue("openai", { text: "A gradient." });
  await sendWithAttachments(page, "What is this?");
  expect(lastUserParts(lastChat(mock, "openai").body).map((p) => p.type)).toEqual(["input_text", "input_image"]);
});

async function emptyBrowser(browser: Browser, mock: MockServer): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  await openConfigured(page, mock);
  return page;
}

test("an attachment survives Grove JSON export → import into an empty browser", async ({ page, browser, mock }) => {
  await openConfigured(page, mock);
  await pickFiles(page, [PNG]);
  await expect(attachmentItems(page)).toHaveCount(1);
  mock.enqueue("anthropic", { text: "A chart." });
  await sendWithAttachments(page, "Keep this chart");

  const [download] = await Promise.all([page.waitForEvent("download"), chatAction(page, "Grove JSON")]);
  const text = readFileSync(await download.path(), "utf8");
  const file = JSON.parse(text) as {
    sessions: Array<{ blobs?: Array<{ id: string; mimeType: string; data: string }> }>;
  };
  expect(file.sessions[0]?.blobs).toEqual([
    { id: expect.stringMatching(/^[0-9a-f]{64}$/), mimeType: "image/png", data: PNG_B64 },
  ]);

  const fresh = await emptyBrowser(browser, mock);
  await fresh
    .getByLabel("Import file")
    .setInputFiles({ name: "chart.grove.json", mimeType: "application/json", buffer: Buffer.from(text) });
  await expect(fresh.getByText("Imported “Keep this chart” from a Grove JSON file.")).toBeVisible();
  await fresh.getByRole("navigation", { name: "Sessions" }).getByRole("link").first().click();
  const thumb = userMessages(fresh)
    .first()
    .getByRole("button", { name: `Open image ${PNG.name}` });
  await expect(thumb.locator("img")).toHaveJSProperty("naturalWidth", 96);

  // The imported bytes are sent on: the next request carries the image.
  mock.enqueue("anthropic", { text: "Still here." });
  await sendAndWait(fresh, "Do you still see it?");
  const first = (lastChat(mock, "anthropic").body as { messages: Msg[] }).messages[0]?.content as Part[];
  expect(first[1]).toEqual({ type: "image", source: { type: "base64", media_type: "image/png", data: PNG_B64 } });
  await fresh.context().close();
});

test("the same file attached twice is stored once, under the SHA-256 of its bytes", async ({ page, mock }) => {
  await openConfigured(page, mock);
  await pickFiles(page, [PNG]);
  await pickFiles(page, [PNG]);
  await expect(attachmentItems(page)).toHaveCount(2);
  expect(await blobKeys(page)).toEqual([createHash("sha256").update(PNG.buffer).digest("hex")]);
});

test("a stored file whose bytes are HTML never renders at Grove's origin: its object URL is a download (issue 24.1)", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock);
  await pickFiles(page, [PNG]);
  await expect(attachmentItems(page)).toHaveCount(1);
  // A row as an older import stored it: HTML bytes under an image's block, typed text/html.
  const [id] = await blobKeys(page);
  await page.evaluate(async (key) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open("grove");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const store = db.transaction("blobs", "readwrite").objectStore("blobs");
    const row = await new Promise<Record<string, unknown>>((resolve) => {
      const req = store.get(key as string);
      req.onsuccess = () => resolve(req.result as Record<string, unknown>);
    });
    const html = "<html><body><script>localStorage.setItem('pwned', document.domain)</script></body></html>";
    store.put({ ...row, data: new Blob([html], { type: "text/html" }), mimeType: "text/html" });
    await new Promise((resolve) => {
      store.transaction.oncomplete = resolve;
    });
    db.close();
  }, id);
  await page.reload();
  const thumb = attachmentList(page).locator("img");
  await expect(thumb).toHaveAttribute("src", /^blob:/);
  // The URL the thumbnail (and "open in a new tab") uses is typed by the bytes: not HTML, a download.
  // (The page's CSP has no blob: in connect-src, so its type is read by what a click does: an HTML
  // URL would open and render; this one downloads.)
  const src = (await thumb.getAttribute("src")) ?? "";
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.evaluate((u) => {
      const a = document.createElement("a");
      a.href = u;
      document.body.append(a);
      a.click();
      a.remove();
    }, src),
  ]);
  expect(download.url()).toBe(src);
  expect(await page.evaluate(() => localStorage.getItem("pwned"))).toBeNull();
});

test("a pasted 1 MB log of 20,000 lines becomes a text file, and the page keeps answering (issue 24.10)", async ({
  page,
  mock,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await openConfigured(page, mock);
  const log = Array.from(
    { length: 20_000 },
    (_, i) => `${String(i).padStart(5, "0")} INFO worker ok ${"x".repeat(25)}`,
  );
  const text = log.join("\n");
  // A real paste (the clipboard, then Ctrl+V): the browser's own paste path is what froze.
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.focus();
  await page.keyboard.press("Control+V");
  await expect(attachmentItems(page)).toHaveCount(1);
  await expect(attachmentItems(page).first()).toContainText("pasted-text.txt");
  await expect(box).toHaveValue("");
  // The page answers and the box still takes typing (a 1 MB log is more than a model's window:
  // sending it is the context rules' business, not this test's).
  expect(await page.evaluate(() => document.querySelectorAll("textarea").length)).toBeGreaterThan(0);
  await box.pressSequentially("what went wrong?");
  await expect(box).toHaveValue("what went wrong?");
});
