/**
 * "Keep word for word" (issue 29): pinning a message (or a passage of one) appends a pin entry (core/session/pins.ts) at
 * the chat's leaf, so the pin belongs to this path, syncs and exports with the conversation, and
 * is undone by appending an unpin. Refused while a reply or a compaction runs in the chat: the
 * reply would land beside the pin, and a compaction computed for the old leaf would be stale.
 */
import { type EntryId, newEntryId, type SessionId } from "../../core/session/ids";
import { type Passage, pinData } from "../../core/session/pins";
import { appendEntries } from "../../db/entries";
import { StaleLeafError } from "../../db/errors";
import { getSession } from "../../db/sessions";
import { chatActivity } from "../activity/chat-activity";
import { reportActionError } from "../app/report-error";
import { pushNotice } from "../app/ui-store";

export type PinResult = { kind: "done" } | { kind: "refused"; reason: "busy" | "moved" } | { kind: "failed" };

/**
 * Pins (or with `pinned: false` unpins) `entryId` on the chat's current path — or, with `passage`,
 * that passage of it (core/session/pins.ts `findPassage` finds one from a selection). Failures
 * become a notice.
 */
export async function setPinned(
  sessionId: SessionId,
  entryId: EntryId,
  pinned: boolean,
  passage?: Passage,
): Promise<PinResult> {
  if (!chatActivity(sessionId).idle) {
    pushNotice("info", "Wait for the reply or compaction to finish, then pin again.");
    return { kind: "refused", reason: "busy" };
  }
  try {
    const session = await getSession(sessionId);
    if (!session) throw new Error("The chat no longer exists.");
    const id = newEntryId();
    const now = Date.now();
    await appendEntries(
      sessionId,
      [
        {
          type: "custom",
          id,
          sessionId,
          parentId: session.leafId,
          createdAt: now,
          ...pinData(entryId, pinned, passage),
        },
      ],
      { kind: "only-if-leaf-is", expected: session.leafId, to: id },
      now,
    );
    return { kind: "done" };
  } catch (e) {
    if (e instanceof StaleLeafError) {
      pushNotice("info", "The chat moved on meanwhile: pin again.");
      return { kind: "refused", reason: "moved" };
    }
    reportActionError(
      pinned ? `The ${passage ? "passage" : "message"} could not be pinned` : "The pin could not be removed",
      e,
    );
    return { kind: "failed" };
  }
}
