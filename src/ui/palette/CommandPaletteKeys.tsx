import { lazy, useEffect, useState } from "react";
import { useUiStore } from "../../state/app/ui-store";
import { newChat } from "../../state/sessions/sessions";
import { LazyPart } from "../common/LazyPart";
import type { SessionView } from "../hooks";
import { isPaletteKey, whichShortcut } from "./shortcuts";

const loadPalette = () => import("./CommandPalette");
const PaletteDialog = lazy(() => loadPalette().then((m) => ({ default: m.PaletteDialog })));

/** Fetches the palette's chunk ahead of the first Ctrl+K (after the first screen is up). */
export function preloadPalette(): void {
  void loadPalette().catch(() => {});
}

/**
 * The command palette (Ctrl+K / ⌘K anywhere) and the app's other global shortcuts (shortcuts.ts).
 * Only the keys live in the entry chunk; the palette itself (commands, filter, model list) is a
 * chunk of its own, loaded the first time it opens.
 */
export function CommandPalette({ view, onShowSessions }: { view: SessionView; onShowSessions: () => void }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (isPaletteKey(e)) {
        e.preventDefault();
        setOpen((o) => !o);
        return;
      }
      const shortcut = whichShortcut(e);
      if (!shortcut) return;
      e.preventDefault();
      if (shortcut === "newChat") newChat();
      else if (shortcut === "settings") useUiStore.setState({ settingsOpen: true });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  if (!open) return null;
  return (
    <LazyPart>
      <PaletteDialog view={view} onShowSessions={onShowSessions} onClose={() => setOpen(false)} />
    </LazyPart>
  );
}
