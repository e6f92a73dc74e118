/** The words a graph node is read and drawn with. */
import type { GraphNode } from "../../core/graph/node";
import { KIND_NAME } from "../../core/graph/text";

/** "12,345" */
export const count = (n: number): string => n.toLocaleString("en-US");

/** Glyphs drawn in the node's badge (decorative: the name says the kind). */
export const KIND_GLYPH: Readonly<Record<GraphNode["kind"], string>> = {
  user: "U",
  assistant: "A",
  tool: "T",
  compaction: "⇊",
  branch_summary: "↺",
  handoff: "⇢",
  run: "⋮",
  setting: "⚙",
  extension_data: "…",
  note: "N",
  command: "$",
};

/**
 * The node's accessible name: its kind first, then its label (the user's bookmark), then its
 * title, and what else it says at a glance.
 * @example "User message · Keeper · What is a grove?"
 */
export function nodeName(node: GraphNode): string {
  const parts = [KIND_NAME[node.kind]];
  if (node.label) parts.push(node.label);
  if (node.handoff) {
    const other = node.handoff.title ?? "another chat";
    parts.push(node.handoff.direction === "to" ? `continued in ${other}` : `continues ${other}`);
    if (node.handoff.direction === "from") parts.push(node.title);
  } else {
    parts.push(node.title);
  }
  if (node.compaction)
    parts.push(`${count(node.compaction.tokensBefore)} → ${count(node.compaction.tokensAfter)} tokens`);
  if (node.status === "error") parts.push("failed");
  else if (node.status === "stopped" || node.status === "interrupted") parts.push(node.status);
  if (node.collapsed) parts.push(`${count(node.hiddenCount)} hidden below`);
  return parts.join(" · ");
}
