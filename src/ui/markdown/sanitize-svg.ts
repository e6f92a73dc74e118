/**
 * Mermaid's SVG made inert before it is used (issue 30.4): a diagram's labels are the model's text,
 * and Mermaid's own "strict" cleaning still let markup through (`<img src>` in an HTML label). The
 * SVG is parsed by DOMPurify in a detached document (never the live page) and keeps only drawing:
 * no script, handler, link, foreign (HTML) content or external reference.
 */
import DOMPurify from "dompurify";

export function sanitizeSvg(svg: string): string {
  return DOMPurify.sanitize(svg, {
    USE_PROFILES: { svg: true, svgFilters: true },
    // Mermaid's diagram styles live in a <style> inside the SVG (scoped to the diagram's id).
    ADD_TAGS: ["style"],
    FORBID_TAGS: ["foreignObject", "a", "image", "use", "script", "iframe", "img"],
    FORBID_ATTR: ["href", "xlink:href"],
  });
}
