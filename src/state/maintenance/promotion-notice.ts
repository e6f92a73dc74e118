/**
 * The notice a context promotion leaves in its chat (seed 002): which model the chat moved to
 * instead of compacting, and the one-click undo. Facts only; the UI is chat/PromotionNotice.tsx.
 */

import type { CompactionReason, ModelRef } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { defineStore } from "../app/store-registry";

export type Promotion = { from: ModelRef; to: ModelRef; reason: CompactionReason; at: number };

export const usePromotionStore = defineStore<{
  bySession: Partial<Record<SessionId, Promotion>>;
  /** Chats whose promotion the user undid: not promoted again while the app runs (no back and forth). */
  declined: Partial<Record<SessionId, true>>;
}>(() => ({
  bySession: {},
  declined: {},
}));

export function declinePromotion(sessionId: SessionId): void {
  usePromotionStore.setState((s) => ({ declined: { ...s.declined, [sessionId]: true } }));
}

export function notePromotion(sessionId: SessionId, promotion: Promotion): void {
  usePromotionStore.setState((s) => ({ bySession: { ...s.bySession, [sessionId]: promotion } }));
}

export function clearPromotion(sessionId: SessionId): void {
  usePromotionStore.setState((s) => {
    const { [sessionId]: _was, ...rest } = s.bySession;
    return { bySession: rest };
  });
}
