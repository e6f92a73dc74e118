/**
 * Helpers for the fault and robustness specs (e2e/faults.spec.ts, e2e/robustness.spec.ts): changing a
 * key through Settings, reading the assistant's alert, reloading, and a raw IndexedDB snapshot to
 * prove "nothing half-written". UI access goes by accessible name, like e2e/app.ts.
 */
import type { Locator, Page, Route } from "@playwright/test";
import { userMessages } from "./app";
import { expect, type MockServer, type RecordedRequest } from "./fixtures";

/** Open Settings, replace one provider's API key, close (the field commits on close). */
export async function setApiKey(page: Page, provider: "Anthropic" | "OpenAI", key: string): Promise<void> {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel(`${provider} API key`).fill(key);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
}

/** The error box of a message (role=alert inside the article, not a page notice). */
export const messageAlert = (article: Locator): Locator => article.getByRole("alert");

/** Page-level notices that are errors (action failures such as a full disk). */
export const errorNotices = (page: Page): Locator => page.locator(".notices").getByRole("alert");

/** Reload and wait until the open session is drawn again (at least one user message). */
export async function reloadSession(page: Page): Promise<void> {
  await page.reload();
  await expect(userMessages(page).first()).toBeVisible({ timeout: 10_000 });
}

/** The version control ("2 / 3") of a message article, as text. */
export const versionLabel = (article: Locator): Locator => article.locator(".versions > span");

/** Waits until the mock has recorded `n` chat requests of `api` (nothing else counted). */
export async function expectChatRequestCount(mock: MockServer, api: "anthropic" | "openai", n: number): Promise<void> {
  await expect.poll(() => chatRequestsOf(mock, api).length).toBe(n);
}

/**
 * Waits until the mock has parked a response (a script with `hold`), so whatever the app shows
 * while that request is in flight stays on screen until `mock.release()`. A parked request stays
 * parked, so the generous timeout costs nothing when the app is quick; it only covers a slow machine.
 */
export async function expectHeld(mock: MockServer, api?: "anthropic" | "openai"): Promise<void> {
  await expect.poll(() => mock.held(api), { timeout: 20_000 }).toBeGreaterThan(0);
}

/** Waits for a parked response (see `expectHeld`) and lets it go on. */
export async function releaseHeld(mock: MockServer, api?: "anthropic" | "openai"): Promise<void> {
  await expectHeld(mock, api);
  mock.release(api);
}

/** Every row of one IndexedDB store of the app's database, read straight from the page. */
async function storeRows(page: Page, store: string): Promise<unknown[]> {
  return page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open("grove");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const rows = await new Promise<unknown[]>((resolve, reject) => {
      const req = db.transaction(name, "readonly").objectStore(name).getAll();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    db.close();
    return rows;
  }, store);
}

const field = (row: unknown, key: string): unknown =>
  typeof row === "object" && row !== null ? Reflect.get(row, key) : undefined;

/** The text of every reply draft (the checkpoints of replies in flight) in IndexedDB, read without app code. */
export async function draftTexts(page: Page): Promise<string[]> {
  return (await storeRows(page, "drafts")).map((row) => {
    const content = field(row, "content");
    if (!Array.isArray(content)) return "";
    return content.map((b) => (field(b, "type") === "text" ? String(field(b, "text")) : "")).join("");
  });
}

/** The texts of the queued messages stored in IndexedDB (what a reload finds). */
export async function storedQueuedTexts(page: Page): Promise<string[]> {
  return (await storeRows(page, "queued")).map((row) => String(field(row, "text")));
}

export function chatRequestsOf(mock: MockServer, api: "anthropic" | "openai"): RecordedRequest[] {
  return mock
    .requests({ api })
    .filter((r) => r.method === "POST" && /\/(messages|chat\/completions|responses)$/.test(r.path));
}

export type DbSnapshot = {
  sessions: { id: string; title: string; leafId: string | null }[];
  entries: { id: string; sessionId: string; parentId: string | null; type: string; text: string; status: string }[];
  drafts: { id: string }[];
};

/**
 * Everything Grove keeps about conversations, read straight from IndexedDB (a second connection,
 * no app code): sessions (id, title, leaf), entries (id, parent, text, status) and drafts, sorted.
 */
export async function dbSnapshot(page: Page): Promise<DbSnapshot> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open("grove");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const all = (store: string) =>
      new Promise<unknown[]>((resolve, reject) => {
        const req = db.transaction(store, "readonly").objectStore(store).getAll();
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    const field = (row: unknown, key: string): unknown =>
      typeof row === "object" && row !== null ? Reflect.get(row, key) : undefined;
    const text = (row: unknown): string => {
      const content = field(row, "content");
      if (!Array.isArray(content)) return "";
      return content.map((b) => (field(b, "type") === "text" ? String(field(b, "text")) : "")).join("");
    };
    const nullable = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
    const [sessions, entries, drafts] = await Promise.all([all("sessions"), all("entries"), all("drafts")]);
    db.close();
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    return {
      sessions: sessions
        .map((s) => ({
          id: String(field(s, "id")),
          title: String(field(s, "title")),
          leafId: nullable(field(s, "leafId")),
        }))
        .sort(byId),
      entries: entries
        .map((e) => ({
          id: String(field(e, "id")),
          sessionId: String(field(e, "sessionId")),
          parentId: nullable(field(e, "parentId")),
          type: String(field(e, "type")),
          text: text(e),
          status: String(field(e, "status") ?? ""),
        }))
        .sort(byId),
      drafts: drafts.map((d) => ({ id: String(field(d, "id")) })).sort(byId),
    };
  });
}

/**
 * Installs (before any app code runs, on every load of the page) a switch that makes IndexedDB
 * writes to the `entries` store throw a real `DOMException` named "QuotaExceededError", as a full
 * disk does. Off until `setQuotaFull(page, true)`; a reload turns it off again.
 */
export async function installQuotaSwitch(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const proto = IDBObjectStore.prototype;
    const full = (store: IDBObjectStore) =>
      store.name === "entries" && Reflect.get(window, "__groveQuotaFull") === true;
    const quotaError = () => new DOMException("The quota has been exceeded.", "QuotaExceededError");
    const add = proto.add;
    const put = proto.put;
    proto.add = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore["add"]>): IDBRequest<IDBValidKey> {
      if (full(this)) throw quotaError();
      return add.apply(this, args);
    };
    proto.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore["put"]>): IDBRequest<IDBValidKey> {
      if (full(this)) throw quotaError();
      return put.apply(this, args);
    };
  });
}

export async function setQuotaFull(page: Page, full: boolean): Promise<void> {
  await page.evaluate((on) => Reflect.set(window, "__groveQuotaFull", on), full);
}

/**
 * Holds the requests for the app's chunks whose names start with one of `chunks` (e.g. the provider
 * SDKs and the compaction worker: what a fresh tab still loads when the user presses Enter) until
 * `release()`.
 */
export async function holdAppCode(
  page: Page,
  chunks: readonly string[],
): Promise<{ release: () => Promise<void>; held: () => number }> {
  const held: Route[] = [];
  let holding = true;
  const names = chunks.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  await page.route(new RegExp(`/assets/(${names})-[^/]*\\.js$`), (route) => {
    if (holding) held.push(route);
    else void route.continue();
  });
  return {
    held: () => held.length,
    release: async () => {
      holding = false;
      for (const route of held.splice(0)) await route.continue();
    },
  };
}
