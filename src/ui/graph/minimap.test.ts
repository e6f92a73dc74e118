import { describe, expect, it } from "vitest";
import { LEGIBLE_ZOOM } from "../../core/graph/viewport";
import { showsMinimap } from "./Minimap";

/** A graph whose node boxes span `width` × `height` graph units. */
const graph = (width: number, height: number, nodes = 1) => ({
  bounds: { minX: 0, maxX: width, minY: 0, maxY: height },
  nodes: Array.from({ length: nodes }, () => null as never),
});

describe("showsMinimap", () => {
  const size = { width: 800, height: 600 };
  const tall = graph(200, (3 * size.height) / LEGIBLE_ZOOM);

  it("shows for a graph much taller (or wider) than the viewport at a legible zoom", () => {
    expect(showsMinimap(tall, size, false)).toBe(true);
    expect(showsMinimap(graph((3 * size.width) / LEGIBLE_ZOOM, 100), size, false)).toBe(true);
    expect(showsMinimap(graph(200, size.height / LEGIBLE_ZOOM), size, false)).toBe(false);
  });

  it("not for an empty graph, an unmeasured viewport or a panel too narrow for its column", () => {
    expect(showsMinimap(graph(200, 100_000, 0), size, false)).toBe(false);
    expect(showsMinimap(tall, { width: 800, height: 0 }, false)).toBe(false);
    expect(showsMinimap(tall, { width: 300, height: 600 }, false)).toBe(false);
  });

  it("decides on the width without its column, so showing it does not hide it again", () => {
    // 300 px left beside the shown column: the panel is 445 px wide, room enough.
    expect(showsMinimap(tall, { width: 300, height: 600 }, true)).toBe(true);
    // Whatever the graph, the answer at a panel's full width holds once the column takes its part.
    for (const g of [tall, graph(3_000, 100), graph(200, 1_500), graph(200, 100)]) {
      expect(showsMinimap(g, { width: 800 - 145, height: 600 }, true)).toBe(showsMinimap(g, size, false));
    }
  });
});
