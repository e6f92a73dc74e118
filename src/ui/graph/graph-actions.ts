/**
 * What the graph's node actions do, on top of the state actions: Switch here (through the chat's
 * "Rewind" dialog, which applies the remembered choice or asks whether to summarize the
 * branch being left), Branch from here, Compact up to here (the chat's Compact dialog, so
 * instructions and progress look the same wherever it starts), Copy, opening a linked session,
 * showing an entry in the chat.
 */

import type { Entry } from "../../core/session/entries";
import { entryText } from "../../core/session/entry-text";
import type { EntryId, SessionId } from "../../core/session/ids";
import { branchFromHere, switchHere } from "../../state/app/lazy";
import { pushNotice } from "../../state/app/ui-store";
import { openCompactDialog } from "../../state/dialogs/compact-dialog";
import { openSwitchDialog } from "../../state/dialogs/switch-dialog";
import { openSession } from "../../state/sessions/sessions";
import { scrollToEntry } from "../chat/scroll-to-entry";

/** Switch here on `entryId` (the "Rewind" dialog decides about a summary). Resolves to true when the leaf moved. */
export function switchFromGraph(sessionId: SessionId, entryId: EntryId): Promise<boolean> {
  return openSwitchDialog(sessionId, entryId);
}

/**
 * Branch from here (DESIGN §5): Switch here without a summary. On a user message of the active
 * path that is Edit (in the chat); off it, the switch puts the message's text back into the
 * composer, which is the same thing.
 */
export async function branchFromGraph(sessionId: SessionId, entry: Entry, onActivePath: boolean): Promise<void> {
  if (entry.type === "message" && entry.role === "user" && !onActivePath) {
    const result = await switchHere(sessionId, entry.id, { kind: "none" });
    if (result.kind === "busy") pushNotice("info", "Wait for the reply or the summary in progress to finish.");
    else if (result.kind === "failed") pushNotice("error", result.message);
    return;
  }
  await branchFromHere(sessionId, entry);
  if (onActivePath) showInChat(entry.id);
}

export function compactUpTo(sessionId: SessionId, entry: Entry, title: string): void {
  openCompactDialog(sessionId, { entryId: entry.id, snippet: title });
}

export async function copyEntryText(entry: Entry): Promise<void> {
  try {
    await navigator.clipboard.writeText(entryText(entry));
    pushNotice("info", "Copied.");
  } catch {
    pushNotice("error", "Could not copy: the browser did not allow access to the clipboard.");
  }
}

export function openLinkedSession(sessionId: SessionId): void {
  openSession(sessionId);
}

/** Asks the chat to scroll `entryId` (on the active path) into view. */
export function showInChat(entryId: EntryId): void {
  scrollToEntry(entryId);
}
