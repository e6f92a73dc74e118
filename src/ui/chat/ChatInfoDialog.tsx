import { useEffect, useMemo, useState } from "react";
import type { MonthCost } from "../../core/cost/monthly";
import { type MessageEntry, messageText } from "../../core/session/entries";
import type { EntryId } from "../../core/session/ids";
import type { PinnedPassage } from "../../core/session/pins";
import { planContext } from "../../core/session/plan-context";
import { chatSpending } from "../../state/data/spending";
import { setPinned } from "../../state/sessions/pins";
import { Dialog } from "../common/Dialog";
import { SpendingTable } from "../common/SpendingTable";
import type { SessionView } from "../hooks";
import { scrollToEntry } from "./scroll-to-entry";
import "./pins.css";

const short = (text: string, max = 100): string => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat || "(no text)";
};

const ROLE = { user: "You", assistant: "Assistant", tool: "Tool" } as const;

type Pin =
  | { readonly kind: "message"; readonly key: string; readonly message: MessageEntry }
  | { readonly kind: "passage"; readonly key: string; readonly message: MessageEntry; readonly passage: PinnedPassage };

/** The pins of the current path, in path order: whole messages, and passages under their message. */
function pinsOf(view: SessionView): Pin[] {
  const plan = planContext(view.path);
  const out: Pin[] = [];
  for (const e of view.path) {
    if (e.type !== "message") continue;
    if (plan.pinnedIds.has(e.id)) out.push({ kind: "message", key: e.id, message: e });
    for (const p of plan.allPinnedPassages) {
      if (p.entryId === e.id) out.push({ kind: "passage", key: `${e.id}:${p.start}:${p.end}`, message: e, passage: p });
    }
  }
  return out;
}

/**
 * "Chat info": what this chat keeps word for word (the pins of the current path, each a link to
 * its message and removable) and what it cost per month — chat replies, compaction and memory checks apart.
 */
export function ChatInfoDialog({ view, onClose }: { view: SessionView; onClose: () => void }) {
  const sessionId = view.session?.id;
  const pins = useMemo(() => pinsOf(view), [view]);
  const [months, setMonths] = useState<MonthCost[] | null | "failed">(null);
  // Read again when the path changes (a new reply or compaction adds to the spending).
  const leafId = view.session?.leafId;
  useEffect(() => {
    if (!sessionId) return;
    let live = true;
    void leafId;
    chatSpending(sessionId).then(
      (m) => live && setMonths(m),
      () => live && setMonths("failed"),
    );
    return () => {
      live = false;
    };
  }, [sessionId, leafId]);
  if (!sessionId) return null;
  const go = (id: EntryId) => {
    onClose();
    scrollToEntry(id);
  };

  return (
    <Dialog title="Chat info" onClose={onClose}>
      <section aria-labelledby="chat-pins-title">
        <h3 id="chat-pins-title">Kept word for word</h3>
        {pins.length === 0 ? (
          <p className="muted small">
            Nothing pinned on this path. "Keep word for word" in a message's menu, or on text selected in a message,
            carries it verbatim into every later compaction.
          </p>
        ) : (
          <ul className="chat-pins" aria-label="Pins">
            {pins.map((pin) => (
              <li key={pin.key}>
                <button type="button" className="link-button" onClick={() => go(pin.message.id)}>
                  {pin.kind === "message"
                    ? `${ROLE[pin.message.role]}: ${short(messageText(pin.message.content))}`
                    : `Passage (${ROLE[pin.message.role]}): “${short(pin.passage.text)}”`}
                </button>
                <button
                  type="button"
                  className="small"
                  onClick={() =>
                    void setPinned(sessionId, pin.message.id, false, pin.kind === "passage" ? pin.passage : undefined)
                  }
                >
                  Stop keeping word for word
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="chat-spending-title">
        <h3 id="chat-spending-title">Spending</h3>
        <p className="muted small">
          From the usage the providers reported, every branch of this chat. Compaction is what its summaries, branch
          summaries and handoff document cost; memory checks, what "Check memory" on its compaction cards cost.
        </p>
        {months === "failed" ? (
          <p className="muted small">The spending could not be read.</p>
        ) : months === null ? (
          <p className="muted small">Adding up…</p>
        ) : (
          <SpendingTable months={months} label="This chat's spending by month" />
        )}
      </section>
    </Dialog>
  );
}
