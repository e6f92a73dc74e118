import { useEffect, useState } from "react";
import type { EntryId } from "../../core/session/ids";

/** Text selected inside one message's body, and where it is on screen (for the floating button). */
export type PassageSelection = {
  readonly entryId: EntryId;
  readonly text: string;
  readonly top: number;
  readonly left: number;
  readonly bottom: number;
};

/** The message body a node is in, and the message's id (MessageItem's `data-entry-id`). */
function messageOf(node: Node | null): { body: Element; entryId: string } | null {
  const el = node instanceof Element ? node : (node?.parentElement ?? null);
  const body = el?.closest(".message-body") ?? null;
  const id = body?.closest("[data-entry-id]")?.getAttribute("data-entry-id");
  return body && id ? { body, entryId: id } : null;
}

function current(): PassageSelection | null {
  const s = document.getSelection();
  if (!s || s.isCollapsed || s.rangeCount === 0) return null;
  const a = messageOf(s.anchorNode);
  const f = messageOf(s.focusNode);
  if (!a || !f || a.body !== f.body) return null;
  const text = s.toString();
  if (text.trim() === "") return null;
  const r = s.getRangeAt(0).getBoundingClientRect();
  // Scrolled out of view: no button floating over the header or the composer.
  if (r.bottom < 0 || r.top > window.innerHeight) return null;
  return { entryId: a.entryId as EntryId, text, top: r.top, left: r.left, bottom: r.bottom };
}

const same = (x: PassageSelection | null, y: PassageSelection | null): boolean =>
  x === y ||
  (x !== null &&
    y !== null &&
    x.entryId === y.entryId &&
    x.text === y.text &&
    x.top === y.top &&
    x.left === y.left &&
    x.bottom === y.bottom);

/**
 * The passage the user has selected inside one message, or null (nothing selected, or a selection
 * across messages or outside their text). Followed as the selection changes and the chat scrolls:
 * the chat offers "Keep word for word" for it (PassagePinButton).
 */
export function usePassageSelection(): PassageSelection | null {
  const [selection, setSelection] = useState<PassageSelection | null>(null);
  useEffect(() => {
    const update = () => {
      const next = current();
      setSelection((prev) => (same(prev, next) ? prev : next));
    };
    document.addEventListener("selectionchange", update);
    window.addEventListener("scroll", update, { capture: true, passive: true });
    return () => {
      document.removeEventListener("selectionchange", update);
      window.removeEventListener("scroll", update, { capture: true });
    };
  }, []);
  return selection;
}
