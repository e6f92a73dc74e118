/**
 * Background work waits while a message is sent and answered, from the Enter to the reply's end:
 * the search worker's indexing and the open chat's whole-tree read each shared the page (its
 * thread, the database) with the send, and the first token of a reply in a 20,000-entry chat came
 * twice as late as in a small one.
 */

import { anyChatSending, onActivityChange } from "./chat-activity";

/** Tells each of `holds` true when a send begins and false when the last one ends. Returns the stop function. */
export function holdWhileSending(holds: ReadonlyArray<(held: boolean) => void>): () => void {
  let held = false;
  const update = () => {
    const now = anyChatSending();
    if (now === held) return;
    held = now;
    for (const hold of holds) hold(now);
  };
  return onActivityChange(update);
}
