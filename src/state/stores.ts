/**
 * The app's small zustand stores. Each holds ids and raw facts only; derived things (the active
 * path, token totals) come from core/ functions. Stores never import each other: actions in
 * state/actions compose them.
 */
import { create } from "zustand";
import type { EntryId, SessionId } from "../core/session/ids";
import type { AssistantPartial } from "../providers/types";
import { DEFAULT_SETTINGS, type Settings } from "./settings-model";

// ---- settings (hydrated from the settings table, kept live across tabs) -----------------------

export const useSettingsStore = create<{ settings: Settings; loaded: boolean }>(() => ({
  settings: DEFAULT_SETTINGS,
  loaded: false,
}));

// ---- navigation and transient UI facts ---------------------------------------------------------

export type Notice = { id: number; kind: "error" | "info"; text: string };

export const useUiStore = create<{
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
  /** Asks the chat to scroll an entry of the active path into view (the nonce repeats a request). */
  scrollTo: { entryId: EntryId; nonce: number } | null;
}>(() => ({
  sessionId: null,
  settingsOpen: false,
  editingId: null,
  composerSeed: null,
  composerFocus: 0,
  notices: [],
  graphOpen: false,
  scrollTo: null,
}));

let noticeSeq = 0;
export function pushNotice(kind: Notice["kind"], text: string): void {
  const id = ++noticeSeq;
  useUiStore.setState((s) => ({ notices: [...s.notices.slice(-4), { id, kind, text }] }));
}
export function dismissNotice(id: number): void {
  useUiStore.setState((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
}

// ---- the streaming lane: the reply in flight, one per session --------------------------------

export type RetryWait = { attempt: number; maxAttempts: number; until: number; message: string };

export type ActiveReply = {
  sessionId: SessionId;
  draftId: EntryId;
  parentId: EntryId;
  partial: AssistantPartial;
  retry: RetryWait | null;
};

export const useStreamStore = create<{ replies: Record<string, ActiveReply> }>(() => ({ replies: {} }));

// ---- maintenance: compaction, branch summary, handoff share one lock (DESIGN §4.7) --------------

export type MaintenanceKind = "compaction" | "branch_summary" | "handoff";

export type MaintenanceProgress =
  | { phase: "preparing" }
  | { phase: "summarizing"; window: number; windows: number }
  | { phase: "split-turn-prefix" }
  | { phase: "short-summary" };

export type MaintenanceOp = {
  sessionId: SessionId;
  kind: MaintenanceKind;
  /** Compaction reason ("manual", "threshold", …) or the branch/handoff trigger. */
  reason: string;
  /** Started by Grove itself (threshold, overflow, preflight, length): shown as a status bar. */
  automatic: boolean;
  progress: MaintenanceProgress;
  /** The summary text streaming in. */
  text: string;
  startedAt: number;
};

export const useMaintenanceStore = create<{
  op: MaintenanceOp | null;
  /** Sessions whose automatic compaction is paused (a compaction did not make enough room), with the warning. */
  paused: Record<string, string>;
  /** A message typed while automatic maintenance ran: sent right after it. */
  queued: Record<string, string>;
}>(() => ({ op: null, paused: {}, queued: {} }));

export function resetStores(): void {
  useSettingsStore.setState({ settings: DEFAULT_SETTINGS, loaded: false });
  useUiStore.setState({
    sessionId: null,
    settingsOpen: false,
    editingId: null,
    composerSeed: null,
    composerFocus: 0,
    notices: [],
    graphOpen: false,
    scrollTo: null,
  });
  useStreamStore.setState({ replies: {} });
  useMaintenanceStore.setState({ op: null, paused: {}, queued: {} });
}
