/**
 * Two "devices" (browser contexts) syncing through a real CouchDB-protocol server (sync-server.ts):
 * connect through Settings › Sync as a user does, wait for "Up to date", read a device's tables.
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { openConfigured } from "./app";
import { test as base, expect, type MockServer } from "./fixtures";
import { openSeeded, seed, TRIP, tripRows } from "./seed";
import { type SyncServer, startSyncServer } from "./sync-server";

export const test = base.extend<{ devices: () => Promise<Device> }, { couch: SyncServer }>({
  couch: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this destructuring.
    async ({}, use) => {
      const server = await startSyncServer();
      await use(server);
      await server.close();
    },
    { scope: "worker" },
  ],
  /** Opens a new device (its own browser context: its own IndexedDB); closed after the test. */
  devices: async ({ browser, baseURL }, use) => {
    const opened: BrowserContext[] = [];
    await use(async () => {
      const device = await openDevice(browser, baseURL ?? "");
      opened.push(device.context);
      return device;
    });
    for (const c of opened) await c.close();
  },
});

export { expect };

export type Device = { context: BrowserContext; page: Page };

async function openDevice(browser: Browser, baseURL: string): Promise<Device> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  if (process.env.GROVE_E2E_SYNC_DEBUG) {
    page.on("console", (m) => console.log(`[page] ${m.text()}`));
    page.on("pageerror", (e) => console.log(`[pageerror] ${e.message}`));
    page.on("worker", (w) => w.on("console", (m) => console.log(`[worker] ${m.text()}`)));
  }
  return { context, page };
}

let dbCounter = 0;
/** A fresh database URL on the server for one test (tests never share data). */
export function freshDatabase(couch: SyncServer): string {
  dbCounter++;
  return `${couch.url}/grove-${process.pid}-${Date.now()}-${dbCounter}`;
}

export const PASSPHRASE = "correct horse battery staple";

export function syncRegion(page: Page) {
  return page.getByRole("dialog", { name: "Settings" }).getByRole("region", { name: "Sync" });
}

/** The database name in a database URL (its last path segment). */
export function databaseName(url: string): string {
  return url.slice(url.lastIndexOf("/") + 1);
}

/** Opens Settings and fills the Sync form; presses Connect. The dialog stays open. */
export async function connect(
  page: Page,
  url: string,
  {
    passphrase = PASSPHRASE,
    username = "",
    password = "",
  }: { passphrase?: string; username?: string; password?: string } = {},
): Promise<void> {
  const dialog = page.getByRole("dialog", { name: "Settings" });
  if (!(await dialog.isVisible())) await page.getByRole("button", { name: "Settings" }).click();
  const region = syncRegion(page);
  await region.getByRole("textbox", { name: "Server URL" }).fill(url);
  await region.getByRole("textbox", { name: "Username" }).fill(username);
  await region.getByLabel("Password", { exact: true }).fill(password);
  await region.getByLabel("Sync passphrase").fill(passphrase);
  await region.getByRole("button", { name: "Connect" }).click();
}

/** Waits for "Up to date"; a device receiving thousands of entries on a loaded machine gets a longer `timeout`. */
export async function expectUpToDate(page: Page, { timeout = 30_000 }: { timeout?: number } = {}): Promise<void> {
  await expect(syncRegion(page).getByRole("status")).toHaveText(/^Up to date · last synced \d/, { timeout });
}

/** A device with the mock providers configured, connected to `url`, up to date. */
export async function connectedDevice(
  devices: () => Promise<Device>,
  mock: MockServer,
  url: string,
  before?: (page: Page) => Promise<void>,
  upToDate?: { timeout?: number },
): Promise<Page> {
  const { page } = await devices();
  await openConfigured(page, mock);
  if (before) await before(page);
  await connect(page, url);
  await expectUpToDate(page, upToDate);
  return page;
}

/**
 * Device A holding the seeded trip chats and an empty device B, both connected to `url`, up to date,
 * Settings closed.
 */
export async function tripOnTwoDevices(
  devices: () => Promise<Device>,
  mock: MockServer,
  url: string,
): Promise<{ a: Page; b: Page }> {
  const a = await connectedDevice(devices, mock, url, (page) => seed(page, tripRows()));
  const b = await connectedDevice(devices, mock, url);
  await closeSettings(a);
  await closeSettings(b);
  return { a, b };
}

/** Opens the seeded trip chat (reloading: the seed was written behind the app's back). */
export async function openTrip(page: Page): Promise<void> {
  await openSeeded(page, TRIP);
  await expect(page.getByText("Layers, rain jackets and good walking shoes.")).toBeVisible();
}

/** Every row of a Grove table on this device, sorted by JSON text (order-free comparison). */
export async function tableRows(page: Page, store: string): Promise<string[]> {
  const rows = await page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open("grove");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const all = await new Promise<unknown[]>((resolve, reject) => {
      const req = db.transaction(name, "readonly").objectStore(name).getAll();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    db.close();
    // Keys sorted: a row rebuilt from a document may list its fields in another order.
    const stable = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(stable)
        : v && typeof v === "object" && !(v instanceof Blob)
          ? Object.fromEntries(
              Object.keys(v)
                .sort()
                .map((k) => [k, stable((v as Record<string, unknown>)[k])]),
            )
          : v;
    return all.map((r) => JSON.stringify(stable(r)));
  }, store);
  return rows.sort();
}

export async function closeSettings(page: Page): Promise<void> {
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
}

/** A long chat written straight into IndexedDB: one session, `count` messages in a chain. */
export async function seedLongChat(page: Page, count: number): Promise<string> {
  const sessionId = "0196a000-0000-7000-8000-0000000c0001";
  await page.goto("/");
  await expect(page.getByRole("navigation", { name: "Sessions" })).toBeVisible();
  await page.evaluate(
    async ({ sessionId, count }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open("grove");
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const id = (i: number) => `0196a000-0000-7000-8000-${String(i).padStart(12, "0")}`;
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction(["sessions", "entries"], "readwrite");
        for (let i = 1; i <= count; i++) {
          tx.objectStore("entries").put({
            id: id(i),
            sessionId,
            parentId: i === 1 ? null : id(i - 1),
            createdAt: 1_700_000_000_000 + i,
            type: "message",
            role: i % 2 ? "user" : "assistant",
            content: [{ type: "text", text: `Long history message number ${i}` }],
            status: "complete",
          });
        }
        tx.objectStore("sessions").put({
          id: sessionId,
          title: "Long history",
          titleSource: "user",
          createdAt: 1_700_000_000_000,
          updatedAt: 1_700_000_000_000 + count,
          leafId: id(count),
        });
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    },
    { sessionId, count },
  );
  return sessionId;
}

/** Seeds a long chat on `page` and connects it; resolves once the first sync shows `progress`. */
export async function startLongFirstSync(
  page: Page,
  url: string,
  count: number,
  progress = /^(Encrypting|Uploading) [\d,]+ of [\d,]+ entries$/,
): Promise<void> {
  await seedLongChat(page, count);
  await connect(page, url);
  await expect(syncRegion(page).getByRole("status")).toHaveText(progress, { timeout: 60_000 });
}
