/**
 * What the graph's node actions do, on top of the state actions: Switch here (with the remembered
 * branch-summary choice; there is no switch dialog yet, so "ask" switches without a summary),
 * Branch from here, Compact up to here (the chat's Compact dialog, so instructions and progress
 * look the same wherever it starts), Copy, opening a linked session, showing an entry in the chat.
 */
import { entryText } from "../../core/graph/text";
import type { Entry } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { branchFromHere } from "../../state/actions/chat";
import { openSession } from "../../state/actions/sessions";
import { rememberedSwitchChoice, switchHere } from "../../state/actions/switch-branch";
import { pushNotice, useUiStore } from "../../state/stores";
import { openCompactDialog } from "../chat/compact-dialog-store";

/** Switch here on `entryId`. Resolves to true when the leaf moved. */
export async function switchFromGraph(sessionId: SessionId, entryId: EntryId): Promise<boolean> {
  const choice = rememberedSwitchChoice() ?? { kind: "none" };
  const result = await switchHere(sessionId, entryId, choice);
  switch (result.kind) {
    case "switched":
      return true;
    case "nothing_to_do":
      return false;
    case "not_found":
      pushNotice("error", "Could not switch: that message is gone.");
      return false;
    case "busy":
      pushNotice("info", "Wait for the reply or the summary in progress to finish, then switch.");
      return false;
    case "cancelled":
      return false;
    case "stale":
      pushNotice("info", "The conversation moved on while the branch summary was written; nothing was changed.");
      return false;
    case "failed":
      pushNotice("error", result.message);
      return false;
  }
}

export function branchFromGraph(sessionId: SessionId, entry: Entry): void {
  void branchFromHere(sessionId, entry);
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
  useUiStore.setState((s) => ({ scrollTo: { entryId, nonce: (s.scrollTo?.nonce ?? 0) + 1 } }));
}
