import "fake-indexeddb/auto";
import { afterEach, beforeEach, expect, it } from "vitest";
import { deleteSetting, getAllSettings, getSetting, setSetting } from "./settings";
import { closeDb, freshDatabase } from "./testing/database";

beforeEach(freshDatabase);
afterEach(closeDb);

it("stores structured values by key, overwrites and deletes them", async () => {
  expect(await getSetting("missing")).toBeUndefined();
  await setSetting("compaction", { reserveTokens: 16384, enabled: true });
  await setSetting("theme", "dark");
  await setSetting("theme", "light");
  expect(await getSetting<{ reserveTokens: number }>("compaction")).toEqual({ reserveTokens: 16384, enabled: true });
  expect(await getAllSettings()).toEqual({ compaction: { reserveTokens: 16384, enabled: true }, theme: "light" });
  await deleteSetting("theme");
  expect(await getAllSettings()).toEqual({ compaction: { reserveTokens: 16384, enabled: true } });
});
