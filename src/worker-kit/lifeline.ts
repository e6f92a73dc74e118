/**
 * Telling that a worker died, even silently. `worker.terminate()`, a crash or an out-of-memory
 * kill fire no event on the page: a call in flight would wait forever. A worker holds a Web Lock
 * named after itself for its whole life (`holdLifeline`, in the worker); the page queues a request
 * for the same lock (`watchLifeline`), which the browser grants only when the holder is gone.
 * Unlike a heartbeat with a deadline, this never mistakes a worker busy for a minute (a 100 MB
 * parse on a loaded machine) for a dead one, and needs no polling.
 *
 * Pure protocol: the lock manager and the messaging are injected (navigator.locks, postMessage),
 * so this module stays free of effects of its own (spawn-worker.ts watches, serve-worker.ts holds).
 * Without Web Locks (an old browser, a page not served from a secure context) there is no
 * lifeline: the error events still catch a worker that fails to load or throws.
 */

/** The part of the Web Locks API (navigator.locks) a lifeline uses. */
export type LockRequester = {
  request(name: string, options: { signal?: AbortSignal }, callback: () => Promise<unknown>): Promise<unknown>;
};

/** What a worker posts once it holds its lifeline: the page may start watching then. */
export type LifelineHeld = { groveLifelineHeld: string };

export function isLifelineHeld(data: unknown): data is LifelineHeld {
  return typeof data === "object" && data !== null && typeof (data as LifelineHeld).groveLifelineHeld === "string";
}

/** A lock name no other worker of this page (or another tab) uses. */
export function lifelineName(kind: string, random: () => number = Math.random): string {
  return `grove-lifeline:${kind}:${Date.now().toString(36)}:${random().toString(36).slice(2)}`;
}

/** Worker side: holds the lock `name` until the worker ends, then posts that it holds it. */
export function holdLifeline(locks: LockRequester | undefined, name: string, post: (m: LifelineHeld) => void): void {
  if (!locks || name === "") return;
  void locks
    .request(name, {}, () => {
      post({ groveLifelineHeld: name });
      return new Promise<never>(() => {});
    })
    .catch(() => {});
}

/**
 * Page side: once `held` names the lock (the worker's LifelineHeld message), requests it and calls
 * `onDeath` when it is granted, i.e. the worker is gone. `stop()` first when ending a worker on purpose.
 */
export function watchLifeline(
  locks: LockRequester | undefined,
  onDeath: () => void,
): { held: (name: string) => void; stop: () => void } {
  const stopped = new AbortController();
  let watching = false;
  return {
    held: (name) => {
      if (!locks || watching || stopped.signal.aborted) return;
      watching = true;
      locks
        .request(name, { signal: stopped.signal }, async () => {
          if (!stopped.signal.aborted) onDeath();
        })
        .catch(() => {}); // aborted by stop()
    },
    stop: () => stopped.abort(),
  };
}
