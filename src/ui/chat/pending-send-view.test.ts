import { describe, expect, it } from "vitest";
import { NO_COST, totalCost } from "../../core/cost/cost";
import type { Entry, MessageEntry, Session } from "../../core/session/entries";
import { type EntryId, newEntryId, newSessionId } from "../../core/session/ids";
import { buildTreeIndex, pathToRoot, siblingsOf } from "../../core/session/tree";
import type { PendingSend } from "../../state/send/pending-send";
import type { SessionView } from "../hooks";
import { withPendingSend } from "./pending-send-view";

const sessionId = newSessionId();
let clock = 0;
const message = (parentId: EntryId | null, role: "user" | "assistant", text: string): MessageEntry => ({
  id: newEntryId(),
  sessionId,
  parentId,
  createdAt: ++clock,
  type: "message",
  role,
  content: [{ type: "text", text }],
  status: "complete",
});
const session = (leafId: EntryId | null): Session => ({
  id: sessionId,
  title: "t",
  titleSource: "auto",
  createdAt: 0,
  updatedAt: 0,
  leafId,
});
function viewOf(entries: Entry[], leafId: EntryId | null): SessionView {
  const index = buildTreeIndex(entries);
  return {
    session: session(leafId),
    index,
    cost: totalCost(entries),
    path: leafId ? pathToRoot(index, leafId) : [],
    loaded: true,
    complete: true,
  };
}
const EMPTY: SessionView = {
  session: undefined,
  index: buildTreeIndex([]),
  cost: NO_COST,
  path: [],
  loaded: false,
  complete: false,
};

describe("the chat as shown right after Enter", () => {
  const q = message(null, "user", "Q");
  const a = message(q.id, "assistant", "A");

  it("the message shows under the leaf on screen, as the new leaf, with its place among its siblings", () => {
    const other = message(a.id, "user", "an earlier follow-up");
    const view = viewOf([q, a, other], a.id);
    const sent = message(a.id, "user", "follow-up");
    const shown = withPendingSend(view, { phase: "saving", entry: sent, target: { kind: "existing_chat" } });
    expect(shown.path.map((e) => e.id)).toEqual([q.id, a.id, sent.id]);
    expect(shown.session?.leafId).toBe(sent.id);
    expect(siblingsOf(shown.index, sent.id).siblings.map((e) => e.id)).toEqual([other.id, sent.id]);
    // The live index is not touched; the shown one reads like a full index with the message in it.
    expect(view.index.byId.has(sent.id)).toBe(false);
    expect(shown.index.byId.size).toBe(4);
    expect([...shown.index.byId.keys()]).toEqual([q.id, a.id, other.id, sent.id]);
    expect(new Map(shown.index.childrenOf).get(a.id)?.map((e) => e.id)).toEqual([other.id, sent.id]);
    expect(shown.index.byId.get(q.id)).toBe(q);
  });

  it("a new chat's first message shows before the chat can be read", () => {
    const first = message(null, "user", "hello");
    const pending: PendingSend = {
      phase: "saving",
      entry: first,
      target: { kind: "new_chat", session: session(first.id) },
    };
    const shown = withPendingSend(EMPTY, pending);
    expect(shown.loaded).toBe(true);
    expect(shown.session?.id).toBe(sessionId);
    expect(shown.path).toEqual([first]);
  });

  it("once the live read has the entry, the live view is shown as it is (same ids: rows replaced in place)", () => {
    const sent = message(a.id, "user", "follow-up");
    const live = viewOf([q, a, sent], sent.id);
    expect(withPendingSend(live, { phase: "saved", entry: sent, target: { kind: "existing_chat" } })).toBe(live);
  });

  it("not shown where the user no longer is (another leaf on screen), nor for an existing chat not read yet", () => {
    const sent = message(a.id, "user", "follow-up");
    const elsewhere = viewOf([q, a], q.id);
    const pending: PendingSend = { phase: "saving", entry: sent, target: { kind: "existing_chat" } };
    expect(withPendingSend(elsewhere, pending)).toBe(elsewhere);
    expect(withPendingSend(EMPTY, pending)).toBe(EMPTY);
    expect(withPendingSend(elsewhere, undefined)).toBe(elsewhere);
  });

  it("an edit shows in the place of the message it edits, as its newest version; what was below leaves the screen", () => {
    const q2 = message(a.id, "user", "Q2");
    const a2 = message(q2.id, "assistant", "A2");
    const view = viewOf([q, a, q2, a2], a2.id);
    const edited = message(a.id, "user", "Q2, reworded");
    const pending: PendingSend = { phase: "saving", entry: edited, target: { kind: "edit", replaces: q2.id } };
    const shown = withPendingSend(view, pending);
    expect(shown.path.map((e) => e.id)).toEqual([q.id, a.id, edited.id]);
    expect(shown.session?.leafId).toBe(edited.id);
    expect(siblingsOf(shown.index, edited.id)).toMatchObject({ position: 2, siblings: [q2, edited] });
    // The first message edited: a new root beside it.
    const root = message(null, "user", "Q, reworded");
    const first = withPendingSend(view, { phase: "saving", entry: root, target: { kind: "edit", replaces: q.id } });
    expect(first.path).toEqual([root]);
    expect(siblingsOf(first.index, root.id).siblings.map((e) => e.id)).toEqual([q.id, root.id]);
    // Read back (or the user moved away from the edited message): the live view as it is.
    expect(
      withPendingSend(viewOf([q, a, q2, a2, edited], edited.id), { ...pending, phase: "saved" }).path,
    ).toHaveLength(3);
    const away = viewOf([q, a], a.id);
    expect(withPendingSend(away, pending)).toBe(away);
  });

  it("a regenerate cuts the path at the reply's parent (where the placeholder shows) until the leaf has moved", () => {
    const q2 = message(a.id, "user", "Q2");
    const a2 = message(q2.id, "assistant", "A2");
    const view = viewOf([q, a, q2, a2], a2.id);
    const regenerate = { sessionId, replaces: a.id, parentId: q.id };
    const shown = withPendingSend(view, { phase: "saving", regenerate });
    expect(shown.path.map((e) => e.id)).toEqual([q.id]);
    expect(shown.session?.leafId).toBe(q.id);
    expect(shown.index).toBe(view.index);
    // The moved leaf read back, or the new reply stored under the question: nothing to cut any more.
    const moved = viewOf([q, a, q2, a2], q.id);
    expect(withPendingSend(moved, { phase: "saved", regenerate })).toBe(moved);
    const again = message(q.id, "assistant", "A, again");
    const answered = viewOf([q, a, q2, a2, again], again.id);
    expect(withPendingSend(answered, { phase: "saved", regenerate })).toBe(answered);
  });
});
