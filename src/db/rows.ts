/**
 * Row types of the tables that have no type in core/ (sessions and entries are stored exactly as
 * core/session/entries.ts defines them). Persisted shapes: change them only with a schema version.
 * No Dexie here, so these types can be re-exported to state/ and ui/.
 */
import type { MemoryCheckCost } from "../core/cost/monthly";
import type { ApiKind, AttachmentBlock, Block, Usage } from "../core/session/entries";
import type { BlobId, EntryId, SessionId } from "../core/session/ids";

/** The reply in flight, checkpointed on a throttle (never per token). One row per reply. */
export type ReplyCheckpoint = {
  /** The id the finished reply will get. */
  id: EntryId;
  sessionId: SessionId;
  parentId: EntryId;
  /** Which page owns it (a per-page id); a checkpoint whose owner is gone is an orphan. */
  ownerId: string;
  content: Block[];
  provider?: string;
  api?: ApiKind;
  model?: string;
  usage?: Usage;
  /** ms since epoch */
  startedAt: number;
  /** ms since epoch, of the last checkpoint */
  updatedAt: number;
};

export type SettingRow = { key: string; value: unknown };

/** A user bookmark on an entry: mutable metadata, not part of the conversation. */
export type LabelRow = { entryId: EntryId; sessionId: SessionId; text: string };

/** A cache filled from the worker's counts; never authoritative. */
export type TokenCountRow = { entryId: EntryId; encoding: string; count: number };

/** Images and attachments, referenced by id from blocks (never inline in entry rows). */
export type BlobRow = { id: BlobId; data: Blob; mimeType: string; size: number; createdAt: number };

/**
 * A message the user sent while maintenance ran on its chat, waiting to go out after it (one per
 * chat; more text is appended). Still here after a reload: it was never sent.
 */
/**
 * `ownerId`: the page that will send it (its Web Lock name, as for checkpoints); another open tab leaves
 * a row whose owner is alive alone. Absent on rows written before owners were recorded.
 */
export type QueuedRow = { sessionId: SessionId; text: string; queuedAt: number; ownerId?: string };

/**
 * Text typed into a chat's composer and files attached there, not sent yet: restored when the chat
 * opens again. A small row: the attached files are rows of their own (ComposerAttachmentRow), listed
 * here by id, so a debounced save of the text writes only this.
 */
export type ComposerDraftRow = {
  sessionId: SessionId;
  text: string;
  /** The attached files, oldest first: rows of composerAttachments (v11). Absent when there are none. */
  attachmentIds?: string[];
  updatedAt: number;
};

/**
 * The draft row as v3–v10 stored it: the attached blocks inline, so every debounced save of the
 * text rewrote a pasted 1 MB file with it. The v11 upgrade moves them to composerAttachments.
 */
export type LegacyComposerDraftRow = Omit<ComposerDraftRow, "attachmentIds"> & { attachments?: AttachmentBlock[] };

/**
 * One file attached in a chat's composer and not sent yet (v11): written once when it is attached and
 * deleted when its chip is removed or the message is sent; the draft row lists it by `id`.
 */
export type ComposerAttachmentRow = { id: string; sessionId: SessionId; block: AttachmentBlock };

/**
 * The serialized chat search index (db/search): a cache, rebuilt from the entries when missing or
 * unreadable. `data` is core/search/chat-index.ts's SerializedIndex, checked when loaded.
 */
export type SearchIndexRow = { key: string; data: unknown; savedAt: number };

/**
 * What one run of "Check memory" on a compaction card cost (v12): the usage its requests reported,
 * per model. One row per run, written once when the run ends; deleted with its chat; never synced
 * or exported (like drafts, it is this device's record).
 */
export type MemoryCheckCostRow = MemoryCheckCost & {
  /** A fresh id per run: a re-run is a new cost, never the same row again. */
  readonly id: string;
  readonly sessionId: SessionId;
  readonly compactionId: EntryId;
};
