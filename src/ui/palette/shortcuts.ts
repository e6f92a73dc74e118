/**
 * The app's global keyboard shortcuts, in one place: what CommandPalette listens for and what it
 * shows next to each command. Ctrl on Windows and Linux, ⌘ on Apple devices. Chosen not to clash
 * with the browser's own (Ctrl+K focuses Chrome's search bar only when the page does not take it).
 */
export type Shortcut = { readonly key: string; readonly shift?: boolean };

export const SHORTCUTS = {
  palette: { key: "k" },
  newChat: { key: "o", shift: true },
  settings: { key: "," },
} as const satisfies Record<string, Shortcut>;

type Action = Exclude<keyof typeof SHORTCUTS, "palette">;

const isApple = (): boolean => /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? "");

type KeyInput = Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "shiftKey" | "altKey" | "isComposing">;

function matches(e: KeyInput, s: Shortcut): boolean {
  if (e.isComposing || e.altKey) return false;
  // The platform's own modifier only: Ctrl+K on a Mac is "delete to end of line" in text fields.
  if (!(isApple() ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey)) return false;
  return e.key.toLowerCase() === s.key && e.shiftKey === Boolean(s.shift);
}

export const isPaletteKey = (e: KeyInput): boolean => matches(e, SHORTCUTS.palette);

export function whichShortcut(e: KeyInput): Action | null {
  for (const action of ["newChat", "settings"] as const) if (matches(e, SHORTCUTS[action])) return action;
  return null;
}

export function shortcutLabel(s: Shortcut): string {
  const key = s.key === "," ? "," : s.key.toUpperCase();
  return isApple() ? `${s.shift ? "⇧" : ""}⌘${key}` : `Ctrl+${s.shift ? "Shift+" : ""}${key}`;
}
