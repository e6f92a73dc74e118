/**
 * The message trees of other apps' exports (ChatGPT's `mapping`, Claude's `parent_message_uuid`,
 * Open WebUI's `history.messages`, LibreChat's `parentMessageId`) walked the one way: parents
 * before children, each child in the export's own order, a state carried from parent to child.
 * Importers turn each node into an entry or pass it over (its children then hang on the nearest
 * kept ancestor). Pure and iterative: a 10,000-message branch must not overflow the stack.
 */
import type { Entry } from "../session/entries";
import type { EntryId } from "../session/ids";
import { isRepresentableTime } from "../time";

/** One node as the export links it: its key and its parent's (null or unknown: a root). */
export type TreeNode = { readonly key: string; readonly parent: string | null };

/**
 * Children per parent key (null = the roots), in the order the nodes are listed. `explicit` adds
 * an export's own children lists first (ChatGPT's `children`, Open WebUI's `childrenIds`): a child
 * is listed there only if it names that parent back. A parent that is not a node makes a root.
 */
export function childrenByParent(
  nodes: readonly TreeNode[],
  explicit?: (key: string) => readonly string[] | undefined,
): Map<string | null, string[]> {
  const parentOf = new Map<string, string | null>();
  for (const n of nodes) parentOf.set(n.key, n.parent);
  const out = new Map<string | null, string[]>();
  const listed = new Set<string>();
  const push = (parent: string | null, child: string) => {
    if (listed.has(child)) return;
    listed.add(child);
    const list = out.get(parent);
    if (list) list.push(child);
    else out.set(parent, [child]);
  };
  if (explicit) {
    for (const n of nodes) {
      for (const child of explicit(n.key) ?? []) if (parentOf.get(child) === n.key) push(n.key, child);
    }
  }
  for (const n of nodes) {
    const parent = n.parent !== null && parentOf.has(n.parent) && n.parent !== n.key ? n.parent : null;
    push(parent, n.key);
  }
  return out;
}

/**
 * Visits every node reachable from a root, parents first, depth first in child order. `visit`
 * returns the state its children get. Returns the keys never reached (nodes in a parent cycle).
 */
export function walkTree<C>(
  children: ReadonlyMap<string | null, readonly string[]>,
  rootState: C,
  visit: (key: string, state: C, isLeaf: boolean) => C,
): string[] {
  const seen = new Set<string>();
  const stack: { key: string; state: C }[] = [];
  const pushChildren = (parent: string | null, state: C) => {
    const kids = children.get(parent) ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ key: kids[i]!, state });
  };
  pushChildren(null, rootState);
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (seen.has(item.key)) continue;
    seen.add(item.key);
    const kids = children.get(item.key);
    pushChildren(item.key, visit(item.key, item.state, !kids || kids.length === 0));
  }
  const unreached: string[] = [];
  for (const [parent, kids] of children) {
    if (parent !== null && !seen.has(parent)) unreached.push(parent);
    for (const k of kids) if (!seen.has(k)) unreached.push(k);
  }
  return unreached;
}

/** The newest entry without children (ties: the later one listed), or null for no entries. */
export function newestLeaf(entries: readonly Entry[]): EntryId | null {
  const parents = new Set<EntryId | null>();
  for (const e of entries) parents.add(e.parentId);
  let best: Entry | undefined;
  for (const e of entries) if (!parents.has(e.id) && (!best || e.createdAt >= best.createdAt)) best = e;
  return best?.id ?? null;
}

/** Seconds or milliseconds since the epoch (apps use both) as milliseconds; undefined if not a time. */
export function epochMs(value: unknown): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return undefined;
  // 1e11 s is the year 5138; 1e11 ms is 1973: a number this large is already milliseconds.
  const ms = Math.round(value >= 1e11 ? value : value * 1000);
  // 1e300 is not a time (a Date cannot hold it; one took a chat down).
  return isRepresentableTime(ms) ? ms : undefined;
}

/** An ISO date string (or a number of seconds or milliseconds) as milliseconds; undefined if not a time. */
export function dateMs(value: unknown): number | undefined {
  if (typeof value === "number") return epochMs(value);
  if (typeof value !== "string" || value === "") return undefined;
  const ms = Date.parse(value);
  return isRepresentableTime(ms) ? ms : undefined;
}

/** `value` as a plain object's record, or undefined. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** `value` if it is a string, else undefined. */
export const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
