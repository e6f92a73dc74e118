/**
 * The hostile-import series, then a send (issue 24 item 13: "after the hostile-import series a send
 * got no reply within 30 s"). In one page, as the adversarial pass did: a Grove JSON whose files
 * claim to be images but are HTML and SVG (one reusing the id of an attachment already here), a
 * file with a date of 1e300, a Claude export whose attachment is 300,000 backtick runs (twice: Keep
 * both), a ChatGPT export with a hostile title and an impossible date, and a truncated file. Then a
 * message sent in the chat on screen and in a new chat must each get the mock's reply, and nothing
 * hostile ran. (Before the 24.x fixes, the 1e300 file's import already blanked the page: the
 * series never reached the send. On today's code every send is answered.)
 */
import { createHash } from "node:crypto";
import type { Page } from "@playwright/test";
import { assistantMessages, importText, openConfigured, send, sendAndWait, waitIdle } from "./app";
import { attachmentItems, blobKeys, PNG, pickFiles } from "./attachments-helpers";
import { expect, test } from "./fixtures";

const importDialog = (page: Page) => page.getByRole("dialog", { name: "Import" });
const sessionLinks = (page: Page) => page.getByRole("navigation", { name: "Sessions" }).getByRole("link");
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const XSS = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;

function groveFile(id: string, title: string, createdAt: number, userContent: unknown[], blobs: unknown[] = []) {
  const session = { id, title, titleSource: "user", createdAt, updatedAt: createdAt, leafId: `${id}-a` };
  const user = {
    id: `${id}-u`,
    sessionId: id,
    parentId: null,
    createdAt,
    type: "message",
    role: "user",
    status: "complete",
    content: userContent,
  };
  const assistant = {
    id: `${id}-a`,
    sessionId: id,
    parentId: `${id}-u`,
    createdAt: 1_700_000_000_100,
    type: "message",
    role: "assistant",
    status: "complete",
    content: [{ type: "text", text: `${XSS}\n\n[click](javascript:window.__pwned=3)` }],
    provider: "anthropic",
    api: "anthropic-messages",
    model: "claude-sonnet-4-5",
    usage: { input: 10, output: 10 },
    stopReason: "end",
  };
  return JSON.stringify({
    format: "grove-session-export",
    version: 1,
    sessions: [{ session, entries: [user, assistant], labels: {}, blobs }],
  });
}

function claudeExport(): string {
  const at = "2025-03-14T09:12:04.002318Z";
  return JSON.stringify([
    {
      uuid: "c0ffee00-0000-4000-8000-000000000024",
      name: `Backticks ${XSS}`,
      created_at: at,
      updated_at: at,
      account: { uuid: "acc" },
      chat_messages: [
        {
          uuid: "c0ffee00-0000-4000-8000-000000000001",
          text: "What is in this file?",
          content: [{ type: "text", text: "What is in this file?" }],
          sender: "human",
          created_at: at,
          updated_at: at,
          attachments: [
            {
              file_name: "runs.txt",
              file_size: 600_000,
              file_type: "text/plain",
              extracted_content: "`x".repeat(300_000),
            },
          ],
          files: [],
        },
        {
          uuid: "c0ffee00-0000-4000-8000-000000000002",
          text: "Backticks.",
          content: [{ type: "text", text: "Backticks." }],
          sender: "assistant",
          created_at: at,
          updated_at: at,
          attachments: [],
          files: [],
        },
      ],
    },
  ]);
}

function chatgptExport(): string {
  const message = (id: string, role: string, text: string, create_time: number) => ({
    id,
    author: { role },
    create_time,
    content: { content_type: "text", parts: [text] },
    status: "finished_successfully",
    metadata: {},
  });
  return JSON.stringify([
    {
      title: `ChatGPT ${XSS}`,
      create_time: 1e300,
      update_time: 1e300,
      current_node: "m2",
      mapping: {
        root: { id: "root", message: null, parent: null, children: ["m1"] },
        m1: { id: "m1", parent: "root", children: ["m2"], message: message("m1", "user", XSS, 1e300) },
        m2: { id: "m2", parent: "m1", children: [], message: message("m2", "assistant", "Fine.", -1e300) },
      },
    },
  ]);
}

type Outcome = { chats: number } | "refused" | "keep both";

/** Imports one file, answers what the app asks, and waits until the import is over. */
async function importAndSettle(page: Page, name: string, text: string, outcome: Outcome): Promise<void> {
  const before = await sessionLinks(page).count();
  await importText(page, name, text);
  const dialog = importDialog(page);
  if (outcome === "refused") {
    await expect(dialog.getByRole("alert")).toContainText(name);
    await dialog.getByRole("button", { name: "OK" }).click();
  } else if (outcome === "keep both") {
    await dialog.getByRole("button", { name: "Keep both" }).click();
  }
  await expect(dialog).toHaveCount(0);
  const added = outcome === "refused" ? 0 : outcome === "keep both" ? 1 : outcome.chats;
  await expect(sessionLinks(page)).toHaveCount(before + added);
}

test("after the hostile-import series, a send in the chat on screen and in a new chat gets its reply (issue 24.13)", async ({
  page,
  mock,
}) => {
  test.slow();
  await openConfigured(page, mock);
  // An attachment already here, whose id a hostile file reuses with other bytes.
  await pickFiles(page, [PNG]);
  await expect(attachmentItems(page)).toHaveCount(1);
  await sendAndWait(page, "Keep this chart");
  const pngId = sha256(PNG.buffer);
  expect(await blobKeys(page)).toEqual([pngId]);

  const html = Buffer.from(`<html><body>${XSS}</body></html>`);
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=4"><script>window.__pwned=5</script></svg>`,
  );
  await importAndSettle(
    page,
    "hostile-blobs.json",
    groveFile(
      "hostile-blobs",
      `Blobs ${XSS}`,
      1_700_000_000_000,
      [
        { type: "text", text: XSS },
        { type: "image", blobId: sha256(html), mimeType: "image/png", name: "a.png" },
        { type: "image", blobId: pngId, mimeType: "image/png", name: "b.png" },
      ],
      [
        { id: sha256(html), mimeType: "image/png", data: html.toString("base64") },
        { id: pngId, mimeType: "image/svg+xml", data: svg.toString("base64") },
      ],
    ),
    { chats: 1 },
  );
  await importAndSettle(
    page,
    "far-future.json",
    groveFile("far-future", "Far future", 1e300, [{ type: "text", text: "When?" }]),
    "refused",
  );
  await importAndSettle(page, "conversations.json", claudeExport(), { chats: 1 });
  await importAndSettle(page, "conversations.json", claudeExport(), "keep both");
  await importAndSettle(page, "chatgpt.json", chatgptExport(), { chats: 1 });
  await importAndSettle(
    page,
    "truncated.json",
    '{"format":"grove-session-export","version":1,"sessions":[{',
    "refused",
  );

  // The stored chart kept its bytes; no HTML or SVG was stored.
  expect(await blobKeys(page)).toEqual([pngId]);

  // A send in the chat on screen after the series gets its reply.
  const before = await assistantMessages(page).count();
  await send(page, "Still there after the imports?");
  await expect(assistantMessages(page)).toHaveCount(before + 1, { timeout: 60_000 });
  await waitIdle(page);

  // In each imported chat: the one with files that were not stored, the one with 300,000 backtick runs.
  for (const title of ["Blobs", "Backticks"]) {
    await sessionLinks(page).filter({ hasText: title }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: new RegExp(`^${title}`) })).toBeVisible();
    const n = await assistantMessages(page).count();
    await send(page, `A send in ${title}`);
    await expect(assistantMessages(page)).toHaveCount(n + 1, { timeout: 60_000 });
    await waitIdle(page);
  }

  // And in a new chat.
  await page.getByRole("button", { name: "New chat" }).click();
  await send(page, "A new chat after the imports");
  await expect(assistantMessages(page)).toHaveCount(1, { timeout: 60_000 });
  await waitIdle(page);

  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  await expect(sessionLinks(page).first()).toBeVisible();
});
