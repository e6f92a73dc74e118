/**
 * "Rewind to here…" (a message's menu) and "Switch here" (the history graph): `openSwitchDialog`
 * applies the remembered choice, or opens the "Rewind" dialog (rendered once, near the app root),
 * which says what the rewind does and asks whether to summarize the part being left. The dialog's own state lives here; the
 * switch itself is `switchHere` (state/maintenance/switch-branch.ts), whose progress the dialog reads
 * from `useMaintenanceStore`.
 */

import type { EntryId, SessionId } from "../../core/session/ids";
import { cancelMaintenance, previewSwitch, rememberSwitchChoice, switchHere } from "../app/lazy";
import { defineStore } from "../app/store-registry";
import { pushNotice, useUiStore } from "../app/ui-store";
import type { SwitchChoice, SwitchResult } from "../maintenance/switch-branch";

type SwitchDialogTarget = {
  sessionId: SessionId;
  targetId: EntryId;
  /** Entries of the branch being left. */
  abandonedEntries: number;
  /** The target's text, which goes back into the composer (a user message). */
  composerText?: string;
  /** Whether the part being left has anything to summarize (else the dialog only confirms). */
  summarizable: boolean;
  /** A Rewind from the chat: the composer takes focus after it (the graph keeps its own focus). */
  fromChat: boolean;
};

/** Outcomes the dialog explains (a switch or a cancel just closes it). */
type SwitchProblem = Extract<SwitchResult, { kind: "busy" } | { kind: "failed" } | { kind: "stale" }>;

export type SwitchDialogState = {
  target: SwitchDialogTarget | null;
  /** "form": ask; "running": the summary is being written; "result": a problem to explain. */
  phase: "form" | "running" | "result";
  result: SwitchProblem | null;
  /** The choice of the last run (kept for "Try again"). */
  choice: SwitchChoice | null;
};

export const useSwitchDialog = defineStore<SwitchDialogState>(() => ({
  target: null,
  phase: "form",
  result: null,
  choice: null,
}));

/**
 * Switch here / Rewind on `targetId`: with a remembered choice it switches right away (a remembered
 * "Summarize" shows the dialog's progress, with Cancel); with nothing to summarize it switches right
 * away unless `confirm` (Rewind always says what it will do first); otherwise the dialog asks.
 * Resolves to true when the leaf moved.
 */
export async function openSwitchDialog(
  sessionId: SessionId,
  targetId: EntryId,
  { confirm = false }: { confirm?: boolean } = {},
): Promise<boolean> {
  const preview = await previewSwitch(sessionId, targetId).catch(() => ({ kind: "not_found" as const }));
  switch (preview.kind) {
    case "nothing_to_do":
      if (confirm) pushNotice("info", "This is already where the chat ends.");
      return false;
    case "not_found":
      pushNotice("error", "Could not switch: that message is gone.");
      return false;
    case "switch":
      break;
  }
  const target: SwitchDialogTarget = {
    sessionId,
    targetId,
    abandonedEntries: preview.abandonedEntries,
    summarizable: preview.summarizable,
    fromChat: confirm,
    ...(preview.composerText !== undefined ? { composerText: preview.composerText } : {}),
  };
  if (!preview.summarizable && !confirm) return report(await switchHere(sessionId, targetId, { kind: "none" }));
  if (preview.remembered && preview.summarizable) {
    if (preview.remembered.kind === "none") return report(await switchHere(sessionId, targetId, preview.remembered));
    useSwitchDialog.setState({ target, phase: "form", result: null, choice: null });
    return runSwitchDialog(preview.remembered, false);
  }
  useSwitchDialog.setState({ target, phase: "form", result: null, choice: null });
  return false;
}

/** Closes the dialog; a summary still being written is cancelled (nothing is written, the leaf stays). */
export function closeSwitchDialog(): void {
  if (useSwitchDialog.getState().phase === "running") cancelMaintenance();
  useSwitchDialog.setState({ target: null, phase: "form", result: null, choice: null });
}

/** Runs the switch the dialog is for. Switched or cancelled: the dialog closes. Resolves to true when the leaf moved. */
export async function runSwitchDialog(choice: SwitchChoice, remember: boolean): Promise<boolean> {
  const { target } = useSwitchDialog.getState();
  if (!target) return false;
  if (remember) await rememberSwitchChoice(choice);
  useSwitchDialog.setState({ phase: choice.kind === "none" ? "form" : "running", result: null, choice });
  const result = await switchHere(target.sessionId, target.targetId, choice);
  // Closed (and cancelled) or reopened for another target meanwhile.
  if (useSwitchDialog.getState().target !== target) return result.kind === "switched";
  switch (result.kind) {
    case "busy":
    case "failed":
    case "stale":
      useSwitchDialog.setState({ phase: "result", result });
      return false;
    case "not_found":
      pushNotice("error", "Could not switch: that message is gone.");
      break;
    case "switched":
    case "nothing_to_do":
    case "cancelled":
      break;
  }
  useSwitchDialog.setState({ target: null, phase: "form", result: null, choice: null });
  if (result.kind === "switched" && target.fromChat) focusComposerAfterClose();
  return result.kind === "switched";
}

/**
 * The composer is where the user goes after a switch, but while the dialog was open the page behind
 * it was inert and the dialog hands focus back to its opener as it closes: ask again once it has.
 */
function focusComposerAfterClose(): void {
  globalThis.requestAnimationFrame?.(() => useUiStore.setState((s) => ({ composerFocus: s.composerFocus + 1 })));
}

/** A switch made without the dialog: problems become notices. */
function report(result: SwitchResult): boolean {
  switch (result.kind) {
    case "switched":
      return true;
    case "busy":
      pushNotice("info", "Wait for the reply or the summary in progress to finish, then switch.");
      return false;
    case "stale":
      pushNotice("info", "The conversation moved on while the branch summary was written; nothing was changed.");
      return false;
    case "failed":
      pushNotice("error", result.message);
      return false;
    case "not_found":
      pushNotice("error", "Could not switch: that message is gone.");
      return false;
    case "nothing_to_do":
    case "cancelled":
      return false;
  }
}
