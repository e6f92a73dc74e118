/**
 * Sync between devices (issue 14): two browser contexts syncing through pouchdb-server, a real
 * CouchDB-protocol server started by the fixture (e2e/sync-server.ts). Run with one worker: the
 * server's port is fixed (GROVE_E2E_COUCH_PORT).
 */
import { assistantMessages, chatRequests, send, waitIdle } from "./app";
import { openSeeded, seed, TRIP, tripRows } from "./seed";
import {
  closeSettings,
  connect,
  connectedDevice,
  expect,
  expectUpToDate,
  freshDatabase,
  syncRegion,
  tableRows,
  test,
} from "./sync-helpers";

test.describe.configure({ mode: "serial" });

test("a whole session tree arrives identical on a second device, and both send the same next request", async ({
  devices,
  mock,
  couch,
}) => {
  const url = freshDatabase(couch);
  const a = await connectedDevice(devices, mock, url, (page) => seed(page, tripRows()));
  const b = await connectedDevice(devices, mock, url);

  // Same sessions (both parts of the handoff), every entry (branches, compaction, branch summary,
  // handoff) and the label.
  for (const table of ["sessions", "entries", "labels"]) {
    expect(await tableRows(b, table), table).toEqual(await tableRows(a, table));
  }
  expect(await tableRows(b, "entries")).toHaveLength(tripRows().entries.length);

  // The same next request from each device: the context built from the synced tree is identical.
  for (const page of [a, b]) {
    await closeSettings(page);
    await openSeeded(page, TRIP);
    await expect(page.getByText("Layers, rain jackets and good walking shoes.")).toBeVisible();
    mock.enqueue("anthropic", { text: "Bring a map." });
    await send(page, "Anything else?");
    await expect(assistantMessages(page).filter({ hasText: "Bring a map." })).toBeVisible();
    await waitIdle(page);
  }
  const [fromA, fromB] = chatRequests(mock, "anthropic");
  expect(fromB?.body).toEqual(fromA?.body);
});

test("the server stores no plaintext: ids, titles and messages are all opaque", async ({ devices, mock, couch }) => {
  const url = freshDatabase(couch);
  await connectedDevice(devices, mock, url, (page) => seed(page, tripRows()));
  const docs = await couch.allDocs(url.slice(url.lastIndexOf("/") + 1));
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
  const url = freshDatabase(couch);
  await connectedDevice(devices, mock, url, (page) => seed(page, tripRows()));
  const { page: b } = await devices();
  await b.goto("/");
  await connect(b, url, "not the passphrase");
  await expect(syncRegion(b).getByRole("alert")).toHaveText(/Wrong sync passphrase/);
  await expect(syncRegion(b).getByRole("button", { name: "Connect" })).toBeVisible();
  expect(await tableRows(b, "sessions")).toEqual([]);
  expect(await tableRows(b, "entries")).toEqual([]);
  expect(await tableRows(b, "syncMeta")).toEqual([]);
  expect(await b.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).not.toContain(
    "_pouch_grove-sync",
  );
  // The right one then works.
  await syncRegion(b).getByLabel("Sync passphrase").fill("correct horse battery staple");
  await syncRegion(b).getByRole("button", { name: "Connect" }).click();
  await expectUpToDate(b);
  expect(await tableRows(b, "entries")).toHaveLength(tripRows().entries.length);
});
