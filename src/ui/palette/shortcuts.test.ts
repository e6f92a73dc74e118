import { afterEach, describe, expect, it, vi } from "vitest";
import { isPaletteKey, SHORTCUTS, shortcutLabel, whichShortcut } from "./shortcuts";

const key = (k: string, mods: Partial<Record<"ctrlKey" | "metaKey" | "shiftKey" | "altKey", boolean>> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  isComposing: false,
  ...mods,
});

describe("shortcuts (Windows and Linux)", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("Ctrl+K opens the palette; a plain K, Alt or Shift does not", () => {
    vi.stubGlobal("navigator", { platform: "Linux x86_64" });
    expect(isPaletteKey(key("k", { ctrlKey: true }))).toBe(true);
    expect(isPaletteKey(key("K", { ctrlKey: true }))).toBe(true);
    expect(isPaletteKey(key("k"))).toBe(false);
    expect(isPaletteKey(key("k", { ctrlKey: true, altKey: true }))).toBe(false);
    expect(isPaletteKey(key("k", { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(isPaletteKey({ ...key("k", { ctrlKey: true }), isComposing: true })).toBe(false);
  });

  it("names the other shortcuts and shows them as typed", () => {
    vi.stubGlobal("navigator", { platform: "Win32" });
    expect(whichShortcut(key("O", { ctrlKey: true, shiftKey: true }))).toBe("newChat");
    expect(whichShortcut(key(",", { ctrlKey: true }))).toBe("settings");
    expect(whichShortcut(key("o", { ctrlKey: true }))).toBeNull();
    expect(shortcutLabel(SHORTCUTS.newChat)).toBe("Ctrl+Shift+O");
    expect(shortcutLabel(SHORTCUTS.palette)).toBe("Ctrl+K");
  });

  it("on a Mac it is ⌘, and Ctrl+K stays the text field's", () => {
    vi.stubGlobal("navigator", { platform: "MacIntel" });
    expect(isPaletteKey(key("k", { metaKey: true }))).toBe(true);
    expect(isPaletteKey(key("k", { ctrlKey: true }))).toBe(false);
    expect(shortcutLabel(SHORTCUTS.palette)).toBe("⌘K");
    expect(shortcutLabel(SHORTCUTS.newChat)).toBe("⇧⌘O");
  });
});
