/**
 * The chat as the user sees it right after Enter: the live view plus the message being stored
 * (state/pending-send.ts), so the message and the reply placeholder under it render in the frame
 * after the keydown instead of after the database writes and the live read.
 */
import { useEffect, useMemo } from "react";
import type { Entry, MessageEntry } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { buildTreeIndex, compareEntries, type TreeIndex } from "../../core/session/tree";
import { type PendingSend, settleSend, usePendingSendStore } from "../../state/pending-send";
import type { SessionView } from "../hooks";

/**
 * `view` with `pending` shown: a new chat's first message while the chat is not read yet, or a
 * message under the leaf on screen. Unchanged when the live read already has the entry (it takes
 * over, with the same id) or when the user is somewhere else in the tree.
 */
export function withPendingSend(view: SessionView, pending: PendingSend | undefined): SessionView {
  if (!pending) return view;
  const { entry, target } = pending;
  if (view.index.byId.has(entry.id)) return view;
  if (!view.session) {
    if (target.kind !== "new_chat") return view;
    return {
      session: { ...target.session, leafId: entry.id },
      index: buildTreeIndex([entry]),
      path: [entry],
      loaded: true,
    };
  }
  if (view.session.leafId !== entry.parentId) return view;
  return {
    session: { ...view.session, leafId: entry.id },
    index: indexWith(view.index, entry),
    path: [...view.path, entry],
    loaded: view.loaded,
  };
}

/** `index` with one more leaf (copied maps: the live index stays as it is). */
function indexWith(index: TreeIndex, entry: MessageEntry): TreeIndex {
  const byId = new Map<EntryId, Entry>(index.byId);
  byId.set(entry.id, entry);
  const parentId = entry.parentId;
  if (parentId === null || !byId.has(parentId)) {
    return { byId, childrenOf: index.childrenOf, roots: [...index.roots, entry].sort(compareEntries) };
  }
  const childrenOf = new Map(index.childrenOf);
  childrenOf.set(parentId, [...(index.childrenOf.get(parentId) ?? []), entry].sort(compareEntries));
  return { byId, childrenOf, roots: index.roots };
}

/** The chat on screen with the message being sent in it; drops that copy once the live read has the entry. */
export function usePendingSendView(sessionId: SessionId | null, view: SessionView): SessionView {
  const pending = usePendingSendStore((s) => (sessionId ? s.sends[sessionId] : undefined));
  const arrived = pending?.phase === "saved" && view.index.byId.has(pending.entry.id);
  useEffect(() => {
    if (arrived && sessionId && pending) settleSend(sessionId, pending.entry.id);
  }, [arrived, sessionId, pending]);
  return useMemo(() => withPendingSend(view, pending), [view, pending]);
}
