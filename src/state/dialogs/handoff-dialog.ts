/**
 * The "Handoff" dialog's own state: which session it is for, the phase, the handoff document being edited and
 * the last problem. The work is `startHandoff` / `createHandoffSession` (state/maintenance/handoff.ts),
 * whose progress the dialog reads from `useMaintenanceStore`.
 */

import type { ModelUsage } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { cancelMaintenance, createHandoffSession, startHandoff } from "../app/lazy";
import { defineStore } from "../app/store-registry";

type HandoffProblem = { title: string; body: string; error: boolean; retry: boolean };

export type HandoffDialogState = {
  sessionId: SessionId | null;
  /** "form": the optional focus; "running": the document is being written; "editing": the user edits it; "result": a problem. */
  phase: "form" | "running" | "editing" | "result";
  focus: string;
  document: string;
  /** The leaf the document was written from. */
  fromEntryId: EntryId | null;
  /** The usage the document's request reported, for the new session's handoff entry. */
  sideUsage?: readonly ModelUsage[];
  problem: HandoffProblem | null;
  /** "Start new session" is writing the new session. */
  creating: boolean;
};

const CLOSED: Omit<HandoffDialogState, "sessionId"> = {
  phase: "form",
  focus: "",
  document: "",
  fromEntryId: null,
  sideUsage: undefined,
  problem: null,
  creating: false,
};

export const useHandoffDialog = defineStore<HandoffDialogState>(() => ({ sessionId: null, ...CLOSED }));

export function openHandoffDialog(sessionId: SessionId): void {
  useHandoffDialog.setState({ sessionId, ...CLOSED });
}

/** Closes the dialog; a document still being written is cancelled (nothing is written). */
export function closeHandoffDialog(): void {
  if (useHandoffDialog.getState().phase === "running") cancelMaintenance();
  useHandoffDialog.setState({ sessionId: null, ...CLOSED });
}

export function setHandoffDocument(document: string): void {
  useHandoffDialog.setState({ document });
}

/** Writes the handoff document. An empty document falls back to compaction in place (state shows a notice): the dialog closes. */
export async function runHandoffDialog(focus: string): Promise<void> {
  const { sessionId } = useHandoffDialog.getState();
  if (!sessionId) return;
  useHandoffDialog.setState({ phase: "running", focus, problem: null });
  const result = await startHandoff(sessionId, focus);
  const now = useHandoffDialog.getState();
  if (now.sessionId !== sessionId || now.phase !== "running") return;
  switch (result.kind) {
    case "document":
      useHandoffDialog.setState({
        phase: "editing",
        document: result.document,
        fromEntryId: result.fromEntryId,
        sideUsage: result.sideUsage,
      });
      return;
    case "fallback":
    case "cancelled":
      // The fallback's outcome is a notice (and, when it worked, the compaction card in the chat).
      useHandoffDialog.setState({ sessionId: null, ...CLOSED });
      return;
    case "nothing_to_hand_off":
      return showProblem({ title: "Nothing to hand off", body: result.reason, error: false, retry: false });
    case "busy":
      return showProblem({
        title: "Busy",
        body: "A reply, a compaction or a branch summary is running. Try again when it has finished.",
        error: true,
        retry: true,
      });
    case "failed":
      return showProblem({ title: "Handoff failed", body: result.message, error: true, retry: true });
  }
}

function showProblem(problem: HandoffProblem): void {
  useHandoffDialog.setState({ phase: "result", problem });
}

/** "Start new session": creates it from the (edited) handoff document and opens it. */
export async function startHandoffSession(): Promise<void> {
  const { sessionId, document, fromEntryId, sideUsage, creating } = useHandoffDialog.getState();
  if (!sessionId || creating) return;
  useHandoffDialog.setState({ creating: true });
  const result = await createHandoffSession(sessionId, document, {
    ...(fromEntryId ? { fromEntryId } : {}),
    ...(sideUsage ? { sideUsage } : {}),
  });
  switch (result.kind) {
    case "created":
      useHandoffDialog.setState({ sessionId: null, ...CLOSED });
      return;
    case "empty":
      useHandoffDialog.setState({ creating: false });
      return;
    case "not_found":
      return showProblem({
        title: "The chat changed",
        body: "This chat, or the message the document was written from, no longer exists. Nothing was created.",
        error: true,
        retry: false,
      });
    case "failed":
      useHandoffDialog.setState({ creating: false });
      return showProblem({ title: "Could not start the new session", body: result.message, error: true, retry: false });
  }
}
