/**
 * Security: sync against a hostile or broken server (issue 24 items 4–8, issue 30 items 2, 3, 6).
 * A proxy in front of the real pouchdb-server (hostile-couch.ts) plays the server that lies: a salt
 * document asking for 1 iteration, a web page for every answer, every write refused, a handshake that
 * never answers, an error quoting the password. A key holder gone bad (a broken or hostile client
 * with the passphrase) writes sealed records straight to pouchdb-server: another chat's settings in
 * a chat's document, a leaf onto another chat's entry, an old revision served again, malformed
 * records beside a good one. Each case: a plain message, nothing changed that should not change.
 */
import type { Page } from "@playwright/test";
import { deriveKeys, docIdFor, readKdfParams, type SyncKeys, seal } from "../src/db/sync/crypto";
import { assistantMessages, send, waitIdle } from "./app";
import { type HostileCouch, startHostileCouch } from "./hostile-couch";
import { msg, seed, TRIP, TRIP_2, tripRows } from "./seed";
import {
  closeSettings,
  connect,
  connectedDevice,
  databaseName,
  expect,
  expectUpToDate,
  freshDatabase,
  PASSPHRASE,
  startLongFirstSync,
  syncRegion,
  test as syncTest,
  tableRows,
} from "./sync-helpers";
import type { SyncServer } from "./sync-server";

const test = syncTest.extend<{ hostile: HostileCouch }>({
  hostile: async ({ couch }, use) => {
    const hostile = await startHostileCouch(couch.url);
    await use(hostile);
    await hostile.close();
  },
});

/** A fresh database reached through the hostile proxy. */
const throughProxy = (couch: SyncServer, hostile: HostileCouch) =>
  `${hostile.url}/${databaseName(freshDatabase(couch))}`;

const alert = (page: Page) => syncRegion(page).getByRole("alert");
const status = (page: Page) => syncRegion(page).getByRole("status");

/** Nothing of sync was kept on this device: no connection, no exchange records, no replica. */
async function expectNoSyncHere(page: Page): Promise<void> {
  expect(await tableRows(page, "syncMeta")).toEqual([]);
  expect(await tableRows(page, "syncState")).toEqual([]);
  expect(await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).not.toContain(
    "_pouch_grove-sync",
  );
}

test('a salt document asking for 1, 1,000,000,000 or "600000" iterations is refused in plain words; nothing changes here', async ({
  devices,
  couch,
  hostile,
}) => {
  const { page } = await devices();
  await page.goto("/");
  for (const iterations of [1, 1_000_000_000, "600000"]) {
    hostile.set({ kind: "salt", iterations });
    await connect(page, throughProxy(couch, hostile));
    await expect(alert(page)).toHaveText(
      new RegExp(
        `^The server's sync settings ask for ${JSON.stringify(iterations)} iterations .*Nothing was changed on this device\\.$`,
      ),
      { timeout: 20_000 },
    );
    await expect(syncRegion(page).getByRole("button", { name: "Connect" })).toBeEnabled();
    await expectNoSyncHere(page);
  }
});

/** The sealed-record attacker: holds the passphrase, writes straight to the server's database. */
async function keyHolder(couchUrl: string, db: string) {
  const base = `${couchUrl}/${db}`;
  const getDoc = async (id: string) => (await (await fetch(`${base}/${id}`)).json()) as Record<string, unknown>;
  const kdf = readKdfParams(await getDoc("grove-sync-salt"));
  if (!kdf.ok) throw new Error(kdf.message);
  const keys: SyncKeys = await deriveKeys(PASSPHRASE, kdf.params);
  const idOf = (ref: string) => docIdFor(keys, ref);
  return {
    idOf,
    getDoc,
    /** The record sealed into document `docId` (as a new revision of `rev`, when given). */
    async sealed(docId: string, record: unknown, rev?: unknown) {
      const envelope = await seal(keys, docId, record);
      return rev === undefined ? envelope : { ...envelope, _rev: rev };
    },
    async write(docs: object[]) {
      const res = await fetch(`${base}/_bulk_docs`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ docs }),
      });
      const results = (await res.json()) as Array<{ error?: string }>;
      if (results.some((r) => r.error)) throw new Error(`write failed: ${JSON.stringify(results)}`);
    },
  };
}

/** A stamp a minute ahead: newer than anything the devices wrote (a key holder may stamp what it likes). */
const laterStamp = (minutes: number) => `${String(Date.now() + minutes * 60_000).padStart(15, "0")}.000000.attacker`;

async function sessionRow(page: Page, id: string): Promise<{ title: string; leafId: string } | undefined> {
  return (await tableRows(page, "sessions"))
    .map((r) => JSON.parse(r) as { id: string; title: string; leafId: string })
    .find((s) => s.id === id);
}

test("sealed records naming another chat, moving a leaf onto another chat's entry, served again stale, or malformed are refused and counted; the good entry beside them is applied", async ({
  devices,
  mock,
  couch,
}) => {
  test.setTimeout(90_000);
  const url = freshDatabase(couch);
  const a = await connectedDevice(devices, mock, url, (page) => seed(page, tripRows()));
  const attacker = await keyHolder(couch.url, databaseName(url));
  const [one, two] = tripRows().sessions as Array<Record<string, unknown>>;
  const meta = (s: Record<string, unknown> | undefined, title: string) => {
    const { leafId: _leaf, updatedAt: _at, ...rest } = s ?? {};
    return { ...rest, title };
  };
  const chatOneEntry = tripRows().entries.find((e) => e.sessionId === TRIP)?.id;
  const twoLeaf = two?.leafId;

  // A key holder renames chat two: a legitimate, newer version.
  const twoSettingsId = await attacker.idOf(`s:${TRIP_2}`);
  const firstVersion = await attacker.getDoc(twoSettingsId);
  await attacker.write([
    await attacker.sealed(
      twoSettingsId,
      { kind: "session", id: TRIP_2, hlc: laterStamp(1), session: meta(two, "Part two, renamed") },
      firstVersion._rev,
    ),
  ]);
  await expect.poll(async () => (await sessionRow(a, TRIP_2))?.title, { timeout: 30_000 }).toBe("Part two, renamed");

  // Then, in one batch:
  const oneSettingsId = await attacker.idOf(`s:${TRIP}`);
  const twoLeafId = await attacker.idOf(`f:${TRIP_2}`);
  const renamed = await attacker.getDoc(twoSettingsId);
  const good = msg("0196a000-0000-7000-8000-0000000d0001", TRIP_2, String(twoLeaf), 30, "user", "A good message");
  const missingId = { ...msg("0196a000-0000-7000-8000-0000000d0002", TRIP_2, String(twoLeaf), 31, "user", "x") };
  delete missingId.id;
  const badContentId = "0196a000-0000-7000-8000-0000000d0003";
  await attacker.write([
    // chat one's settings document naming chat two (renaming it);
    await attacker.sealed(
      oneSettingsId,
      { kind: "session", id: TRIP_2, hlc: laterStamp(2), session: meta(two, "HIJACKED-TITLE") },
      (await attacker.getDoc(oneSettingsId))._rev,
    ),
    // chat two's leaf moved onto an entry of chat one;
    await attacker.sealed(
      twoLeafId,
      { kind: "leaf", id: TRIP_2, hlc: laterStamp(2), leafId: chatOneEntry, updatedAt: Date.now() },
      (await attacker.getDoc(twoLeafId))._rev,
    ),
    // chat two's first settings served again over the rename (an older clock);
    { _id: twoSettingsId, _rev: renamed._rev, g: 1, iv: firstVersion.iv, ct: firstVersion.ct },
    // an entry without an id ("Invalid argument to Table.get()"), one whose content is not a list;
    await attacker.sealed(await attacker.idOf("e:0196a000-0000-7000-8000-0000000d0002"), {
      kind: "entry",
      entry: missingId,
    }),
    await attacker.sealed(await attacker.idOf(`e:${badContentId}`), {
      kind: "entry",
      entry: { ...good, id: badContentId, content: "<img src=x onerror=alert(1)>" },
    }),
    // and a good entry.
    await attacker.sealed(await attacker.idOf(`e:${good.id}`), { kind: "entry", entry: good }),
  ]);

  await expect
    .poll(async () => (await tableRows(a, "entries")).some((r) => r.includes(String(good.id))), { timeout: 30_000 })
    .toBe(true);
  await expect(status(a)).toHaveText(
    "4 documents on the server were not valid Grove records and skipped. Everything else is up to date.",
    { timeout: 30_000 },
  );
  expect(await sessionRow(a, TRIP)).toMatchObject({ title: one?.title, leafId: one?.leafId });
  expect(await sessionRow(a, TRIP_2)).toMatchObject({ title: "Part two, renamed", leafId: twoLeaf });
  const entries = await tableRows(a, "entries");
  expect(entries.filter((r) => r.includes("0000000d000"))).toHaveLength(1);
  expect(entries).toHaveLength(tripRows().entries.length + 1);
});

test("a server answering a web page to everything: connect is refused in plain words and a connected device changes nothing", async ({
  devices,
  mock,
  couch,
  hostile,
}) => {
  test.slow(); // two devices connecting (each a 600,000-round key derivation) on a loaded machine
  const url = throughProxy(couch, hostile);
  const a = await connectedDevice(devices, mock, url, (page) => seed(page, tripRows()));
  const tables = ["sessions", "entries", "labels", "syncState"];
  const before = await Promise.all(tables.map((t) => tableRows(a, t)));

  hostile.set({ kind: "html" });
  // A new device: refused, nothing kept.
  const { page: b } = await devices();
  await b.goto("/");
  await connect(b, url);
  await expect(alert(b)).toHaveText(
    `The server at ${url} does not answer as a CouchDB database (it sent a web page or other text). Check the server URL. Nothing was changed on this device.`,
    { timeout: 20_000 },
  );
  await expectNoSyncHere(b);

  // The connected device, reloaded: its run stops at the handshake with the reason.
  await a.reload();
  await a.getByRole("button", { name: "Settings" }).click();
  await expect(status(a)).toHaveText(/does not answer as a CouchDB database/, { timeout: 20_000 });
  expect(await Promise.all(tables.map((t) => tableRows(a, t)))).toEqual(before);
});

/** When this device last caught up with the server (its stored connection), or 0. */
async function lastSyncedAt(page: Page): Promise<number> {
  const rows = (await tableRows(page, "syncMeta")).map((r) => JSON.parse(r) as { key: string; value: unknown });
  return (rows.find((r) => r.key === "connection")?.value as { lastSyncedAt?: number } | undefined)?.lastSyncedAt ?? 0;
}

test("a server refusing every write: the status says so, never Up to date, and Sync now sends them once it accepts", async ({
  devices,
  mock,
  couch,
  hostile,
}) => {
  test.setTimeout(90_000);
  const url = throughProxy(couch, hostile);
  const a = await connectedDevice(devices, mock, url);
  await closeSettings(a);
  const before = await lastSyncedAt(a);

  hostile.set({ kind: "refuse-writes", reason: "Only admins may write here" });
  mock.enqueue("anthropic", { text: "Noted." });
  await send(a, "A chat the server refuses");
  await expect(assistantMessages(a).filter({ hasText: "Noted." })).toBeVisible();
  await waitIdle(a);
  // Replication went through the refusal and caught up.
  await expect.poll(() => lastSyncedAt(a), { timeout: 30_000 }).toBeGreaterThan(before);
  await a.getByRole("button", { name: "Settings" }).click();
  await expect(status(a)).toHaveText(
    /^The server refused \d+ changes: Only admins may write here\. Press Sync now to send them again\.$/,
  );
  const db = databaseName(url);
  expect(await couch.allDocs(db)).toHaveLength(2); // the salt and check documents only

  hostile.set({ kind: "pass" });
  await syncRegion(a).getByRole("button", { name: "Sync now" }).click();
  await expectUpToDate(a);
  // The chat's settings, its leaf, the message and the reply (the last may land just after the
  // status turns: wait on the server's state).
  await expect.poll(async () => (await couch.allDocs(db)).length, { timeout: 30_000 }).toBe(2 + 4);
});

test("a handshake that never answers: Connecting… has Cancel, and nothing changes here", async ({
  devices,
  couch,
  hostile,
}) => {
  const { page } = await devices();
  await page.goto("/");
  hostile.set({ kind: "stall" });
  await connect(page, throughProxy(couch, hostile));
  await expect(status(page)).toHaveText("Connecting…");
  await syncRegion(page).getByRole("button", { name: "Cancel" }).click();
  await expect(alert(page)).toHaveText("Connecting was cancelled. Nothing was changed on this device.");
  await expect(syncRegion(page).getByRole("button", { name: "Cancel" })).toHaveCount(0);
  await expect(syncRegion(page).getByRole("button", { name: "Connect" })).toBeEnabled();
  await expectNoSyncHere(page);
});

test("a server error quoting the password shows it redacted", async ({ devices, couch, hostile }) => {
  const { page } = await devices();
  await page.goto("/");
  hostile.set({ kind: "error", status: 500, reason: "authentication failed for me:hunter2-secret" });
  await connect(page, throughProxy(couch, hostile), { username: "me", password: "hunter2-secret" });
  await expect(alert(page)).toContainText("authentication failed for me:[redacted]", { timeout: 20_000 });
  await expect(alert(page)).not.toContainText("hunter2");
  await expectNoSyncHere(page);
});

test("a sync worker killed while encrypting: the status says so, and Sync now finishes the first sync", async ({
  devices,
  couch,
}) => {
  test.setTimeout(150_000);
  const N = 1500;
  const url = freshDatabase(couch);
  const { page } = await devices();
  await page.addInitScript(() => localStorage.setItem("grove.testHooks", "1"));
  await startLongFirstSync(page, url, N, /^Encrypting [\d,]+ of [\d,]+ entries$/);
  await page.waitForFunction(
    () => typeof (window as { groveKillSyncWorker?: () => void }).groveKillSyncWorker === "function",
  );
  await page.evaluate(() => (window as { groveKillSyncWorker?: () => void }).groveKillSyncWorker?.());
  await expect(status(page)).toHaveText(
    "The background worker stopped unexpectedly (it may have run out of memory). Nothing was left half-done; try again.",
  );
  await syncRegion(page).getByRole("button", { name: "Sync now" }).click();
  await expectUpToDate(page);
  const docs = await couch.allDocs(databaseName(url));
  expect(docs).toHaveLength(2 + N + 2);
  expect(docs.filter((d) => !String(d.doc._rev).startsWith("1-"))).toEqual([]);
});

/** A name outside this machine, resolved to 127.0.0.1 by this browser only. */
const REMOTE_NAME = "couch.grove.test";
const remoteTest = test.extend({
  launchOptions: [
    async ({ launchOptions }, use) => {
      await use({
        ...launchOptions,
        args: [...(launchOptions.args ?? []), `--host-resolver-rules=MAP ${REMOTE_NAME} 127.0.0.1`],
      });
    },
    { scope: "worker" },
  ],
});

remoteTest(
  "the password goes to a plain-http server outside this machine only once the user confirms it",
  async ({ devices, couch, hostile }) => {
    const origin = `http://${REMOTE_NAME}:${hostile.port}`;
    const url = `${origin}/${databaseName(freshDatabase(couch))}`;
    const { page } = await devices();
    await page.goto("/");
    await page.getByRole("button", { name: "Settings" }).click();
    const region = syncRegion(page);
    await region.getByRole("textbox", { name: "Server URL" }).fill(url);
    await region.getByRole("textbox", { name: "Username" }).fill("me");
    await region.getByLabel("Password", { exact: true }).fill("hunter2-secret");
    await region.getByLabel("Sync passphrase").fill(PASSPHRASE);
    await expect(region.getByRole("note")).toContainText(`${origin} is plain http:// to a host outside this machine`);
    await expect(region.getByRole("button", { name: "Connect" })).toBeDisabled();
    await region.getByRole("textbox", { name: "Server URL" }).press("Enter");
    expect(hostile.requests).toEqual([]);

    await region.getByRole("checkbox", { name: `Send the password to ${origin} unencrypted` }).check();
    await region.getByRole("button", { name: "Connect" }).click();
    await expect.poll(() => hostile.requests.length).toBeGreaterThan(0);
    await expect(alert(page).or(status(page).filter({ hasText: "Up to date" }))).toBeVisible({ timeout: 20_000 });
    expect(hostile.requests.filter((r) => r.method !== "OPTIONS").every((r) => r.authorized)).toBe(true);
  },
);
