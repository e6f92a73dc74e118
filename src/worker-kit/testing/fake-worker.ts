/**
 * TEST-ONLY: a Web Locks manager in memory (one queue per name, granted in request order) and
 * fake dedicated Workers whose script "holds its lifeline" like the real worker entries do, and
 * can be killed silently, as `worker.terminate()` or a crash would: `FakeWorker` never answers a
 * call; `channelWorker` serves a real implementation with comlink over a MessageChannel.
 */
import * as Comlink from "comlink";
import { holdLifeline, type LockRequester } from "../lifeline";

type Waiter = {
  callback: () => Promise<unknown>;
  signal?: AbortSignal;
  done: (v: unknown) => void;
  fail: (e: unknown) => void;
};

export class FakeLocks implements LockRequester {
  private readonly queues = new Map<string, Waiter[]>();
  private readonly holders = new Map<string, Waiter>();

  request(
    name: string,
    optionsOrCallback: { signal?: AbortSignal } | (() => Promise<unknown>),
    maybeCallback?: () => Promise<unknown>,
  ): Promise<unknown> {
    // As navigator.locks: `request(name, callback)` or `request(name, options, callback)`.
    const options = typeof optionsOrCallback === "function" ? {} : optionsOrCallback;
    const callback = typeof optionsOrCallback === "function" ? optionsOrCallback : maybeCallback;
    if (!callback) throw new TypeError("request() needs a callback");
    return new Promise((done, fail) => {
      const waiter: Waiter = { callback, signal: options.signal, done, fail };
      options.signal?.addEventListener("abort", () => {
        const queue = this.queues.get(name) ?? [];
        const at = queue.indexOf(waiter);
        if (at >= 0) {
          queue.splice(at, 1);
          fail(new DOMException("aborted", "AbortError"));
        }
      });
      this.queues.set(name, [...(this.queues.get(name) ?? []), waiter]);
      this.grant(name);
    });
  }

  /** The holder of `name` is gone (its worker ended): the lock passes to the next in line. */
  kill(name: string): void {
    this.holders.delete(name);
    this.grant(name);
  }

  private grant(name: string): void {
    if (this.holders.has(name)) return;
    const next = this.queues.get(name)?.shift();
    if (!next) return;
    this.holders.set(name, next);
    next
      .callback()
      .then(next.done, next.fail)
      .finally(() => {
        if (this.holders.get(name) === next) this.kill(name);
      });
  }
}

type Listener = (event: { data?: unknown; message?: string }) => void;

/** A dedicated Worker that never answers calls (a comlink call to it waits), holding its lifeline. */
export class FakeWorker {
  static readonly started: FakeWorker[] = [];
  readonly name: string;
  terminated = false;
  readonly posted: unknown[] = [];
  private readonly listeners = new Map<string, Listener[]>();

  constructor(
    readonly locks: FakeLocks,
    _url: URL | string,
    options: { name?: string } = {},
  ) {
    this.name = options.name ?? "";
    FakeWorker.started.push(this);
    // Messages from a worker arrive as tasks, after the page has added its listeners.
    holdLifeline(locks, this.name, (m) => setTimeout(() => this.emit("message", { data: m }), 0));
  }

  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  removeEventListener(type: string, listener: Listener): void {
    this.listeners.set(
      type,
      (this.listeners.get(type) ?? []).filter((l) => l !== listener),
    );
  }

  postMessage(message: unknown): void {
    this.posted.push(message);
  }

  terminate(): void {
    this.terminated = true;
    this.locks.kill(this.name);
  }

  /** Ends the worker as a crash would: no event, only its lifeline lock goes. */
  killSilently(): void {
    this.locks.kill(this.name);
  }

  emit(type: string, event: { data?: unknown; message?: string }): void {
    for (const l of this.listeners.get(type) ?? []) l(event);
  }
}

/** A Worker constructor for `vi.stubGlobal("Worker", …)` whose instances share `locks`. */
export function fakeWorkerClass(locks: FakeLocks): new (url: URL | string, options?: { name?: string }) => FakeWorker {
  return class extends FakeWorker {
    constructor(url: URL | string, options?: { name?: string }) {
      super(locks, url, options);
    }
  };
}

/**
 * A start function for `WorkerSpec.start` whose worker serves `implementation` (comlink over a
 * MessageChannel, as serve-worker.ts does in a real worker) and holds its lifeline in `locks`.
 * `workers` lists the started ones; `kill(name)` on `locks` ends one silently.
 */
export function channelWorkers(
  locks: FakeLocks,
  implementation: () => object,
): { start: (name: string) => Worker; workers: Array<{ name: string; terminated: boolean }> } {
  const workers: Array<{ name: string; terminated: boolean }> = [];
  const start = (name: string): Worker => {
    const { port1, port2 } = new MessageChannel();
    port1.start(); // a Worker delivers its messages without it
    const record = { name, terminated: false };
    workers.push(record);
    Comlink.expose(implementation(), port2 as unknown as Comlink.Endpoint);
    holdLifeline(locks, name, (m) => port2.postMessage(m));
    const worker = {
      postMessage: (message: unknown, transfer?: Transferable[]) => port1.postMessage(message, transfer ?? []),
      addEventListener: (type: string, listener: EventListener) => port1.addEventListener(type, listener),
      removeEventListener: (type: string, listener: EventListener) => port1.removeEventListener(type, listener),
      start: () => port1.start(),
      terminate: () => {
        record.terminated = true;
        port1.close();
        port2.close();
        locks.kill(name);
      },
    };
    return worker as unknown as Worker;
  };
  return { start, workers };
}
