import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import type { HandoffEntry } from "../core/session/entries";
import { newEntryId } from "../core/session/ids";
import { liveChildSessions } from "./live";
import { childSessions, createSession } from "./sessions";
import { freshDatabase, makeSession, userMessage } from "./testing/database";

beforeEach(() => freshDatabase());

describe("childSessions", () => {
  it("lists the sessions handed off from a session, oldest first, and nothing else", async () => {
    const parent = makeSession({ title: "Parent" });
    const first = userMessage(parent.id, null, "hello");
    await createSession({ ...parent, leafId: first.id }, [first]);

    const handoffChild = (title: string, createdAt: number) => {
      const child = makeSession({ title, createdAt, parentSessionId: parent.id, parentEntryId: first.id });
      const entry: HandoffEntry = {
        id: newEntryId(),
        sessionId: child.id,
        parentId: null,
        createdAt,
        type: "handoff",
        document: `doc of ${title}`,
        fromSessionId: parent.id,
        fromEntryId: first.id,
      };
      return createSession({ ...child, leafId: entry.id }, [entry]).then(() => child);
    };
    const later = await handoffChild("Parent (part 3)", 3_000);
    const earlier = await handoffChild("Parent (part 2)", 2_000);
    await createSession(makeSession({ title: "Unrelated" }));

    expect((await childSessions(parent.id)).map((s) => s.id)).toEqual([earlier.id, later.id]);
    expect((await liveChildSessions(parent.id)).map((s) => s.title)).toEqual(["Parent (part 2)", "Parent (part 3)"]);
    expect(await childSessions(earlier.id)).toEqual([]);
  });
});
