/** Live reads for components: narrow indexed queries (db/live.ts) plus core derivations. */
import { useLiveQuery } from "dexie-react-hooks";
import { useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { type CostTotal, NO_COST } from "../core/cost/cost";
import type { Entry, Session } from "../core/session/entries";
import type { SessionId } from "../core/session/ids";
import { buildTreeIndex, pathToRoot, type TreeIndex } from "../core/session/tree";
import { liveSessionWithEntries, NO_TREE, type SessionWithTree } from "../db/live";
import { needsPreparing, prepareRows } from "./chat/prepare-rows";
import { firstTail, readTail, sameAsFirst, type TailRead } from "./first-tail";

export type SessionView = {
  session: Session | undefined;
  index: TreeIndex;
  /** What the replies in `index` cost (every branch). */
  cost: CostTotal;
  path: Entry[];
  /** false until the first read returned */
  loaded: boolean;
  /**
   * The index holds every entry of the session. False while only the end of the path is read
   * (opening a chat, session-tail.ts): `path` is then its last entries and `index` holds only them,
   * so what needs the whole tree (versions, the graph, the meter's count, the chat's cost) waits.
   */
  complete: boolean;
};

const EMPTY: Entry[] = [];
const NO_SESSION: SessionWithTree = { session: undefined, ...NO_TREE };

/**
 * One read of the open chat, tagged with the chat it was made for: the end of the path first
 * (`tail`), then the whole tree (`tree`).
 */
type Tagged = ({ kind: "tree"; forId: SessionId | null } & SessionWithTree) | TailRead;
// The same read answered again (nothing changed) gets the same tagged object: no re-render.
const tagged = new WeakMap<object, Tagged>();
function tag(forId: SessionId | null, read: SessionWithTree): Tagged {
  const before = tagged.get(read);
  if (before?.kind === "tree" && before.forId === forId) return before;
  const result = { kind: "tree" as const, forId, ...read };
  tagged.set(read, result);
  return result;
}

/** The active path of a tree read, made once per read. */
const pathOfRead = new WeakMap<object, Entry[]>();
function pathOf(read: Tagged & { kind: "tree" }): Entry[] {
  const known = pathOfRead.get(read);
  if (known) return known;
  const leafId = read.session?.leafId ?? null;
  const path = leafId ? pathToRoot(read.index, leafId) : EMPTY;
  pathOfRead.set(read, path);
  return path;
}

/**
 * `read`, once the rows of its path are made (chat/prepare-rows.ts): a tree read with many entries
 * not drawn before (a long chat opened) is prepared a chunk per task first, and meanwhile the read
 * shown before stays (the chat's end). Every other read passes at once.
 */
function usePreparedRead(read: Tagged | undefined): Tagged | undefined {
  const path = useMemo(() => (read?.kind === "tree" ? pathOf(read) : null), [read]);
  const waits = useMemo(() => path !== null && needsPreparing(path), [path]);
  const [prepared, setPrepared] = useState<Tagged | undefined>(undefined);
  useEffect(() => {
    if (!waits || !path) return;
    let live = true;
    void prepareRows(path)
      .catch(() => {
        // The render makes what is missing itself.
      })
      .then(() => {
        if (live) setPrepared(read);
      });
    return () => {
      live = false;
    };
  }, [read, path, waits]);
  const out = !waits || prepared === read ? read : undefined;
  const before = useRef<Tagged | undefined>(undefined);
  useEffect(() => {
    if (out) before.current = out;
  }, [out]);
  return out ?? before.current;
}

export function useSessionView(sessionId: SessionId | null): SessionView {
  // Opening is tail-first: the chat's end is read and drawn first (a few keyed reads), and only
  // once it is on screen does the whole tree's read start (thousands of entries, in chunks), so
  // the last message shows as soon as on a 2-message chat and the page stays responsive meanwhile.
  const [treeFor, setTreeFor] = useState<SessionId | null>(null);
  const wantTree = sessionId === null || treeFor === sessionId;
  // One query for both (see liveSessionWithEntries): read apart, another tab's append blanks the chat.
  const tree = useLiveQuery(
    async () =>
      wantTree ? tag(sessionId, sessionId ? await liveSessionWithEntries(sessionId) : NO_SESSION) : undefined,
    [sessionId, wantTree],
  );
  const treeHere = tree?.forId === sessionId ? tree : undefined;
  // The chat the page opened on has its end read already (first-tail.ts): drawn by the first render.
  const tail = useLiveQuery(
    async (): Promise<Tagged | undefined> =>
      sessionId === null || treeHere ? undefined : sameAsFirst(await readTail(sessionId)),
    [sessionId, treeHere !== undefined],
    firstTail(sessionId),
  );
  const live = treeHere ?? (tail?.forId === sessionId ? tail : undefined);
  // A new read is rendered as a transition: React renders it in slices, yielding to the page
  // between components, instead of one long task for the tree index, the path's rows and every
  // visible message's Markdown (opening a 2,000-message chat held the main thread 0.2-0.4 s).
  // Until that render is done the previous result stays on screen.
  const shown = useDeferredValue(usePreparedRead(live));
  // Right after a switch the hook still holds the previous query's result (another chat's, or the
  // empty "no chat" one, which would read as "not found"): until the new one arrives, that is loading.
  const data = shown?.forId === sessionId ? shown : undefined;
  // The end of the chat is on screen (committed, painted): now read the whole tree.
  const tailShown = data?.kind === "tail" ? data.forId : null;
  useEffect(() => {
    if (tailShown !== null) setTreeFor(tailShown);
  }, [tailShown]);
  // useLiveQuery answers undefined while loading, so a missing session is read as null: otherwise
  // "not found" (a deleted chat's bookmark) could never be told apart from "still loading".
  const found = data === undefined ? undefined : (data.session ?? null);
  const session = found ?? undefined;
  const entries = data?.entries;
  // The whole tree's index and cost come with its read (built as it arrives, extended at appends:
  // db/live.ts); the end of the path read first is indexed here (a few entries).
  const tailPath = data?.kind === "tail" ? data.entries : null;
  const tailIndex = useMemo(() => buildTreeIndex(tailPath ?? EMPTY), [tailPath]);
  const index = data?.kind === "tree" ? data.index : tailIndex;
  const cost = data?.kind === "tree" ? data.cost : NO_COST;
  const leafId = session?.leafId ?? null;
  const treeRead = data?.kind === "tree" ? data : null;
  const path = useMemo(
    () => tailPath ?? (treeRead ? pathOf(treeRead) : leafId ? pathToRoot(index, leafId) : EMPTY),
    [tailPath, treeRead, index, leafId],
  );
  return {
    session,
    index,
    cost,
    path,
    loaded: entries !== undefined && found !== undefined,
    complete: data?.kind === "tree" || (data?.kind === "tail" && data.session === undefined),
  };
}
