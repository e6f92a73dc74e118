/** The messages queued per chat (queued-message.ts is the one action for them; db/queued.ts keeps them). */
import { defineStore } from "../app/store-registry";

/**
 * A message the user sent while maintenance ran on its chat (persisted: db/queued.ts). "waiting"
 * goes out by itself once the chat is idle; "unsent" (found after a reload) waits for Send or Discard.
 * `stored`: found in the table at start-up (another tab may send it first: take the row before sending).
 */
export type QueuedMessage = { text: string; queuedAt: number; state: "waiting" | "unsent"; stored?: boolean };

/** Per chat: the message typed while maintenance ran there. */
export const useQueueStore = defineStore<{ queued: Record<string, QueuedMessage> }>(() => ({ queued: {} }));
