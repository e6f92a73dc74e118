/**
 * The app's idle-compaction watcher (state/maintenance/idle.ts) on the real clock, measure and
 * maintenance runner: `touchIdle` after every reply; the compaction it runs is an ordinary
 * automatic one (reason "idle") through `compactSession`, and nothing is sent afterwards.
 */
import type { SessionId } from "../../core/session/ids";
import { getSessionPath } from "../../db/entries";
import { getSession } from "../../db/sessions";
import { chatActivity } from "../activity/chat-activity";
import { measureContext } from "../context/measure";
import { chatTarget, isTargetError } from "../models/chat-target";
import { useSettingsStore } from "../settings/settings-store";
import { compactSession } from "./compact";
import { createIdleWatcher, type IdleWatcher } from "./idle";
import { useMaintenanceStore } from "./maintenance-store";

async function contextTokensOf(sessionId: SessionId): Promise<number | null> {
  const session = await getSession(sessionId);
  if (!session?.leafId) return null;
  const read = await getSessionPath(sessionId, session.leafId);
  if (!read) return null;
  const target = chatTarget(read.session, useSettingsStore.getState().settings);
  if (isTargetError(target)) return null;
  return measureContext(read.path, target).then(
    (m) => m.tokens,
    () => null,
  );
}

let watcher: IdleWatcher | null = null;

function idleWatcher(): IdleWatcher {
  watcher ??= createIdleWatcher({
    // The window's own timers, looked up at call time (Playwright's page.clock replaces them).
    clock: {
      setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (h) => globalThis.clearTimeout(h as number),
    },
    settings: () => useSettingsStore.getState().settings.compaction,
    blocked: (sessionId) => {
      const m = useMaintenanceStore.getState();
      const settings = useSettingsStore.getState().settings;
      return (
        chatActivity(sessionId).replying ||
        m.op !== null ||
        Boolean(m.paused[sessionId]) ||
        !settings.compaction.enabled
      );
    },
    measure: contextTokensOf,
    compact: (sessionId) => compactSession(sessionId, { reason: "idle" }),
  });
  return watcher;
}

/** A reply in `sessionId` ended: its idle time starts now. */
export function touchIdle(sessionId: SessionId): void {
  idleWatcher().touch(sessionId);
}
