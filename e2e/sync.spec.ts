/**
 * Sync between devices (issue 14): two browser contexts syncing through pouchdb-server, a real
 * CouchDB-protocol server started by the fixture (e2e/sync-server.ts, one per Playwright worker).
 */

import type { Page } from "@playwright/test";
import { assistantMessages, chatRequests, send, waitIdle } from "./app";
import { openSeeded, seed, TRIP, TRIP_2, tripRows } from "./seed";
import {
  connect,
  connectedDevice,
  databaseName,
  expect,
  expectUpToDate,
  freshDatabase,
  openTrip,
  PASSPHRASE,
  startLongFirstSync,
  syncRegion,
  tableRows,
  test,
  tripOnTwoDevices,
} from "./sync-helpers";

test.describe.configure({ mode: "serial" });

test("a whole session tree arrives identical on a second device, and both send the same next request", async ({
  devices,
  mock,
  couch,
}) => {
  test.slow(); // two devices connecting (each a 600,000-round key derivation) on a loaded machine
  const url = freshDatabase(couch);
  const { a, b } = await tripOnTwoDevices(devices, mock, url);

  // Same sessions (both parts of the handoff), every entry (branches, compaction, branch summary,
  // handoff) and the label.
  for (const table of ["sessions", "entries", "labels"]) {
    expect(await tableRows(b, table), table).toEqual(await tableRows(a, table));
  }
  expect(await tableRows(b, "entries")).toHaveLength(tripRows().entries.length);

  // The same next request from each device: the context built from the synced tree is identical.
  // The server is down meanwhile, so one device's send does not reach the other before it sends.
  await couch.stop();
  for (const page of [a, b]) {
    await openTrip(page);
    mock.enqueue("anthropic", { text: "Bring a map." });
    await send(page, "Anything else?");
    await expect(assistantMessages(page).filter({ hasText: "Bring a map." })).toBeVisible();
    await waitIdle(page);
  }
  await expect.poll(() => chatRequests(mock, "anthropic").length).toBe(2);
  const [fromA, fromB] = chatRequests(mock, "anthropic");
  expect(fromB?.body).toEqual(fromA?.body);
  await couch.start();
});

test("the server stores no plaintext: ids, titles and messages are all opaque", async ({ devices, mock, couch }) => {
  const url = freshDatabase(couch);
  await connectedDevice(devices, mock, url, (page) => seed(page, tripRows()));
  const docs = await couch.allDocs(databaseName(url));
  expect(docs.length).toBeGreaterThan(tripRows().entries.length);
  const stored = JSON.stringify(docs);
  const rows = tripRows();
  const secrets = [
    ...rows.sessions.flatMap((s) => [String(s.id), String(s.title)]),
    ...rows.entries.map((e) => String(e.id)),
    "Train plan",
    "Chamonix",
    "Geneva",
    "rain jackets",
    "claude",
  ];
  for (const secret of secrets) expect(stored, secret).not.toContain(secret);
  // Only the salt document is readable, and it holds parameters only.
  const salt = docs.find((d) => d.id === "grove-sync-salt")?.doc;
  expect(salt).toMatchObject({ kdf: "PBKDF2-SHA-256", iterations: 600_000 });
});

test("a wrong passphrase is refused with a clear message and writes nothing on that device", async ({
  devices,
  mock,
  couch,
}) => {
  test.slow(); // two devices connecting (each a 600,000-round key derivation) on a loaded machine
  const url = freshDatabase(couch);
  await connectedDevice(devices, mock, url, (page) => seed(page, tripRows()));
  const { page: b } = await devices();
  await b.goto("/");
  await connect(b, url, { passphrase: "not the passphrase" });
  await expect(syncRegion(b).getByRole("alert")).toHaveText(/Wrong sync passphrase/);
  await expect(syncRegion(b).getByRole("button", { name: "Connect" })).toBeVisible();
  expect(await tableRows(b, "sessions")).toEqual([]);
  expect(await tableRows(b, "entries")).toEqual([]);
  expect(await tableRows(b, "syncMeta")).toEqual([]);
  expect(await b.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).not.toContain(
    "_pouch_grove-sync",
  );
  // The right one then works.
  await syncRegion(b).getByLabel("Sync passphrase").fill(PASSPHRASE);
  await syncRegion(b).getByRole("button", { name: "Connect" }).click();
  await expectUpToDate(b);
  expect(await tableRows(b, "entries")).toHaveLength(tripRows().entries.length);
});

/** Opens a chat from the session list. */
async function openChat(page: Page, sessionId: string): Promise<void> {
  await page.getByRole("navigation", { name: "Sessions" }).locator(`a[href="#/s/${sessionId}"]`).click();
}

test("new messages appear on the other device while both are online (the open chat updates live)", async ({
  devices,
  mock,
  couch,
}) => {
  test.slow(); // two devices connecting (each a 600,000-round key derivation) on a loaded machine
  const url = freshDatabase(couch);
  const { a, b } = await tripOnTwoDevices(devices, mock, url);
  await openSeeded(a, TRIP);
  await openChat(b, TRIP_2);
  await openChat(b, TRIP);
  await expect(b.getByText("Layers, rain jackets and good walking shoes.")).toBeVisible();

  mock.enqueue("anthropic", { text: "Take the early train." });
  await send(a, "When should we leave?");
  await expect(assistantMessages(a).filter({ hasText: "Take the early train." })).toBeVisible();
  // B did nothing: the reply arrives through the server into its open chat.
  await expect(b.getByText("When should we leave?")).toBeVisible({ timeout: 20_000 });
  await expect(assistantMessages(b).filter({ hasText: "Take the early train." })).toBeVisible({ timeout: 20_000 });
});

test("messages sent on both devices while the server is down merge as sibling branches, said once", async ({
  devices,
  mock,
  couch,
}) => {
  test.slow(); // two devices connecting (each a 600,000-round key derivation) on a loaded machine
  const url = freshDatabase(couch);
  const { a, b } = await tripOnTwoDevices(devices, mock, url);
  for (const page of [a, b]) await openTrip(page);

  await couch.stop();
  mock.enqueue("anthropic", { text: "Reply on A." });
  await send(a, "Written on A");
  await expect(assistantMessages(a).filter({ hasText: "Reply on A." })).toBeVisible();
  await waitIdle(a);
  mock.enqueue("anthropic", { text: "Reply on B." });
  await send(b, "Written on B");
  await expect(assistantMessages(b).filter({ hasText: "Reply on B." })).toBeVisible();
  await waitIdle(b);
  await couch.start();

  // Both devices converge on the same tree and the same leaf.
  await expect
    .poll(async () => (await tableRows(a, "entries")).length, { timeout: 30_000 })
    .toBe(tripRows().entries.length + 4);
  await expect
    .poll(async () => (await tableRows(b, "entries")).length, { timeout: 30_000 })
    .toBe(tripRows().entries.length + 4);
  await expect
    .poll(async () => await tableRows(b, "sessions"), { timeout: 30_000 })
    .toEqual(await tableRows(a, "sessions"));
  expect(await tableRows(b, "entries")).toEqual(await tableRows(a, "entries"));

  // The two user messages are siblings: same parent, nothing lost.
  const users = (await tableRows(a, "entries"))
    .map((r) => JSON.parse(r) as { parentId: string; content?: Array<{ text?: string }> })
    .filter((e) => ["Written on A", "Written on B"].includes(e.content?.[0]?.text ?? ""));
  expect(users).toHaveLength(2);
  expect(users[0]?.parentId).toBe(users[1]?.parentId);

  // The device whose branch is no longer shown is told, once; its branch is one click away.
  const told = (page: Page) => page.locator(".notices").filter({ hasText: "continued on another device" });
  await expect
    .poll(async () => (await told(a).count()) + (await told(b).count()), { timeout: 20_000 })
    .toBeGreaterThan(0);
  for (const page of [a, b])
    expect(
      await page
        .locator(".notices")
        .getByText(/continued on another device/)
        .count(),
    ).toBeLessThanOrEqual(1);
  const shown = (await a.getByText("Written on A").count()) > 0 ? "Written on A" : "Written on B";
  for (const page of [a, b]) await expect(page.getByText(shown)).toBeVisible({ timeout: 20_000 });
});

test("a deleted chat is deleted on every device, and its documents leave the server", async ({
  devices,
  mock,
  couch,
}) => {
  test.slow(); // two devices connecting (each a 600,000-round key derivation) on a loaded machine
  const url = freshDatabase(couch);
  const { a, b } = await tripOnTwoDevices(devices, mock, url);
  const list = (page: Page) => page.getByRole("navigation", { name: "Sessions" });
  await openSeeded(a, TRIP); // the seed was written behind the app's back: reload to list it
  await expect(list(b).getByRole("link").filter({ hasText: "Alps trip (part 2)" })).toBeVisible();

  const row = list(a).getByRole("link").filter({ hasText: "Alps trip (part 2)" });
  await row.hover();
  await list(a).getByRole("button", { name: "Delete Alps trip (part 2)", exact: true }).click();
  const confirm = list(a).getByRole("listitem").filter({ hasText: "This cannot be undone" });
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(list(a).getByRole("link").filter({ hasText: "Alps trip (part 2)" })).toHaveCount(0);

  await expect(list(b).getByRole("link").filter({ hasText: "Alps trip (part 2)" })).toHaveCount(0, { timeout: 20_000 });
  await expect(list(b).getByRole("link").filter({ hasText: "Alps trip" })).toHaveCount(1);
  const remaining = (await tableRows(b, "entries")).map((r) => (JSON.parse(r) as { sessionId: string }).sessionId);
  expect(remaining).not.toContain(TRIP_2);
  expect(remaining.length).toBe(tripRows().entries.filter((e) => e.sessionId === TRIP).length);
  // On the server: only the first chat's records, the tombstone and the two plain docs are live.
  await expect
    .poll(async () => (await couch.allDocs(databaseName(url))).length, { timeout: 20_000 })
    .toBe(2 + tripRows().entries.filter((e) => e.sessionId === TRIP).length + 2 + 1 + 1);
});

test("an attachment (a blobs row) syncs byte for byte", async ({ devices, mock, couch }) => {
  test.slow(); // two devices connecting (each a 600,000-round key derivation) on a loaded machine
  const url = freshDatabase(couch);
  const a = await connectedDevice(devices, mock, url, async (page) => {
    await seed(page, tripRows());
    await page.evaluate(async () => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open("grove");
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const bytes = new Uint8Array(70_000).map((_, i) => (i * 31) % 251);
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction("blobs", "readwrite");
        tx.objectStore("blobs").put({
          id: "0196a000-0000-7000-8000-0000000b1001",
          data: new Blob([bytes], { type: "image/png" }),
          mimeType: "image/png",
          size: bytes.length,
          createdAt: 1,
        });
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    });
  });
  const b = await connectedDevice(devices, mock, url);
  const readBlob = (page: Page) =>
    page.evaluate(async () => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open("grove");
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const row = await new Promise<{ data: Blob; mimeType: string; size: number } | undefined>((resolve, reject) => {
        const req = db
          .transaction("blobs", "readonly")
          .objectStore("blobs")
          .get("0196a000-0000-7000-8000-0000000b1001");
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      db.close();
      if (!row) return null;
      const bytes = new Uint8Array(await row.data.arrayBuffer());
      let sum = 0;
      for (const x of bytes) sum = (sum * 33 + x) % 1_000_000_007;
      return { type: row.data.type, mimeType: row.mimeType, size: row.size, length: bytes.length, sum };
    });
  const original = await readBlob(a);
  expect(original?.length).toBe(70_000);
  expect(await readBlob(b)).toEqual(original);
});

test("the server going down mid-sync, and a reload meanwhile: sync resumes, nothing lost or duplicated", async ({
  devices,
  mock,
  couch,
}) => {
  test.setTimeout(180_000);
  const N = 4000;
  const url = freshDatabase(couch);
  const { page: a } = await devices();
  await startLongFirstSync(a, url, N, /^Uploading [\d,]+ of [\d,]+ entries$/);

  await couch.stop();
  await a.reload();
  await a.getByRole("button", { name: "Settings" }).click();
  await expect(syncRegion(a).getByRole("status")).toHaveText(/Offline, retrying/, { timeout: 30_000 });
  await couch.start();
  await expectUpToDate(a);

  // Every record once, each in its first revision: nothing was written twice.
  const docs = await couch.allDocs(databaseName(url));
  expect(docs).toHaveLength(2 + N + 2);
  expect(docs.filter((d) => !String(d.doc._rev).startsWith("1-"))).toEqual([]);

  // A second device receives the whole history (4,000 entries decrypted: minutes on a loaded machine).
  const b = await connectedDevice(devices, mock, url, undefined, { timeout: 90_000 });
  expect(await tableRows(b, "entries")).toHaveLength(N);
  expect(await tableRows(b, "sessions")).toEqual(await tableRows(a, "sessions"));
});

test("Cancel stops a first sync where it is; Sync now continues it", async ({ devices, couch }) => {
  test.setTimeout(120_000);
  const url = freshDatabase(couch);
  const { page: a } = await devices();
  await startLongFirstSync(a, url, 3000);
  const region = syncRegion(a);
  await region.getByRole("button", { name: "Cancel" }).click();
  await expect(region.getByRole("status")).toHaveText(/^Paused: press Sync now to continue/);
  await region.getByRole("button", { name: "Sync now" }).click();
  await expectUpToDate(a, { timeout: 90_000 }); // 3,000 entries encrypted and uploaded
  expect(await couch.allDocs(databaseName(url))).toHaveLength(2 + 3000 + 2);
});

test("screenshot: Settings › Sync while a first sync runs, then up to date", async ({ devices, couch }) => {
  test.setTimeout(120_000);
  const url = freshDatabase(couch);
  const { page } = await devices();
  await startLongFirstSync(page, url, 3000);
  const region = syncRegion(page);
  await expect(region.getByRole("button", { name: "Cancel" })).toBeVisible();
  await region.scrollIntoViewIfNeeded();
  await region.screenshot({ path: "test-results/e2e-artifacts/sync-progress.png" });
  await expectUpToDate(page, { timeout: 90_000 }); // 3,000 entries encrypted and uploaded
  await expect(region.getByRole("button", { name: "Cancel" })).toHaveCount(0);
  await region.screenshot({ path: "test-results/e2e-artifacts/sync-up-to-date.png" });
});

test("a CouchDB user: the right password syncs, a wrong one gets a clear message", async ({ devices, couch }) => {
  const url = freshDatabase(couch);
  const name = `grove-user-${Date.now()}`;
  const created = await fetch(`${couch.url}/_users/org.couchdb.user:${name}`, {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, password: "right password", roles: [], type: "user" }),
  });
  expect(created.ok).toBe(true);
  // As on CouchDB, the admin creates the user's database (README "Sync"); Grove does not try to.
  expect((await fetch(url, { method: "PUT" })).ok).toBe(true);
  const { page } = await devices();
  await page.goto("/");
  await connect(page, url, { username: name, password: "wrong password" });
  const region = syncRegion(page);
  await expect(region.getByRole("alert")).toHaveText(
    "The server refused the username or password. Nothing was changed on this device.",
  );
  expect(await tableRows(page, "syncMeta")).toEqual([]);

  await region.getByLabel("Password", { exact: true }).fill("right password");
  await region.getByRole("button", { name: "Connect" }).click();
  await expectUpToDate(page);
  await expect(region.getByLabel("Password", { exact: true })).toHaveAttribute("placeholder", "saved on this device");
  // Disconnect keeps everything here and forgets the connection.
  await region.getByRole("button", { name: "Disconnect" }).click();
  await expect(region.getByRole("status")).toHaveText(/^Not connected/);
  await expect(region.getByRole("button", { name: "Connect" })).toBeVisible();
  expect(await tableRows(page, "syncMeta")).toEqual([]);
});
