/** Chat-list actions: pin, archive / restore, and delete several chats at once. */
import type { SessionId } from "../../core/session/ids";
import { deleteSessions as dbDeleteSessions, setSessionFlags } from "../../db/session-flags";
import { reportActionError } from "../app/report-error";
import { useUiStore } from "../app/ui-store";
import { stopReply } from "../reply/reply-lane";
import { openSession } from "./sessions";

export async function pinSession(sessionId: SessionId, pinned: boolean): Promise<void> {
  try {
    await setSessionFlags(sessionId, { pinned });
  } catch (e) {
    reportActionError(pinned ? "Could not pin the chat" : "Could not unpin the chat", e);
  }
}

/** Archive (out of the list, nothing deleted) or restore a chat. */
export async function archiveSession(sessionId: SessionId, archived: boolean): Promise<void> {
  try {
    await setSessionFlags(sessionId, { archived });
  } catch (e) {
    reportActionError(archived ? "Could not archive the chat" : "Could not restore the chat", e);
  }
}

/** Deletes the chats (all or none); the open one closes if it was among them. Returns whether it worked. */
export async function deleteSessions(sessionIds: readonly SessionId[]): Promise<boolean> {
  try {
    for (const id of sessionIds) stopReply(id);
    await dbDeleteSessions(sessionIds);
    const open = useUiStore.getState().sessionId;
    if (open && sessionIds.includes(open)) openSession(null);
    return true;
  } catch (e) {
    reportActionError("Could not delete the chats", e);
    return false;
  }
}
