/**
 * "Discard draft": the way out of a composer draft that cannot be shown (issue 24, item 11). The
 * draft is persisted, so without it a draft that breaks rendering would break the chat again after
 * every reload. Drops the chat's unsent text and attached files, in memory and stored.
 */
import type { SessionId } from "../../core/session/ids";
import { setComposerAttachments } from "./composer-attachments";
import { clearComposerDraft } from "./composer-drafts";

export async function discardComposerDraft(sessionId: SessionId | null): Promise<void> {
  await Promise.all([clearComposerDraft(sessionId), setComposerAttachments(sessionId, [])]);
}
