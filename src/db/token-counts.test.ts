import "fake-indexeddb/auto";
import { afterEach, beforeEach, expect, it } from "vitest";
import { newEntryId } from "../core/session/ids";
import { createSession } from "./sessions";
import { closeDb, freshDatabase, makeSession, userMessage } from "./testing/database";
import { getTokenCounts, putTokenCounts } from "./token-counts";

beforeEach(freshDatabase);
afterEach(closeDb);

it("caches counts per entry and encoding, dropping counts of entries that no longer exist", async () => {
  const s = makeSession();
  const e = userMessage(s.id, null, "hello");
  await createSession(s, [e]);
  const gone = newEntryId();

  await putTokenCounts([
    { entryId: e.id, encoding: "cl100k_base", count: 2 },
    { entryId: e.id, encoding: "o200k_base", count: 3 },
    { entryId: gone, encoding: "o200k_base", count: 9 },
  ]);

  expect(await getTokenCounts([e.id, gone], "o200k_base")).toEqual(new Map([[e.id, 3]]));
  expect(await getTokenCounts([e.id], "cl100k_base")).toEqual(new Map([[e.id, 2]]));
  expect(await getTokenCounts([e.id], "p50k_base")).toEqual(new Map());
});
