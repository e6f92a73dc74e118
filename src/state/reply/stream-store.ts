/**
 * The streaming lane (STYLE §12): the reply in flight, one per session, which only the streaming
 * row reads. The tree and the graph are not notified per token.
 */
import type { EntryId, SessionId } from "../../core/session/ids";
import type { AssistantPartial } from "../../providers/types";
import { defineStore } from "../app/store-registry";

type RetryWait = { attempt: number; maxAttempts: number; until: number; message: string };

export type ActiveReply = {
  sessionId: SessionId;
  checkpointId: EntryId;
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
  /** A tool loop between model calls (issue 28): what it waits for, in plain words ("Running echo…"). */
  activity?: string;
};

type StreamState = { replies: Record<string, ActiveReply> };

export const useStreamStore = defineStore<StreamState>(() => ({ replies: {} }));
