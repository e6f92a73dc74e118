import type { MessageEntry, StopReason } from "../../core/session/entries";
import { useUiStore } from "../../state/app/ui-store";
import { openCompactDialog } from "../../state/dialogs/compact-dialog";
import { openSwitchDialog } from "../../state/dialogs/switch-dialog";
import { regenerate } from "../../state/send/send";
import { setPinned } from "../../state/sessions/pins";
import { MoreIcon } from "../common/icons";
import { MenuAction, MenuButton } from "../common/Menu";
import "./message-actions.css";
import { CopyButton } from "./CopyButton";
import type { Visibility } from "./display-rows";
import { MessageCost } from "./MessageCost";

/**
 * What each branching verb does, in the words the menu and tooltips show. Three verbs branch (Edit,
 * Regenerate, Rewind) and ‹ › flips between what they made; saying what each one leaves behind is
 * what tells them apart.
 */
const ACTION_HELP = {
  edit: "Edit and send as a new branch; the original stays one click away (‹ ›)",
  regenerate: "Ask for a new reply here; the old one stays as another version (‹ ›)",
  rewindUser: "Go back to just before this message; its text returns to the composer",
  rewindAssistant: "Continue from this message; what came after stays in the history",
  atEnd: "This is where the chat ends now",
  compact: "Summarize everything up to and including this message to free context space",
  pin: "Carry this message word for word into every later compaction of this path, above the summary",
  unpin: "Let later compactions summarize this message like the rest",
} as const;

/** A reply's stop reason in plain words; null when it simply finished. */
function stopReasonText(reason: StopReason | undefined): string | null {
  switch (reason) {
    case undefined:
    case "end":
      return null;
    case "length":
      return "cut off at the output limit";
    case "tool_use":
      return "paused to call a tool";
    case "refusal":
      return "the model declined";
    case "aborted": // the message's status badge says "stopped"
      return null;
    case "error":
      return "ended with an error";
  }
}

/**
 * The actions under a message: Copy and the primary action (Edit for your messages, Regenerate for
 * replies) in view on hover or focus, every other action in one "More actions" menu.
 */
export function MessageActions({
  entry,
  last,
  text,
  snippet,
  visibility,
  pinned,
  atLeaf,
  busyTitle,
  maintenanceHere,
  compactBusyTitle,
}: {
  entry: MessageEntry;
  /** The last of its continuations (or the entry itself): where Rewind and Compact act. */
  last: MessageEntry;
  text: string;
  snippet: string;
  visibility: Visibility;
  pinned: boolean;
  atLeaf: boolean;
  /** Why starting a reply must wait now; undefined when it may start. */
  busyTitle: string | undefined;
  maintenanceHere: boolean;
  /** Why a compaction cannot start now; undefined when it can. */
  compactBusyTitle: string | undefined;
}) {
  const sessionId = entry.sessionId;
  const busy = busyTitle !== undefined;
  const usage = last.usage;
  const stop = stopReasonText(last.stopReason);
  return (
    <div className="message-actions">
      <CopyButton text={text} />
      {entry.role === "user" && (
        <button
          type="button"
          disabled={busy}
          title={busyTitle ?? ACTION_HELP.edit}
          onClick={() => useUiStore.setState({ editingId: entry.id })}
        >
          Edit
        </button>
      )}
      {entry.role === "assistant" && (
        <button
          type="button"
          disabled={busy}
          title={busyTitle ?? ACTION_HELP.regenerate}
          onClick={() => void regenerate(sessionId, entry.id, entry)}
        >
          Regenerate
        </button>
      )}
      <MenuButton label="More actions" className="icon-button more-actions" icon={<MoreIcon />}>
        {(close) => (
          <>
            <MenuAction
              label="Rewind to here…"
              description={entry.role === "user" ? ACTION_HELP.rewindUser : ACTION_HELP.rewindAssistant}
              disabled={maintenanceHere || (atLeaf && entry.role !== "user")}
              disabledReason={maintenanceHere ? "Wait for the running operation to finish" : ACTION_HELP.atEnd}
              onSelect={() => {
                close();
                void openSwitchDialog(sessionId, entry.role === "user" ? entry.id : last.id, { confirm: true });
              }}
            />
            {visibility === "sent" && (
              <MenuAction
                label="Compact up to here"
                description={ACTION_HELP.compact}
                disabled={compactBusyTitle !== undefined}
                disabledReason={compactBusyTitle}
                onSelect={() => {
                  close();
                  openCompactDialog(sessionId, { entryId: last.id, snippet });
                }}
              />
            )}
            <MenuAction
              label={pinned ? "Stop keeping word for word" : "Keep word for word"}
              description={pinned ? ACTION_HELP.unpin : ACTION_HELP.pin}
              disabled={busy || maintenanceHere}
              disabledReason={busyTitle ?? "Wait for the running operation to finish"}
              onSelect={() => {
                close();
                void setPinned(sessionId, entry.id, !pinned);
              }}
            />
          </>
        )}
      </MenuButton>
      {entry.role === "assistant" && (usage || stop) && (
        <span className="usage muted" title="Tokens the provider reported for this reply">
          {usage && `${usage.input.toLocaleString()} tokens in · ${usage.output.toLocaleString()} out`}
          <MessageCost entry={last} />
          {usage && stop && " · "}
          {stop}
        </span>
      )}
    </div>
  );
}
