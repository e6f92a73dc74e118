/**
 * Saving the chat index (search-store.ts) a little after it last changed, and never while someone
 * types: serializing a whole large index held the worker for a second or more. A save that fails
 * (quota, a closing database) keeps its changes for the next one.
 */
import type { ChatIndex, SegmentChanges } from "../../core/search/chat-index";
import { saveSegments } from "./search-store";

export type IndexSaver = {
  /** The index changed: save it once things are quiet (`delayMs` after this and after the last query). */
  changed(): void;
  /** A query was asked: the save waits for `delayMs` of quiet after it. */
  queried(): void;
  /** Saves now if anything is unsaved (a save waiting for quiet goes now instead). */
  flush(): Promise<void>;
  /** No save waits any more (one under way stops at its next slice). */
  cancel(): void;
};

const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function createIndexSaver(index: ChatIndex, options: { delayMs: number; stopped: () => boolean }): IndexSaver {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastQueryAt = 0;

  // Serialized a slice at a time (a few ms each: a query asked meanwhile waits for one slice, not
  // a segment's 50-150 ms), then written in one transaction, a segment per task: a reload finds
  // the whole save or none of it.
  let saving: Promise<void> | null = null;
  const save = (): Promise<void> =>
    (saving ??= (async () => {
      const steps = index.serializeChanges();
      let step = steps.next();
      while (!step.done) {
        await yieldToEvents();
        if (options.stopped()) return;
        step = steps.next();
      }
      const changes: SegmentChanges = step.value;
      // Quota or a closing database: tried again after the next change.
      await saveSegments(changes).catch(() => index.keepChanges(changes));
      // A segment that changed while it was written was left out: saved with the next quiet.
      if (index.changed && !options.stopped()) changed();
    })().finally(() => {
      saving = null;
    }));

  const changed = () => {
    clearTimeout(timer);
    const whenQuiet = () => {
      const wait = options.delayMs - (Date.now() - lastQueryAt);
      if (wait > 0) timer = setTimeout(whenQuiet, wait);
      else void save();
    };
    timer = setTimeout(whenQuiet, options.delayMs);
  };

  return {
    changed,
    queried: () => {
      lastQueryAt = Date.now();
    },
    flush: () => {
      clearTimeout(timer);
      return save();
    },
    cancel: () => clearTimeout(timer),
  };
}
