/**
 * "Fit" (issue 27 item 4): the whole graph in the viewport with every label readable, whatever its
 * size. The model's lanes and levels are kept (so the outline has the shape of the graph), but
 * drawn in screen pixels at a fixed text size instead of zoomed: a row per level and a column per
 * lane while they fit; beyond that, levels where nothing happens (no fork, no branch start or end,
 * no compaction, branch summary, handoff, label or "you are here") are merged first, then levels
 * are bucketed evenly, and lanes past the last column share it. The nodes of one row in one column
 * are one item: the node itself when alone, else a group ("12 messages · 1 compaction").
 *
 * O(n) for n nodes. Pure: no DOM, no I/O.
 */
import type { GraphModel } from "./model";
import type { GraphNode } from "./node";
import { COLUMN_PITCH } from "./place";
import type { GraphNodeKind } from "./text";
import type { Size } from "./viewport";

/** Text of outline items, CSS px: readable (issue 27 asks at least 11). */
export const OUTLINE_FONT_PX = 12;
/** The least distance between two rows, and the most (a small graph is not spread out). */
const MIN_ROW_PX = 24;
const MAX_ROW_PX = 44;
const ITEM_HEIGHT_PX = 20;
/** The least column width (a glyph and about twelve characters: "1,234 messages"), and the most. */
const MIN_COLUMN_PX = 116;
const MAX_COLUMN_PX = 240;
const COLUMN_GAP_PX = 10;

/** Room kept free around the outline: the zoom bar above, the keyboard hint below. */
export type OutlinePadding = {
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly left: number;
};
const PADDING: OutlinePadding = { top: 52, right: 12, bottom: 44, left: 12 };

type OutlineItem = {
  /** Stable: the key of its first node. */
  readonly key: string;
  /** The nodes it stands for, top to bottom. */
  readonly nodes: readonly number[];
  /** The node's kind when it is one node, else "group". */
  readonly kind: GraphNodeKind | "group";
  /** What it says: the node's label or title, or how many messages and what is among them. */
  readonly text: string;
  readonly onActivePath: boolean;
  /** Holds where you are (the model's current node). */
  readonly current: boolean;
  /** Holds a search match. */
  readonly match: boolean;
  /** Screen pixels, in the viewport. */
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
};

type OutlineEdge = { readonly from: number; readonly to: number; readonly active: boolean };

export type Outline = {
  readonly items: readonly OutlineItem[];
  readonly edges: readonly OutlineEdge[];
  /** Every node is an item of its own (nothing grouped). */
  readonly whole: boolean;
};

const laneOf = (n: GraphNode): number => Math.round(n.x / COLUMN_PITCH);

/** Whether a node is worth its own row: something happens there. */
function marks(model: GraphModel, n: GraphNode): boolean {
  if (n.kind !== "user" && n.kind !== "assistant" && n.kind !== "tool") return true;
  if (n.parent < 0 || n.children.length !== 1 || n.label || n.index === model.currentIndex) return true;
  return model.nodes[n.parent]!.children.length > 1;
}

/** Level ranges, one per row: [first level, last level]. */
function rowsOf(model: GraphModel, capacity: number): [number, number][] {
  const levels = model.maxDepth + 1;
  if (levels <= capacity) return Array.from({ length: levels }, (_, d) => [d, d]);
  // Segments: each level where something happens, and each stretch of levels between them.
  const marked = new Uint8Array(levels);
  for (const n of model.nodes) if (marks(model, n)) marked[n.depth] = 1;
  const segments: [number, number][] = [];
  for (let d = 0; d < levels; d++) {
    const last = segments[segments.length - 1];
    if (!marked[d] && last && !marked[last[0]] && last[1] === d - 1) last[1] = d;
    else segments.push([d, d]);
  }
  if (segments.length <= capacity) return segments;
  // Still too many: consecutive segments share a row, as evenly as they go.
  const rows: [number, number][] = [];
  for (let r = 0; r < capacity; r++) {
    const first = segments[Math.floor((r * segments.length) / capacity)]!;
    const last = segments[Math.floor(((r + 1) * segments.length) / capacity) - 1]!;
    rows.push([first[0], last[1]]);
  }
  return rows;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** What a group of nodes says: how many messages, and what is among them. */
function groupText(model: GraphModel, nodes: readonly number[]): string {
  let messages = 0;
  let compactions = 0;
  let summaries = 0;
  let handoffs = 0;
  let forks = 0;
  for (const i of nodes) {
    const n = model.nodes[i]!;
    if (n.run) messages += n.run.entries.length;
    else if (n.kind === "compaction") compactions++;
    else if (n.kind === "branch_summary") summaries++;
    else if (n.kind === "handoff") handoffs++;
    else messages++;
    if (n.children.length > 1) forks++;
  }
  const parts = [plural(messages, "message", "messages")];
  if (forks) parts.push(plural(forks, "fork", "forks"));
  if (compactions) parts.push(plural(compactions, "compaction", "compactions"));
  if (summaries) parts.push(plural(summaries, "summary", "summaries"));
  if (handoffs) parts.push(plural(handoffs, "handoff", "handoffs"));
  return parts.join(" · ");
}

/**
 * The outline of `model` for a viewport of `size`: items inside it (padding kept free), and the
 * edges between items.
 */
export function buildOutline(model: GraphModel, size: Size, padding: OutlinePadding = PADDING): Outline {
  const width = Math.max(1, size.width - padding.left - padding.right);
  const height = Math.max(1, size.height - padding.top - padding.bottom);
  if (model.nodes.length === 0) return { items: [], edges: [], whole: true };

  const rows = rowsOf(model, Math.max(1, Math.floor(height / MIN_ROW_PX)));
  const rowOfLevel = new Int32Array(model.maxDepth + 1);
  for (const [r, [d0, d1]] of rows.entries()) rowOfLevel.fill(r, d0, d1 + 1);
  let lanes = 0;
  for (const n of model.nodes) lanes = Math.max(lanes, laneOf(n) + 1);
  const columns = Math.max(1, Math.min(lanes, Math.floor(width / MIN_COLUMN_PX)));

  // Items: the nodes of one row in one column, in level order (byDepth), so each item's first node is its top.
  const itemAt = new Map<number, number>();
  const members: number[][] = [];
  const cells: { row: number; col: number }[] = [];
  const itemOf = new Int32Array(model.nodes.length);
  for (let k = 0; k < model.byDepth.length; k++) {
    const i = model.byDepth[k]!;
    const n = model.nodes[i]!;
    const row = rowOfLevel[n.depth]!;
    const col = Math.min(laneOf(n), columns - 1);
    const cell = row * columns + col;
    let item = itemAt.get(cell);
    if (item === undefined) {
      item = members.length;
      itemAt.set(cell, item);
      members.push([]);
      cells.push({ row, col });
    }
    members[item]!.push(i);
    itemOf[i] = item;
  }

  const rowPx = Math.min(MAX_ROW_PX, height / rows.length);
  const columnPx = Math.min(MAX_COLUMN_PX, width / columns);
  const left = padding.left + (width - columnPx * columns) / 2;
  const itemHeight = Math.min(ITEM_HEIGHT_PX, rowPx - 2);
  const items: OutlineItem[] = members.map((nodes, item) => {
    const { row, col } = cells[item]!;
    const first = model.nodes[nodes[0]!]!;
    const one = nodes.length === 1;
    return {
      key: first.key,
      nodes,
      kind: one ? first.kind : "group",
      text: one ? (first.label ? `${first.label} · ${first.title}` : first.title) : groupText(model, nodes),
      onActivePath: nodes.some((i) => model.nodes[i]!.onActivePath),
      current: nodes.includes(model.currentIndex),
      match: nodes.some((i) => model.nodes[i]!.matchesSearch),
      x: left + col * columnPx + COLUMN_GAP_PX / 2,
      y: padding.top + row * rowPx + (rowPx - itemHeight) / 2,
      width: columnPx - COLUMN_GAP_PX,
      height: itemHeight,
    };
  });

  // One edge per pair of items joined by at least one parent → child; active when one of them is.
  const edges = new Map<number, OutlineEdge>();
  for (const n of model.nodes) {
    if (n.parent < 0) continue;
    const from = itemOf[n.parent]!;
    const to = itemOf[n.index]!;
    if (from === to) continue;
    const id = from * items.length + to;
    const active = n.onActivePath && model.nodes[n.parent]!.onActivePath;
    if (!edges.get(id)?.active) edges.set(id, { from, to, active });
  }
  return { items, edges: [...edges.values()], whole: items.length === model.nodes.length };
}
