import type { SessionId } from "../../core/session/ids";
import type { PinnedPassage } from "../../core/session/pins";
import { setPinned } from "../../state/sessions/pins";
import "./pins.css";

/**
 * The passages of a message pinned on this path ("Keep word for word" on a selection): each
 * quoted, marked "kept word for word", with "Stop keeping word for word".
 */
export function PinnedPassages({ sessionId, passages }: { sessionId: SessionId; passages: readonly PinnedPassage[] }) {
  return (
    <ul className="pinned-passages" aria-label="Pinned passages">
      {passages.map((p) => (
        <li key={`${p.entryId}:${p.start}:${p.end}`}>
          <span
            className="badge kept pinned"
            title="Pinned: this passage is carried word for word into every later compaction of this path, above the summary"
          >
            kept word for word
          </span>
          <q>{p.text}</q>
          <button type="button" className="small" onClick={() => void setPinned(sessionId, p.entryId, false, p)}>
            Stop keeping word for word
          </button>
        </li>
      ))}
    </ul>
  );
}
