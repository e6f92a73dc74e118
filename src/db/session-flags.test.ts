import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import type { SessionId } from "../core/session/ids";
import { deleteSessions, setSessionFlags } from "./session-flags";
import { createSession, getSession, listSessions } from "./sessions";
import { freshDatabase, makeSession } from "./testing/database";

describe("session flags", () => {
  let ids: SessionId[];
  beforeEach(async () => {
    freshDatabase();
    const sessions = [1, 2, 3].map((n) => makeSession({ title: `chat ${n}`, updatedAt: n }));
    for (const s of sessions) await createSession(s);
    ids = sessions.map((s) => s.id);
  });

  it("pins and unpins, leaving no field behind", async () => {
    await setSessionFlags(ids[0]!, { pinned: true });
    expect((await getSession(ids[0]!))?.pinned).toBe(true);
    await setSessionFlags(ids[0]!, { pinned: false });
    expect(await getSession(ids[0]!)).not.toHaveProperty("pinned");
  });

  it("archiving unpins; restoring clears the flag", async () => {
    await setSessionFlags(ids[0]!, { pinned: true });
    await setSessionFlags(ids[0]!, { archived: true });
    expect(await getSession(ids[0]!)).toMatchObject({ archived: true });
    expect(await getSession(ids[0]!)).not.toHaveProperty("pinned");
    await setSessionFlags(ids[0]!, { archived: false });
    expect(await getSession(ids[0]!)).not.toHaveProperty("archived");
  });

  it("deletes several chats at once", async () => {
    await deleteSessions([ids[0]!, ids[2]!]);
    expect((await listSessions()).map((s) => s.id)).toEqual([ids[1]]);
  });
});
