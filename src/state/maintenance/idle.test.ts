import { describe, expect, it } from "vitest";
import { type CompactionSettings, DEFAULT_COMPACTION_SETTINGS } from "../../core/compaction/settings";
import { asSessionId } from "../../core/session/ids";
import { createIdleWatcher, type IdleClock } from "./idle";

/** A fake clock: timers fire only when the test advances time. */
function fakeClock(): IdleClock & { advance(ms: number): Promise<void>; pending(): number } {
  let now = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    setTimeout(fn, ms) {
      const id = ++seq;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    async advance(ms) {
      now += ms;
      for (const [id, t] of [...timers]) {
        if (t.at <= now) {
          timers.delete(id);
          t.fn();
        }
      }
      // Let the watcher's async measure/compact settle.
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
    pending: () => timers.size,
  };
}

const S = asSessionId("s1");

function watcher(opts: { tokens?: number; settings?: Partial<CompactionSettings>; blocked?: boolean } = {}) {
  const clock = fakeClock();
  const compacted: string[] = [];
  let settings: CompactionSettings = { ...DEFAULT_COMPACTION_SETTINGS, idleEnabled: true, ...opts.settings };
  let blocked = opts.blocked ?? false;
  const w = createIdleWatcher({
    clock,
    settings: () => settings,
    blocked: () => blocked,
    measure: async () => opts.tokens ?? 250_000,
    compact: async (id) => {
      compacted.push(id);
    },
  });
  return {
    w,
    clock,
    compacted,
    set: (patch: Partial<CompactionSettings>) => {
      settings = { ...settings, ...patch };
    },
    block: (b: boolean) => {
      blocked = b;
    },
  };
}

describe("idle compaction timer", () => {
  it("is off by default: nothing is armed", () => {
    expect(DEFAULT_COMPACTION_SETTINGS).toMatchObject({
      idleEnabled: false,
      idleThresholdTokens: 200_000,
      idleTimeoutSeconds: 300,
    });
    const t = watcher({ settings: { idleEnabled: false } });
    t.w.touch(S);
    expect(t.clock.pending()).toBe(0);
  });

  it("compacts once the chat has been idle idleTimeoutSeconds above idleThresholdTokens", async () => {
    const t = watcher();
    t.w.touch(S);
    await t.clock.advance(299_999);
    expect(t.compacted).toEqual([]);
    await t.clock.advance(1);
    expect(t.compacted).toEqual([S]);
    // Once: no timer left, nothing more without new activity.
    expect(t.clock.pending()).toBe(0);
  });

  it("activity restarts the idle time", async () => {
    const t = watcher();
    t.w.touch(S);
    await t.clock.advance(200_000);
    t.w.touch(S);
    await t.clock.advance(200_000);
    expect(t.compacted).toEqual([]);
    await t.clock.advance(100_000);
    expect(t.compacted).toEqual([S]);
  });

  it("not at or under the threshold, not while busy, not once turned off", async () => {
    const under = watcher({ tokens: 200_000 });
    under.w.touch(S);
    await under.clock.advance(300_000);
    expect(under.compacted).toEqual([]);

    const busy = watcher({ blocked: true });
    busy.w.touch(S);
    await busy.clock.advance(300_000);
    expect(busy.compacted).toEqual([]);

    const off = watcher();
    off.w.touch(S);
    off.set({ idleEnabled: false });
    await off.clock.advance(300_000);
    expect(off.compacted).toEqual([]);
  });

  it("uses the configured timeout", async () => {
    const t = watcher({ settings: { idleTimeoutSeconds: 60 } });
    t.w.touch(S);
    await t.clock.advance(60_000);
    expect(t.compacted).toEqual([S]);
  });
});
