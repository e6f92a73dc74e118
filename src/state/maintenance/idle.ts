/**
 * Idle compaction (seed 002, off by default): when a chat has had no reply for
 * `idleTimeoutSeconds` and its context is above `idleThresholdTokens`, compact it in the
 * background, so the next message is cheap (prompt caches expire while idle anyway). Never
 * continues the conversation afterwards.
 *
 * One timer per chat, re-armed by every reply (`touch`); when it fires, the chat must not be busy
 * (a reply streaming, maintenance running) and must still be over the threshold. The clock is
 * injected: unit tests pass a fake one; in the browser it is the window's timers (which
 * Playwright's page.clock controls).
 */
import type { CompactionSettings } from "../../core/compaction/settings";
import type { SessionId } from "../../core/session/ids";

export type IdleClock = {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

export type IdleDeps = {
  clock: IdleClock;
  settings: () => CompactionSettings;
  /** A reply or a maintenance operation is running in this chat (or automatic compaction is off/paused). */
  blocked: (sessionId: SessionId) => boolean;
  /** The chat's context tokens now; null when they cannot be counted. */
  measure: (sessionId: SessionId) => Promise<number | null>;
  compact: (sessionId: SessionId) => Promise<unknown>;
};

export type IdleWatcher = {
  /** Activity in `sessionId` (a reply ended): the idle time starts again. */
  touch(sessionId: SessionId): void;
  /** Stops watching `sessionId` (deleted). */
  forget(sessionId: SessionId): void;
};

export function createIdleWatcher(deps: IdleDeps): IdleWatcher {
  const timers = new Map<SessionId, unknown>();
  const forget = (sessionId: SessionId): void => {
    const t = timers.get(sessionId);
    if (t !== undefined) deps.clock.clearTimeout(t);
    timers.delete(sessionId);
  };
  const fire = async (sessionId: SessionId): Promise<void> => {
    timers.delete(sessionId);
    const s = deps.settings();
    if (!s.idleEnabled || deps.blocked(sessionId)) return;
    const tokens = await deps.measure(sessionId);
    if (tokens === null || tokens <= s.idleThresholdTokens) return;
    if (deps.blocked(sessionId)) return;
    await deps.compact(sessionId);
  };
  return {
    touch(sessionId) {
      forget(sessionId);
      const s = deps.settings();
      if (!s.idleEnabled) return;
      const ms = Math.max(1, s.idleTimeoutSeconds) * 1000;
      timers.set(
        sessionId,
        deps.clock.setTimeout(() => void fire(sessionId), ms),
      );
    },
    forget,
  };
}
