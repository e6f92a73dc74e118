import { describe, expect, it } from "vitest";
import type { Entry } from "../../core/session/entries";
import { buildTreeIndex } from "../../core/session/tree";
import { assistantMessage, branchSummary, compaction, makeSession, userMessage } from "../../db/testing/database";
import { endNotice } from "./end-notice";

const session = makeSession();
const u1 = userMessage(session.id, null, "hello", 1);
const a1 = assistantMessage(session.id, u1.id, "hi", 2);
const c = compaction(session.id, a1.id, "summary");

const notice = (entries: Entry[], leafId: Entry["id"] | null) =>
  endNotice({ ...session, leafId }, buildTreeIndex(entries));

describe("endNotice", () => {
  it("names a compaction that is the leaf with nothing after it", () => {
    expect(notice([u1, a1, c], c.id)).toEqual({ kind: "compaction", entry: c });
  });

  it("is gone once something was sent after it, or the leaf is elsewhere", () => {
    const u2 = userMessage(session.id, c.id, "next", 5);
    expect(notice([u1, a1, c, u2], u2.id)).toBeNull();
    expect(notice([u1, a1, c, u2], c.id)).toBeNull();
    expect(notice([u1, a1, c], a1.id)).toBeNull();
    expect(notice([], null)).toBeNull();
  });

  it("names a branch summary at the leaf", () => {
    const b = branchSummary(session.id, a1.id, a1.id, "what happened");
    expect(notice([u1, a1, b], b.id)?.kind).toBe("branch_summary");
  });
});
