/**
 * A database an older Grove left behind opens in this one, in a real browser: the app declares only
 * the schema versions with an upgrade and the current one (src/db/schema.ts), and Dexie diffs the
 * older database's own tables and indexes against them. The unit tests (schema.test.ts) check each
 * version's upgrade in fake-indexeddb; this checks Chromium's IndexedDB does the same.
 */
import { createRequire } from "node:module";
import { SHIPPED_STORES, storesAt } from "../src/db/testing/schema-fixtures";
import { assistantMessages, userMessages } from "./app";
import { expect, test } from "./fixtures";

const require = createRequire(import.meta.url);
const DEXIE_UMD = require.resolve("dexie/dist/dexie.min.js");
const BLANK = "/__schema_upgrade__/blank.html";

const SESSION = "0190a0a0-0000-7000-8000-00000000a001";
const QUESTION = "0190a0a0-0000-7000-8000-00000000a010";
const ANSWER = "0190a0a0-0000-7000-8000-00000000a011";

test("a chat and a composer draft with a file, left by schema v3, open after the upgrade to the current version", async ({
  page,
}) => {
  await page.route(`**${BLANK}`, (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>v3</title><body></body>" }),
  );
  await page.goto(BLANK);
  await page.addScriptTag({ path: DEXIE_UMD });
  await page.evaluate(
    async ({ stores, session, question, answer }) => {
      const { Dexie } = window as unknown as { Dexie: new (name: string) => import("dexie").Dexie };
      const db = new Dexie("grove");
      db.version(3).stores(stores);
      await db.open();
      const message = (id: string, parentId: string | null, role: string, text: string, createdAt: number) => ({
        id,
        sessionId: session,
        parentId,
        createdAt,
        type: "message",
        role,
        content: [{ type: "text", text }],
        status: "complete",
      });
      await db
        .table("entries")
        .bulkAdd([
          message(question, null, "user", "Which tide table did we settle on?", 1),
          message(answer, question, "assistant", "The harbour master's, from March.", 2),
        ]);
      await db.table("sessions").add({
        id: session,
        title: "Kept since v3",
        titleSource: "user",
        createdAt: 1,
        updatedAt: 2,
        leafId: answer,
        model: { providerId: "anthropic", modelId: "claude-sonnet-4-5" },
      });
      // v3–v10 kept a draft's files inline; v11 moves each to a row of its own.
      await db.table("composerDrafts").add({
        sessionId: session,
        text: "and the one for April?",
        attachments: [{ type: "text_file", name: "tides.txt", mimeType: "text/plain", text: "06:12 high\n" }],
        updatedAt: 3,
      });
      db.close();
    },
    { stores: storesAt(3), session: SESSION, question: QUESTION, answer: ANSWER },
  );

  await page.goto(`/#/s/${SESSION}`);
  await expect(userMessages(page)).toHaveCount(1);
  await expect(userMessages(page)).toContainText("Which tide table did we settle on?");
  await expect(assistantMessages(page)).toContainText("The harbour master's, from March.");
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("and the one for April?");
  await expect(page.getByRole("list", { name: "Attachments" })).toContainText("tides.txt");
  await page.screenshot({ path: "test-results/schema-upgrade/after-upgrade.png" });

  const after = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open("grove");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const entries = db.transaction("entries", "readonly").objectStore("entries");
    const result = {
      version: db.version,
      stores: [...db.objectStoreNames].sort(),
      entryIndexes: [...entries.indexNames].sort(),
    };
    db.close();
    return result;
  });
  // Dexie keeps version n as n × 10.
  expect(after.version).toBe(10 * Math.max(...Object.keys(SHIPPED_STORES).map(Number)));
  expect(after.stores).toEqual(
    expect.arrayContaining(["composerAttachments", "memoryCheckCosts", "searchIndex", "syncMeta", "syncState"]),
  );
  // v4 dropped the never-queried index; v10 added the one a tree is read by.
  expect(after.entryIndexes).toEqual(["[sessionId+id]", "sessionId"]);
});
