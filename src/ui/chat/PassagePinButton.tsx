import { type MessageEntry, messageText } from "../../core/session/entries";
import { findPassage, passageSource } from "../../core/session/pins";
import { planContext } from "../../core/session/plan-context";
import { pushNotice } from "../../state/app/ui-store";
import { setPinned } from "../../state/sessions/pins";
import type { SessionView } from "../hooks";
import type { PassageSelection } from "./use-passage-selection";
import "./pins.css";

/** Room above the selection for the button (px); below it when the selection is near the top. */
const ABOVE_PX = 40;

/** The message and the "Continue" replies joined to it: a selection in the row may lie in any of them. */
function messagesOfRow(view: SessionView, headId: string): MessageEntry[] {
  const head = view.path.find((e) => e.id === headId);
  if (head?.type !== "message") return [];
  const { joins } = planContext(view.path);
  const continuations = view.path.filter((e): e is MessageEntry => e.type === "message" && joins.get(e.id) === head.id);
  return [head, ...continuations];
}

/**
 * "Keep word for word" for text selected inside a message: a small button floating above the
 * selection (as reading apps offer "Highlight" or "Quote"). It pins the exact passage of the
 * message's text the selection shows (core/session/pins.ts `findPassage`); a selection that cannot
 * be matched word for word says so and pins nothing.
 */
export function PassagePinButton({ selection, view }: { selection: PassageSelection; view: SessionView }) {
  const sessionId = view.session?.id;
  if (!sessionId) return null;
  const top = selection.top > ABOVE_PX + 8 ? selection.top - ABOVE_PX : selection.bottom + 8;
  const pin = () => {
    for (const m of messagesOfRow(view, selection.entryId)) {
      const passage = findPassage(passageSource(m), selection.text);
      if (passage === null) continue;
      // A whole message selected is the message pinned: the same pin as the menu's.
      const whole = passage.text.trim() === messageText(m.content).trim();
      document.getSelection()?.removeAllRanges();
      void setPinned(sessionId, m.id, true, whole ? undefined : passage);
      return;
    }
    pushNotice(
      "info",
      "That selection could not be found word for word in the message's text (it may span a formula, a table or a code block's frame). Select less, or pin the whole message from its menu.",
    );
  };
  return (
    <button
      type="button"
      className="passage-pin primary small"
      style={{ top: Math.max(8, top), left: Math.max(8, selection.left) }}
      title="Carry this passage word for word into every later compaction of this path, above the summary"
      // Keep the selection: a press would otherwise clear it before the click.
      onPointerDown={(e) => e.preventDefault()}
      onMouseDown={(e) => e.preventDefault()}
      onClick={pin}
    >
      Keep word for word
    </button>
  );
}
