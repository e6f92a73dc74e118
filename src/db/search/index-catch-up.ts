/**
 * The chat index catching up with the database: one pass of catch-up-pass.ts at a time, after the
 * saved index has loaded; a change noticed during a pass runs another after it (never two at
 * once). While held (a message being sent and answered), a pass waits at its next pause. Once the
 * index first has a common word, it is prepared for fast queries (off the typing path).
 */
import type { ChatIndex } from "../../core/search/chat-index";
import { createHold } from "../hold";
import { type CatchUpOptions, type CatchUpProgress, catchUpPass } from "./catch-up-pass";

export type CatchUp = {
  /** Catch up now (or once more after the pass under way); resolves when that run ends. */
  run(): Promise<void>;
  /** Resolves when the index has caught up: no pass under way or asked for. */
  caughtUp(): Promise<void>;
  /**
   * How far it is, for an answer: chats done of how many during a pass, 0 of 0 while a pass has
   * not counted its work yet, null when caught up.
   */
  progress(): CatchUpProgress | null;
  /** Hold (true) or release (false) the passes at their next pause. */
  hold(held: boolean): void;
};

const yieldToEvents = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function createCatchUp(
  index: ChatIndex,
  options: CatchUpOptions & {
    /** Passes start once this resolves (the saved index loaded). */
    after: Promise<void>;
    stopped: () => boolean;
    /** Called after a pass that changed the index. */
    onChanged: () => void;
    /** Longest a hold lasts (default: hold.ts's HOLD_MAX_MS). */
    holdMaxMs?: number;
  },
): CatchUp {
  let progress: CatchUpProgress | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let prepared = false;
  const indexing = createHold(options.holdMaxMs);
  /** A pass's pause: the event loop's turn, then the end of a hold. */
  const pause = async () => {
    await (options.pause ?? yieldToEvents)();
    await indexing.passed();
  };

  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      await options.after;
      do {
        again = false;
        await indexing.passed();
        const changed = await catchUpPass(index, {
          pause,
          onProgress: (p) => {
            progress = p.chatsDone < p.chatsTotal ? p : null;
            options.onProgress?.(p);
          },
        }).catch((e) => {
          // Left for the next change to retry (what was indexed stays; the chat is marked incomplete).
          console.warn("The search index could not be brought up to date.", e);
          return false;
        });
        progress = null;
        if (changed) options.onChanged();
      } while (again && !options.stopped());
      // Once per worker, when the index first has a common word: off the typing path.
      if (!prepared && !options.stopped()) prepared = index.prepare();
    })().finally(() => {
      running = null;
    });
    return running;
  };

  return {
    run,
    caughtUp: async () => {
      await run();
      while (running) await running;
    },
    progress: () => (progress ? { ...progress } : running ? { chatsDone: 0, chatsTotal: 0 } : null),
    hold: indexing.set,
  };
}
