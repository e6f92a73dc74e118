import { useState } from "react";
import type { CompactionEntry } from "../../core/session/entries";
import { useChatActivity } from "../../state/activity/chat-activity";
import { undoCompactionFromCard } from "../../state/maintenance/undo-compaction";

/**
 * "Undo compaction" on the newest compaction's card: absent while a reply or maintenance runs in
 * the chat (the action refuses then too), so it is never offered when it could not be done.
 */
export function UndoCompactionButton({ entry }: { entry: CompactionEntry }) {
  const sessionId = entry.sessionId;
  const idle = useChatActivity(sessionId, (a) => a.idle);
  const [undoing, setUndoing] = useState(false);
  if (!idle) return null;
  return (
    <div className="compaction-undo">
      <button
        type="button"
        disabled={undoing}
        title="The next message sends the full conversation again; automatic compaction pauses for this chat"
        onClick={() => {
          setUndoing(true);
          void undoCompactionFromCard(sessionId, entry.id).finally(() => setUndoing(false));
        }}
      >
        Undo compaction
      </button>
    </div>
  );
}
