/** Session-level actions: open, new chat, rename, delete, per-session settings. */

import type { ModelRef } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { deleteSession as dbDeleteSession, renameSession as dbRename, updateSession } from "../../db/sessions";
import { setSetting } from "../../db/settings";
import { reportActionError } from "../app/report-error";
import { useUiStore } from "../app/ui-store";
import { collectBlobsNow } from "../data/blob-gc";
import { stopReply } from "../reply/reply-lane";
import { useSettingsStore } from "../settings/settings-store";

export function openSession(sessionId: SessionId | null): void {
  useUiStore.setState({ sessionId, editingId: null });
}

export function newChat(): void {
  openSession(null);
}

export async function renameSession(sessionId: SessionId, title: string): Promise<void> {
  const clean = title.replace(/\s+/g, " ").trim();
  if (!clean) return;
  try {
    await dbRename(sessionId, clean);
  } catch (e) {
    reportActionError("Could not rename the chat", e);
  }
}

export async function deleteSession(sessionId: SessionId): Promise<void> {
  try {
    stopReply(sessionId);
    await dbDeleteSession(sessionId);
    if (useUiStore.getState().sessionId === sessionId) openSession(null);
    void collectBlobsNow();
  } catch (e) {
    reportActionError("Could not delete the chat", e);
  }
}

/** Choose the model for the open session (or for new chats when none is open); it also becomes the default. */
export async function chooseModel(sessionId: SessionId | null, model: ModelRef): Promise<void> {
  try {
    if (sessionId) {
      await updateSession(sessionId, { model });
      const { resumeAutoCompaction } = await import("../maintenance/compact");
      resumeAutoCompaction(sessionId); // a model change lifts the pause (DESIGN §4.7)
    }
    useSettingsStore.setState((s) => ({ settings: { ...s.settings, defaultModel: model } }));
    await setSetting("defaultModel", model);
  } catch (e) {
    reportActionError("Could not change the model", e);
  }
}
