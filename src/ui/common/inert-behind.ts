/**
 * Makes every other child of document.body `inert` while a modal is open, and returns the undo.
 * Only what this call made inert is restored, so a dialog opened from a dialog makes the outer one
 * inert and closing it gives the outer one back, still over an inert page. Elements marked
 * `data-modal-exempt` (the notices: an error must still be read out) stay live.
 */
export function inertBehind(modal: HTMLElement): () => void {
  const changed: HTMLElement[] = [];
  for (const el of Array.from(document.body.children)) {
    if (
      !(el instanceof HTMLElement) ||
      el === modal ||
      el.hasAttribute("inert") ||
      el.hasAttribute("data-modal-exempt")
    )
      continue;
    el.setAttribute("inert", "");
    changed.push(el);
  }
  return () => {
    for (const el of changed) el.removeAttribute("inert");
  };
}
