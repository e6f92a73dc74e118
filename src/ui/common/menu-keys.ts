/**
 * Arrow keys in a role=menu (WAI-ARIA menu pattern): Down/Up move to the next/previous item,
 * wrapping; Home/End to the first/last; disabled items are skipped. Returns whether the key was one of them (then handled).
 */
export function moveMenuFocus(e: React.KeyboardEvent, menu: HTMLElement | null): boolean {
  const items = [...(menu?.querySelectorAll<HTMLElement>('[role^="menuitem"]:not(:disabled)') ?? [])];
  const at = items.indexOf(document.activeElement as HTMLElement);
  const target =
    e.key === "ArrowDown" ? at + 1 : e.key === "ArrowUp" ? at - 1 : e.key === "Home" ? 0 : e.key === "End" ? -1 : null;
  if (target === null) return false;
  e.preventDefault();
  items[(target + items.length) % items.length]?.focus();
  return true;
}
