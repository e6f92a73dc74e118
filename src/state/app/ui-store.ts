/**
 * Navigation and transient UI facts: which chat is open, which panels, the message being edited,
 * what the composer is asked to show or focus, and the notices. Ids and raw facts only.
 */
import type { EntryId, SessionId } from "../../core/session/ids";
import { defineStore } from "./store-registry";

/** What a notice's one button does: facts only, the UI (common/Notices.tsx) runs the action. */
export type NoticeAction = { kind: "redo-compaction"; sessionId: SessionId; compactionId: EntryId };
/** What an error notice is about, so it can go once that is fixed (issue 27). */
export type NoticeCause = { kind: "missing-key"; providerId: string };

/**
 * A notice; `count` > 1 when the same words were pushed again while it showed (one line, not a
 * stack). Errors stay until dismissed or their cause is fixed; the rest go by themselves (the UI's timer).
 */
export type Notice = {
  id: number;
  kind: "error" | "info";
  text: string;
  count: number;
  action?: NoticeAction;
  cause?: NoticeCause;
};

type UiState = {
  sessionId: SessionId | null;
  settingsOpen: boolean;
  /** The user message being edited in place (Edit → a new sibling). */
  editingId: EntryId | null;
  /** Text to put into the composer (e.g. after Switch here on a user message). */
  composerSeed: { text: string; nonce: number } | null;
  /** Bumped to move focus to the composer without touching its text (e.g. after Branch from here). */
  composerFocus: number;
  notices: Notice[];
  /** The history graph panel is shown beside the chat. */
  graphOpen: boolean;
  /** The open chat's "Model options" dialog (the header's chip, or its overflow menu on a phone). */
  modelOptionsOpen: boolean;
  /** Asks the chat to scroll an entry of the active path into view (the nonce repeats a request). */
  scrollTo: { entryId: EntryId; nonce: number } | null;
};

export const useUiStore = defineStore<UiState>(() => ({
  sessionId: null,
  settingsOpen: false,
  editingId: null,
  composerSeed: null,
  composerFocus: 0,
  notices: [],
  graphOpen: false,
  modelOptionsOpen: false,
  scrollTo: null,
}));

let noticeSeq = 0;
export function pushNotice(
  kind: Notice["kind"],
  text: string,
  extra: { action?: NoticeAction; cause?: NoticeCause } = {},
): void {
  const id = ++noticeSeq;
  useUiStore.setState((s) => {
    const same = s.notices.find((n) => n.kind === kind && n.text === text);
    const others = s.notices.filter((n) => n !== same);
    const notice: Notice = { ...extra, id, kind, text, count: (same?.count ?? 0) + 1 };
    return { notices: [...others.slice(-4), notice] };
  });
}
export function dismissNotice(id: number): void {
  useUiStore.setState((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
}
/** Removes the notices whose cause `isFixed` says is gone (a key saved: "no API key yet" goes). */
export function clearFixedNotices(isFixed: (cause: NoticeCause) => boolean): void {
  useUiStore.setState((s) => {
    const kept = s.notices.filter((n) => !n.cause || !isFixed(n.cause));
    return kept.length === s.notices.length ? s : { notices: kept };
  });
}
