/**
 * The app's small zustand stores. Each holds ids and raw facts only; derived things (the active
 * path, token totals) come from core/ functions. Stores never import each other: actions in
 * state/actions compose them.
 */
import { create } from "zustand";
import type { EntryId, SessionId } from "../core/session/ids";
import type { AssistantPartial } from "../providers/types";
import type { MaintenanceOp } from "./maintenance/operation";
import { DEFAULT_SETTINGS, type Settings } from "./settings/settings-model";

// ---- settings (hydrated from the settings table, kept live across tabs) -----------------------

type SettingsState = { settings: Settings; loaded: boolean };
const initialSettings = (): SettingsState => ({ settings: DEFAULT_SETTINGS, loaded: false });
export const useSettingsStore = create<SettingsState>(initialSettings);

// ---- navigation and transient UI facts ---------------------------------------------------------

export type Notice = { id: number; kind: "error" | "info"; text: string };

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
  /** Asks the chat to scroll an entry of the active path into view (the nonce repeats a request). */
  scrollTo: { entryId: EntryId; nonce: number } | null;
};
const initialUi = (): UiState => ({
  sessionId: null,
  settingsOpen: false,
  editingId: null,
  composerSeed: null,
  composerFocus: 0,
  notices: [],
  graphOpen: false,
  scrollTo: null,
});
export const useUiStore = create<UiState>(initialUi);

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
  /**
   * "preparing": shown the moment the user sends, before the request is built (provider code,
   * preflight); "streaming": the request is out; "unsaved": finished, but the browser's storage
   * refused it (full disk): it stays here, on screen, until a later attempt saves it.
   */
  phase: "preparing" | "streaming" | "unsaved";
  /** Why the reply (so far) could not be saved, in plain words; null while saving works. */
  saveError: string | null;
};

type StreamState = { replies: Record<string, ActiveReply> };
const initialStream = (): StreamState => ({ replies: {} });
export const useStreamStore = create<StreamState>(initialStream);

// ---- maintenance: compaction, branch summary, handoff share one lock (DESIGN §4.7) --------------

export type {
  MaintenanceKind,
  MaintenanceOp,
} from "./maintenance/operation";

/**
 * A message the user sent while maintenance ran on its chat (persisted: db/queued.ts). "waiting"
 * goes out by itself once the chat is idle; "unsent" (found after a reload) waits for Send or Discard.
 */
/** `stored`: found in the table at start-up (another tab may send it first: take the row before sending). */
export type QueuedMessage = { text: string; queuedAt: number; state: "waiting" | "unsent"; stored?: boolean };

type MaintenanceState = {
  op: MaintenanceOp | null;
  /** Sessions whose automatic compaction is paused (a compaction did not make enough room), with the warning. */
  paused: Record<string, string>;
  /** Per chat: the message typed while maintenance ran there. */
  queued: Record<string, QueuedMessage>;
  /** Per chat: a reply with its maintenance in progress (count); a queued message waits for all of it. */
  busy: Record<string, number>;
};
const initialMaintenance = (): MaintenanceState => ({ op: null, paused: {}, queued: {}, busy: {} });
export const useMaintenanceStore = create<MaintenanceState>(initialMaintenance);

/** Every store back to its first state (tests). */
export function resetStores(): void {
  useSettingsStore.setState(initialSettings());
  useUiStore.setState(initialUi());
  useStreamStore.setState(initialStream());
  useMaintenanceStore.setState(initialMaintenance());
}
