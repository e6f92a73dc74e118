import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newSessionId } from "../core/session/ids";
import { getComposerDraft, saveComposerDraft } from "./composer-drafts";
import { createSession, deleteSession } from "./sessions";
import { closeDb, freshDatabase, makeSession } from "./testing/database";

beforeEach(freshDatabase);
afterEach(closeDb);

describe("composer drafts", () => {
  it("are kept per chat, replaced by the newer text, removed when emptied", async () => {
    const a = newSessionId();
    const b = newSessionId();
    await saveComposerDraft(a, "half a thought");
    expect(await getComposerDraft(a)).toBe("half a thought");
    expect(await getComposerDraft(b)).toBe("");
    await saveComposerDraft(a, "a whole thought");
    expect(await getComposerDraft(a)).toBe("a whole thought");
    await saveComposerDraft(a, "   ");
    expect(await getComposerDraft(a)).toBe("");
  });

  it("go with their chat when it is deleted", async () => {
    const session = makeSession();
    await createSession(session);
    await saveComposerDraft(session.id, "never sent");
    await deleteSession(session.id);
    expect(await getComposerDraft(session.id)).toBe("");
  });
});
