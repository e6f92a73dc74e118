import { useState } from "react";
import type { SessionId } from "../../core/session/ids";
import { discardComposerDraft } from "../../state/composer/discard-draft";
import { errorMessage } from "../common/RenderBoundary";

/**
 * In place of a composer whose draft could not be rendered (ChatView's boundary): says so and
 * offers "Discard draft", the way out of a stored draft that would break the composer after every
 * reload. Discarded, the composer comes back empty.
 */
export function DraftFailed({
  sessionId,
  error,
  onDiscarded,
}: {
  sessionId: SessionId | null;
  error: unknown;
  onDiscarded: () => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <div className="composer draft-failed" role="alert">
      <p>The draft in this chat could not be shown ({errorMessage(error)}).</p>
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void discardComposerDraft(sessionId).then(onDiscarded);
        }}
      >
        Discard draft
      </button>
    </div>
  );
}
