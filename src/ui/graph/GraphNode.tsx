import { memo, type ReactNode } from "react";
import type { GraphModel } from "../../core/graph/model";
import { positionOf } from "../../core/graph/navigation";
import type { GraphNode as Node } from "../../core/graph/node";
import { NODE_HEIGHT, NODE_WIDTH } from "../../core/graph/place";
import { count, KIND_GLYPH, nodeName } from "./names";

/**
 * One node of the graph: a `treeitem` named by its kind, label and title (names.ts), drawn as a
 * card with its role colour, first words, label chip and, for a compaction, tokens before → after.
 * Clicks and keys are handled by the tree (GraphView), which finds the node by `data-index`.
 */
export const GraphNodeView = memo(function GraphNodeView({
  model,
  node,
  focused,
  selected,
  current,
  strongFold,
}: {
  model: GraphModel;
  node: Node;
  /** Holds the tree's one tab stop (roving tabindex). */
  focused: boolean;
  selected: boolean;
  /** Where the session's leaf is (the leaf, or the node it is hidden under). */
  current: boolean;
  /** Inside the folded span of the compaction being looked at. */
  strongFold: boolean;
}) {
  const { position, count: siblings } = positionOf(model, node.index);
  const meta = metaOf(node);
  const above = aboveOf(node);
  const classes = [
    "gnode",
    `k-${node.kind}`,
    node.onActivePath ? "on-path" : "off-path",
    current ? "current" : "",
    selected ? "selected" : "",
    node.matchesSearch ? "match" : "",
    node.foldedBy ? "folded" : "",
    strongFold ? "folded-strong" : "",
    node.status === "error" ? "failed" : "",
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <div
      role="treeitem"
      className={classes}
      data-index={node.index}
      data-key={node.key}
      tabIndex={focused ? 0 : -1}
      aria-level={node.depth + 1}
      aria-setsize={siblings}
      aria-posinset={position}
      aria-selected={selected}
      aria-expanded={node.collapsed || node.run ? false : node.children.length > 0 ? true : undefined}
      aria-current={current ? "true" : undefined}
      aria-label={nodeName(node)}
      title={node.run ? "Show these messages (Enter)" : undefined}
      style={{ left: node.x - NODE_WIDTH / 2, top: node.y, width: NODE_WIDTH, height: NODE_HEIGHT }}
    >
      {/* The glyph and "You are here" are CSS content: the name says both, and every word drawn
          as text is a word of the name, in its order (WCAG 2.5.3, axe's label-content-name-mismatch). */}
      <span className="gnode-badge" aria-hidden="true" data-glyph={KIND_GLYPH[node.kind]} />
      <span className="gnode-body" aria-hidden="true">
        {/* Spaces between the parts (not drawn in a flex column) keep the words apart in the text. */}
        {above ? <span className="gnode-above">{above} </span> : null}
        <span className={above || meta ? "gnode-title" : "gnode-title two-lines"}>{node.title} </span>
        {meta && <span className="gnode-meta">{meta}</span>}
      </span>
      {current ? (
        <span className="gnode-here" aria-hidden="true" data-text={node.isLeaf ? "You are here" : "Here (hidden)"} />
      ) : null}
    </div>
  );
});

/** What is drawn above the title: the user's label, or which chat a handoff continues (the name says it there too). */
function aboveOf(node: Node): ReactNode {
  if (node.label) return <span className="gnode-label">{node.label}</span>;
  if (node.handoff?.direction === "from")
    return <span className="gnode-kind">Continues {node.handoff.title ?? "another chat"}</span>;
  return null;
}

/** The node's small print below the title, in the words its name ends with (names.ts). */
function metaOf(node: Node): ReactNode {
  if (node.compaction) {
    return (
      <span className="gnode-kind">
        {count(node.compaction.tokensBefore)} → {count(node.compaction.tokensAfter)} tokens
      </span>
    );
  }
  if (node.status === "error") return <span className="gnode-kind bad">failed</span>;
  if (node.status === "stopped" || node.status === "interrupted")
    return <span className="gnode-kind">{node.status}</span>;
  if (node.collapsed) return <span className="gnode-kind">{count(node.hiddenCount)} hidden below</span>;
  return null;
}
