/**
 * Imports people actually have (issue 11, item 6), through the Import button's file chooser: a
 * ChatGPT export split into conversations-000.json / -001.json chosen together, the whole ChatGPT
 * export .zip, and a Claude.ai export (linear chats, attachments' extracted text shown); the same
 * Claude export again asks "Keep both" / "Skip".
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Page } from "@playwright/test";
import { strToU8, zipSync } from "fflate";
import { assistantMessages, openConfigured, userMessages } from "./app";
import { expect, test } from "./fixtures";

const FIXTURES = resolve(import.meta.dirname, "../../shared/fixtures/real-world");
const CLAUDE = resolve(import.meta.dirname, "../src/core/testing/fixtures/claude-export.json");
const SHOTS = "test-results/imports-more";

test.use({ actionTimeout: 10_000 });

const sessionLinks = (page: Page) => page.getByRole("navigation", { name: "Sessions" }).getByRole("link");
const importDialog = (page: Page) => page.getByRole("dialog", { name: "Import" });

type Upload = { name: string; mimeType: string; buffer: Buffer };

/** Chooses `files` in the picker the Import button opens, as a user would. */
async function choose(page: Page, files: Upload[]): Promise<void> {
  const [chooser] = await Promise.all([
    page.waitForEvent("filechooser"),
    page.getByRole("button", { name: "Import", exact: true }).click(),
  ]);
  expect(chooser.isMultiple()).toBe(true);
  await chooser.setFiles(files);
}

const json = (name: string, value: unknown): Upload => ({
  name,
  mimeType: "application/json",
  buffer: Buffer.from(JSON.stringify(value)),
});

/** The real-world ChatGPT conversation under another id and title. */
function conversation(id: string, title: string): unknown {
  const [conv] = JSON.parse(readFileSync(resolve(FIXTURES, "chatgpt-tree.json"), "utf8")) as Record<string, unknown>[];
  return { ...conv, id, conversation_id: id, title };
}

test("split ChatGPT files chosen together: every conversation of both is in the list", async ({ page, mock }) => {
  await openConfigured(page, mock);
  await choose(page, [
    json("conversations-000.json", [conversation("c1", "Split one"), conversation("c2", "Split two")]),
    json("conversations-001.json", [conversation("c3", "Split three")]),
  ]);
  await expect(sessionLinks(page)).toHaveCount(3);
  for (const title of ["Split one", "Split two", "Split three"]) {
    await expect(sessionLinks(page).filter({ hasText: title })).toHaveCount(1);
  }
});

test("split ChatGPT files dropped together on the window: one import of both", async ({ page, mock }) => {
  await openConfigured(page, mock);
  const files = [
    { name: "conversations-000.json", text: JSON.stringify([conversation("d1", "Dropped one")]) },
    { name: "conversations-001.json", text: JSON.stringify([conversation("d2", "Dropped two")]) },
  ];
  const dataTransfer = await page.evaluateHandle((files) => {
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(new File([f.text], f.name, { type: "application/json" }));
    return dt;
  }, files);
  await page.dispatchEvent("main", "dragenter", { dataTransfer });
  await page.dispatchEvent("main", "dragover", { dataTransfer });
  await page.dispatchEvent("main", "drop", { dataTransfer });
  await expect(page.getByText("Imported 2 chats from a ChatGPT export file.")).toBeVisible();
  await expect(sessionLinks(page)).toHaveCount(2);
  await expect(sessionLinks(page).filter({ hasText: "Dropped one" })).toHaveCount(1);
  await expect(sessionLinks(page).filter({ hasText: "Dropped two" })).toHaveCount(1);
});

test("a ChatGPT export .zip: its conversations are imported, the rest of the zip ignored", async ({ page, mock }) => {
  await openConfigured(page, mock);
  const zip = zipSync({
    "conversations.json": strToU8(JSON.stringify([conversation("z1", "From the zip")])),
    "chat.html": strToU8("<html><body>not imported</body></html>"),
    "user.json": strToU8('{"email":"a@example.com"}'),
  });
  await choose(page, [{ name: "chatgpt-export.zip", mimeType: "application/zip", buffer: Buffer.from(zip) }]);
  await expect(page.getByRole("heading", { name: "From the zip", level: 1 })).toBeVisible();
  await expect(userMessages(page)).toHaveText([/hi there/, /hi again/, /tell me a joke/]);
  await expect(sessionLinks(page)).toHaveCount(1);

  // A zip without a conversations file says so, and changes nothing.
  const photos = zipSync({ "photo.txt": strToU8("not a chat") });
  await choose(page, [{ name: "photos.zip", mimeType: "application/zip", buffer: Buffer.from(photos) }]);
  await expect(importDialog(page).getByRole("alert")).toContainText("photos.zip holds no conversations file");
  await importDialog(page).getByRole("button", { name: "OK" }).click();
  await expect(sessionLinks(page)).toHaveCount(1);
});

test("a Claude export: linear chats with their titles and messages, the attachment's text shown, the empty one left out; again: Keep both / Skip", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock);
  const claude: Upload = { name: "conversations.json", mimeType: "application/json", buffer: readFileSync(CLAUDE) };
  await choose(page, [claude]);
  // The third conversation has no messages: skipped, not imported as an empty chat, and said so.
  await expect(page.getByRole("status").filter({ hasText: "Imported 2 chats" })).toHaveText(
    'Imported 2 chats from a Claude export file · skipped 1 (no messages: "Untitled draft").',
  );
  await expect(sessionLinks(page)).toHaveCount(2);
  await sessionLinks(page).filter({ hasText: "Parsing CSV in Rust" }).click();
  await expect(page.getByRole("heading", { name: "Parsing CSV in Rust", level: 1 })).toBeVisible();
  await expect(userMessages(page)).toHaveText([/It stops at the second row/, /Here's a screenshot/]);
  await expect(assistantMessages(page)).toHaveText([/Use the csv crate/, /all three rows parsed/]);
  // The attachment's extracted text, in the first message, under its file name.
  await expect(userMessages(page).first()).toContainText("orders.csv");
  await expect(userMessages(page).first()).toContainText('2,Grace,"says ""hi"""');
  await expect(userMessages(page).last()).toContainText("[file: output.png — not in the export]");
  await userMessages(page).first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/claude-chat.png` });

  await sessionLinks(page).filter({ hasText: "Imported Claude conversation" }).click();
  await expect(userMessages(page)).toHaveText([/Say hello in French/]);
  await expect(assistantMessages(page)).toHaveText([/Bonjour/]);

  await choose(page, [claude]);
  // The question first: when it does not come, the failure shows what the dialog says instead.
  await expect(importDialog(page)).toContainText("2 chats in conversations.json are already here");
  await expect(importDialog(page).getByRole("listitem")).toHaveText([
    "Parsing CSV in Rust",
    "Imported Claude conversation",
  ]);
  await expect(importDialog(page).getByRole("button", { name: "Keep both" })).toBeVisible();
  await importDialog(page).getByRole("button", { name: "Skip" }).click();
  await expect(
    page.getByText(
      'Nothing imported: every chat in the file is already here · skipped 1 (no messages: "Untitled draft").',
    ),
  ).toBeVisible();
  await expect(sessionLinks(page)).toHaveCount(2);
});
