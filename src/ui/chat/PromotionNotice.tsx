import "./promotion-notice.css";
import type { CompactionReason } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { undoPromotion } from "../../state/maintenance/promotion";
import { clearPromotion, usePromotionStore } from "../../state/maintenance/promotion-notice";

const WHY: Record<CompactionReason, string> = {
  overflow: "the provider said the request was too long",
  length: "a reply hit the output limit with the context near full",
  threshold: "the context reached the automatic compaction threshold",
  preflight: "the next request would not have fit",
  idle: "the context was large",
  manual: "the context was full",
};

/**
 * After a context promotion (state/maintenance/promotion.ts): which model the chat moved to
 * instead of compacting, and Undo (back to the previous model).
 */
export function PromotionNotice({ sessionId }: { sessionId: SessionId }) {
  const p = usePromotionStore((s) => s.bySession[sessionId]);
  if (!p) return null;
  return (
    <div className="promotion-notice" role="status" aria-label="Model switched">
      <span>
        Switched this chat to <strong>{p.to.modelId}</strong>, its larger-context sibling, instead of compacting:{" "}
        {WHY[p.reason]}.
      </span>
      <button type="button" onClick={() => void undoPromotion(sessionId)}>
        Undo: back to {p.from.modelId}
      </button>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => clearPromotion(sessionId)}>
        ×
      </button>
    </div>
  );
}
