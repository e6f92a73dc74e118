import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import { newSessionId } from "../core/session/ids";
import { appendQueued, deleteQueued, getQueued, listQueued, putQueued, takeQueued } from "./queued";
import { createSession, deleteSession } from "./sessions";
import { freshDatabase, makeSession } from "./testing/database";

beforeEach(freshDatabase);

describe("queued messages", () => {
  it("one per chat: a second message joins the first, the first time stays", async () => {
    const a = newSessionId();
    const b = newSessionId();
    await appendQueued(a, "first", 10, "owner-1");
    await appendQueued(a, "second", 20, "owner-1");
    await appendQueued(b, "other chat", 30, "owner-1");
    expect(await getQueued(a)).toEqual({ sessionId: a, text: "first\n\nsecond", queuedAt: 10, ownerId: "owner-1" });
    expect((await listQueued()).map((r) => r.text).sort()).toEqual(["first\n\nsecond", "other chat"]);
    await deleteQueued(a);
    expect(await getQueued(a)).toBeUndefined();
    await putQueued({ sessionId: a, text: "moved", queuedAt: 40 });
    expect((await getQueued(a))?.text).toBe("moved");
  });

  it("takeQueued gives the row to one taker only", async () => {
    const a = newSessionId();
    await appendQueued(a, "once", 10, "owner-1");
    const [first, second] = await Promise.all([takeQueued(a), takeQueued(a)]);
    expect([first?.text, second?.text].sort()).toEqual(["once", undefined].sort());
    expect(await getQueued(a)).toBeUndefined();
  });

  it("go with their chat when it is deleted", async () => {
    const session = makeSession();
    await createSession(session, []);
    await appendQueued(session.id, "never sent", 10, "owner-1");
    await deleteSession(session.id);
    expect(await listQueued()).toEqual([]);
  });
});
