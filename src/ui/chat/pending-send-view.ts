/**
 * The chat as the user sees it right after Enter: the live view plus the message being stored
 * (state/send/pending-send.ts), so the message and the reply placeholder under it render in the frame
 * after the keydown instead of after the database writes and the live read.
 */
import { useEffect, useMemo } from "react";
import type { MessageEntry } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { buildTreeIndex, compareEntries, type TreeIndex } from "../../core/session/tree";
import { type PendingSend, pendingId, settleSend, usePendingSendStore } from "../../state/send/pending-send";
import type { SessionView } from "../hooks";

/**
 * `view` with `pending` shown: a new chat's first message while the chat is not read yet, a
 * message under the leaf on screen, an edit in the place of the message it edits, or the path cut
 * at the parent of the reply being regenerated. Unchanged when the live read already has the
 * change (it takes over, with the same ids) or when the user is somewhere else in the tree.
 */
export function withPendingSend(view: SessionView, pending: PendingSend | undefined): SessionView {
  if (!pending) return view;
  if ("regenerate" in pending) {
    const at = replacedAt(view, pending.regenerate.replaces);
    if (!view.session || at < 1) return view;
    return { ...view, session: { ...view.session, leafId: pending.regenerate.parentId }, path: view.path.slice(0, at) };
  }
  const { entry, target } = pending;
  if (view.index.byId.has(entry.id)) return view;
  if (!view.session) {
    if (target.kind !== "new_chat") return view;
    return {
      session: { ...target.session, leafId: entry.id },
      index: buildTreeIndex([entry]),
      cost: view.cost,
      path: [entry],
      loaded: true,
      complete: true,
    };
  }
  if (target.kind === "edit") {
    const at = replacedAt(view, target.replaces);
    if (at < 0) return view;
    return {
      ...view,
      session: { ...view.session, leafId: entry.id },
      index: indexWith(view.index, entry),
      path: [...view.path.slice(0, at), entry],
    };
  }
  if (view.session.leafId !== entry.parentId) return view;
  return {
    session: { ...view.session, leafId: entry.id },
    index: indexWith(view.index, entry),
    cost: view.cost,
    path: [...view.path, entry],
    loaded: view.loaded,
    complete: view.complete,
  };
}

/** Where `id` is on the path on screen (-1: not there, the user is elsewhere or the change is read back). */
const replacedAt = (view: SessionView, id: EntryId): number => view.path.findIndex((e) => e.id === id);

/**
 * `index` with one more leaf. The live index stays as it is, and is not copied: on a 20,000-entry
 * chat copying its maps cost more than the rest of the frame after Enter.
 */
function indexWith(index: TreeIndex, entry: MessageEntry): TreeIndex {
  const byId = withKey(index.byId, entry.id, entry);
  const parentId = entry.parentId;
  if (parentId === null || !index.byId.has(parentId)) {
    return { byId, childrenOf: index.childrenOf, roots: [...index.roots, entry].sort(compareEntries) };
  }
  const siblings = [...(index.childrenOf.get(parentId) ?? []), entry].sort(compareEntries);
  return { byId, childrenOf: withKey(index.childrenOf, parentId, siblings), roots: index.roots };
}

/** `base` with `key` set to `value`, as a read-only view over `base` (nothing copied). */
function withKey<K, V>(base: ReadonlyMap<K, V>, key: K, value: V): ReadonlyMap<K, V> {
  const added = !base.has(key);
  function* entries(): MapIterator<[K, V]> {
    for (const [k, v] of base) yield [k, k === key ? value : v];
    if (added) yield [key, value];
  }
  function* keys(): MapIterator<K> {
    for (const [k] of entries()) yield k;
  }
  function* values(): MapIterator<V> {
    for (const [, v] of entries()) yield v;
  }
  return {
    get: (k) => (k === key ? value : base.get(k)),
    has: (k) => k === key || base.has(k),
    size: base.size + (added ? 1 : 0),
    forEach(fn, thisArg) {
      for (const [k, v] of entries()) fn.call(thisArg, v, k, this);
    },
    entries,
    keys,
    values,
    [Symbol.iterator]: entries,
  };
}

/** The live read has `pending`: the message is in it, or the regenerated reply has left its path. */
const readBack = (view: SessionView, pending: PendingSend): boolean =>
  "regenerate" in pending ? replacedAt(view, pending.regenerate.replaces) < 0 : view.index.byId.has(pending.entry.id);

/** The chat on screen with the message being sent in it; drops that copy once the live read has the entry. */
export function usePendingSendView(sessionId: SessionId | null, view: SessionView): SessionView {
  const pending = usePendingSendStore((s) => (sessionId ? s.sends[sessionId] : undefined));
  const arrived = pending?.phase === "saved" && readBack(view, pending);
  useEffect(() => {
    if (arrived && sessionId && pending) settleSend(sessionId, pendingId(pending));
  }, [arrived, sessionId, pending]);
  return useMemo(() => withPendingSend(view, pending), [view, pending]);
}
