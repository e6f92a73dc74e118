/**
 * Counts the messages the page receives from its workers (per worker, by the name the app gives it,
 * e.g. "search" / "compaction") and on BroadcastChannels (Dexie tells other contexts of a write
 * that way: a worker writing to IndexedDB reaches the page as such a message), so a bench can say
 * how many landed while it measured. Runs in the page before the app (init script); must stay
 * self-contained: it is serialized.
 */
export function installWorkerMessageCounter() {
  const counts = {};
  const count = (key) => {
    if (window.__groveMessagesCounting) counts[key] = (counts[key] ?? 0) + 1;
  };
  window.__groveMessages = counts;
  window.__groveMessagesCounting = false;
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(url, options) {
      super(url, options);
      // The app names a worker after its lifeline lock: "grove-lifeline:<kind>:…".
      const name = String(options?.name ?? url);
      const kind = name.startsWith("grove-lifeline:") ? name.split(":")[1] : name;
      this.addEventListener("message", () => count(`worker ${kind}`));
    }
  };
  const NativeChannel = window.BroadcastChannel;
  if (NativeChannel) {
    window.BroadcastChannel = class extends NativeChannel {
      constructor(name) {
        super(name);
        this.addEventListener("message", () => count(`channel ${name}`));
      }
    };
  }
}

/** Starts counting from zero (in the page). */
export const startCountingMessages = (page) =>
  page.evaluate(() => {
    for (const k of Object.keys(window.__groveMessages ?? {})) delete window.__groveMessages[k];
    window.__groveMessagesCounting = true;
  });

/** Stops counting; resolves to { total, byKind: { "worker search": n, … } }. */
export const stopCountingMessages = (page) =>
  page.evaluate(() => {
    window.__groveMessagesCounting = false;
    const byKind = { ...(window.__groveMessages ?? {}) };
    return { total: Object.values(byKind).reduce((a, b) => a + b, 0), byKind };
  });
