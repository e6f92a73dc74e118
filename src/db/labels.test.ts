import "fake-indexeddb/auto";
import { afterEach, beforeEach, expect, it } from "vitest";
import { newEntryId } from "../core/session/ids";
import { EntryNotFoundError } from "./errors";
import { getLabels, setLabel } from "./labels";
import { createSession } from "./sessions";
import { closeDb, freshDatabase, makeSession, userMessage } from "./testing/database";

beforeEach(freshDatabase);
afterEach(closeDb);

it("labels are per entry, listed per session, replaced, and removed by null or blank text", async () => {
  const s1 = makeSession();
  const e1 = userMessage(s1.id, null, "one");
  const s2 = makeSession();
  const e2 = userMessage(s2.id, null, "two");
  await createSession(s1, [e1]);
  await createSession(s2, [e2]);

  await setLabel(e1.id, " start here ");
  await setLabel(e2.id, "other");
  expect(await getLabels(s1.id)).toEqual(new Map([[e1.id, "start here"]]));

  await setLabel(e1.id, "renamed");
  expect(await getLabels(s1.id)).toEqual(new Map([[e1.id, "renamed"]]));

  await setLabel(e1.id, "   ");
  expect(await getLabels(s1.id)).toEqual(new Map());
  await setLabel(e2.id, null);
  expect(await getLabels(s2.id)).toEqual(new Map());
});

it("labelling a missing entry throws", async () => {
  await expect(setLabel(newEntryId(), "x")).rejects.toBeInstanceOf(EntryNotFoundError);
});
