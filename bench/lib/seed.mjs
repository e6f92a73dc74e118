/**
 * Talking to the app's IndexedDB from a page of the app's origin without running the app: a blank
 * HTML page served by a Playwright route under the preview URL (same origin, so the same `grove`
 * database), with Dexie's UMD build injected. The database is opened in Dexie's dynamic mode (no
 * declared schema), so this keeps working when the app adds schema versions.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const DEXIE_UMD = require.resolve("dexie/dist/dexie.min.js");

export const BLANK_PATH = "/__grove_bench__/blank.html";

/** Opens a blank same-origin page with `window.Dexie` and `window.benchDb` (the opened `grove` db). */
export async function openDbPage(context, baseUrl) {
  const page = await context.newPage();
  await page.route(`${baseUrl}${BLANK_PATH}`, (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>grove bench</title><body></body>" }),
  );
  await page.goto(`${baseUrl}${BLANK_PATH}`);
  await page.addScriptTag({ path: DEXIE_UMD });
  const tables = await page.evaluate(async () => {
    const db = new window.Dexie("grove");
    await db.open();
    window.benchDb = db;
    return db.tables.map((t) => t.name);
  });
  for (const name of ["sessions", "entries"]) {
    if (!tables.includes(name)) throw new Error(`database "grove" has no "${name}" table (tables: ${tables})`);
  }
  return page;
}

/** Loads the app once so it creates (or upgrades) the database, then closes the page. */
export async function ensureSchema(context, baseUrl) {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/`);
  await page.locator('nav[aria-label="Sessions"]').waitFor();
  // boot() has opened the db by the time the sidebar renders; make sure it exists before leaving.
  await page.waitForFunction(async () => (await indexedDB.databases()).some((d) => d.name === "grove"));
  await page.close();
}

/** Writes one session row and its entries in one rw transaction. Returns the in-page time (ms). */
export async function seedSession(dbPage, { session, entries }) {
  return dbPage.evaluate(
    async ({ session, entries }) => {
      const db = window.benchDb;
      const t0 = performance.now();
      await db.transaction("rw", "sessions", "entries", async () => {
        await db.table("entries").bulkAdd(entries);
        await db.table("sessions").add(session);
      });
      return performance.now() - t0;
    },
    { session, entries },
  );
}

/**
 * Reads all entries of a session via the `sessionId` index, `runs` times, in a page where nothing
 * else runs. Returns { times, count } (each time from the call to the resolved array).
 */
export async function rawRead(dbPage, sessionId, runs) {
  return dbPage.evaluate(
    async ({ sessionId, runs }) => {
      const db = window.benchDb;
      const times = [];
      let count = 0;
      for (let i = 0; i < runs; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const t0 = performance.now();
        const rows = await db.table("entries").where("sessionId").equals(sessionId).toArray();
        times.push(performance.now() - t0);
        count = rows.length;
      }
      return { times, count };
    },
    { sessionId, runs },
  );
}

/** How many rows the app's `entries` table holds, read straight from IndexedDB in `page`. */
export function countEntries(page) {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const req = indexedDB.open("grove");
        req.onsuccess = () => {
          const count = req.result.transaction("entries").objectStore("entries").count();
          count.onsuccess = () => resolve(count.result);
          count.onerror = () => reject(count.error);
        };
        req.onerror = () => reject(req.error);
      }),
  );
}
