/**
 * Context promotion as a step of the automatic triggers (triggers.ts): before any compaction,
 * switch the chat to the model's larger sibling when the context fits it (core/compaction/promotion.ts),
 * and leave a notice with a one-click undo. The chat's own model changes, not the default for new chats.
 */
import { choosePromotion, type PromotionCandidate, promotionChain } from "../../core/compaction/promotion";
import type { CompactionReason, Entry, ModelRef, Session } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { updateSession } from "../../db/sessions";
import { type ChatTarget, chatTarget, isTargetError, thresholdOf } from "../models/chat-target";
import { useSettingsStore } from "../settings/settings-store";
import { clearPromotion, declinePromotion, notePromotion, usePromotionStore } from "./promotion-notice";

export type MeasureFn = (path: readonly Entry[], target: ChatTarget) => Promise<number>;

/**
 * Switches `session` to the first larger sibling its context fits, for `reason`. Returns the new
 * model, or null: no sibling, none usable, or all full (the caller compacts).
 */
export async function promoteIfPossible(
  session: Session,
  path: readonly Entry[],
  reason: CompactionReason,
  measure: MeasureFn,
  now: () => number,
): Promise<ModelRef | null> {
  if (usePromotionStore.getState().declined[session.id]) return null;
  const settings = useSettingsStore.getState().settings;
  const from = session.model ?? settings.defaultModel;
  const candidates: PromotionCandidate[] = [];
  for (const ref of promotionChain(from, settings.largerModels)) {
    const target = chatTarget({ ...session, model: ref }, settings);
    if (isTargetError(target)) continue; // no key, unknown provider: not a way out
    const tokens = await measure(path, target).catch(() => Number.POSITIVE_INFINITY);
    candidates.push({
      ref,
      contextWindow: target.model.info.contextWindow,
      maxOutput: target.model.info.maxOutput,
      threshold: thresholdOf(target, settings.compaction),
      tokens,
    });
    // Chain order: the nearest sibling that fits wins, so later ones need not be counted.
    if (choosePromotion(candidates, reason) !== null) break;
  }
  const to = choosePromotion(candidates, reason);
  if (to === null) return null;
  await updateSession(session.id, { model: to });
  notePromotion(session.id, { from, to, reason, at: now() });
  return to;
}

/** The notice's Undo: the chat goes back to the model it had (automatic compaction applies again). */
export async function undoPromotion(sessionId: SessionId): Promise<void> {
  const p = usePromotionStore.getState().bySession[sessionId];
  if (!p) return;
  clearPromotion(sessionId);
  declinePromotion(sessionId);
  await updateSession(sessionId, { model: p.from });
}
