import { memo } from "react";
import type { Outline } from "../../core/graph/outline";
import { KIND_GLYPH } from "./names";

/** Glyph of a group of nodes (decorative). */
const GROUP_GLYPH = "≡";

/**
 * "Fit" zoomed out (core/graph/outline.ts): the whole graph as labelled items in screen pixels,
 * each a node or a group of nodes, joined as the nodes are. Drawn for the eye and the pointer
 * (a tap zooms in to the item, GraphView): keyboard and screen reader users move through the tree,
 * which keeps its focused node, so the outline is hidden from the accessibility tree.
 */
export const GraphOutline = memo(function GraphOutline({ outline }: { outline: Outline }) {
  const { items, edges } = outline;
  const path = (active: boolean) =>
    edges
      .filter((e) => e.active === active)
      .map((e) => {
        const a = items[e.from]!;
        const b = items[e.to]!;
        const x1 = a.x + a.width / 2;
        const y1 = a.y + a.height;
        const x2 = b.x + b.width / 2;
        const y2 = b.y;
        const ym = Math.max(y1, y2 - 6);
        return x1 === x2 ? `M${x1},${y1}V${y2}` : `M${x1},${y1}V${ym}H${x2}V${y2}`;
      })
      .join("");
  return (
    <div className="graph-outline" aria-hidden="true">
      <svg className="graph-outline-edges" width="100%" height="100%" aria-hidden="true">
        <path className="graph-edge" d={path(false)} />
        <path className="graph-edge active" d={path(true)} />
      </svg>
      {items.map((item, i) => (
        <div
          key={item.key}
          data-outline={i}
          data-key={item.key}
          className={[
            "goutline-item",
            `k-${item.kind}`,
            item.onActivePath ? "on-path" : "off-path",
            item.current ? "current" : "",
            item.match ? "match" : "",
          ]
            .filter(Boolean)
            .join(" ")}
          style={{ left: item.x, top: item.y, width: item.width, height: item.height }}
          title={item.text}
        >
          <span className="goutline-glyph" data-glyph={item.kind === "group" ? GROUP_GLYPH : KIND_GLYPH[item.kind]} />
          <span className="goutline-text">{item.text}</span>
          {item.current ? <span className="goutline-here">You are here</span> : null}
        </div>
      ))}
    </div>
  );
});
