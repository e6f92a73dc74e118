/**
 * Starting one worker, and the one death policy. `spawnWorker(spec)` starts a module worker (or,
 * where there is no Worker, the same implementation in-process) and returns its API guarded
 * against its death: once the worker is gone — terminated, crashed, killed for memory (seen only
 * through its lifeline lock, lifeline.ts), an `error` or a `messageerror` event — every call it
 * had not answered, and every later one, rejects with one `WorkerDied` (worker-died.ts), the
 * worker is terminated, and `died` resolves. A worker that is only busy is never taken for dead:
 * there is no deadline. Restarting is the caller's next `spawnWorker` (worker-slot.ts does it on
 * next use).
 *
 * `dispose()` ends it on purpose: not a death (`died` stays pending); its calls reject with
 * `workerStopped()`.
 */
import * as Comlink from "comlink";
import type { MessageError } from "../core/session/entries";
import { isLifelineHeld, lifelineName, watchLifeline } from "./lifeline";
import { exposeKillForTests } from "./test-hooks";
import { type WorkerDeath, type WorkerDied, type WorkerKind, workerDied, workerStopped } from "./worker-died";

/**
 * `Api` as a worker answers it: every method returns a promise. Callbacks passed to it must be
 * wrapped with `Comlink.proxy` (in-process the wrapped function is called as it is).
 */
export type WorkerCalls<Api> = {
  [K in keyof Api]: Api[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

export type WorkerSpec<Api> = {
  kind: WorkerKind;
  /**
   * Starts the module worker named `name` (its lifeline lock's name). Written at each client as
   * `(name) => new Worker(new URL("./x.worker.ts", import.meta.url), { type: "module", name })`:
   * Vite finds and bundles a worker only from that literal form.
   */
  start: (name: string) => Worker;
  /**
   * The implementation in-process, for where there is no Worker (vitest, Node), so tests run the
   * real code. Pass `import.meta.env.PROD ? undefined : () => import("./impl").then(…)`: the
   * bundler drops the branch, so production bundles hold no copy of it.
   */
  inProcess: (() => Promise<Api>) | undefined;
};

export type SpawnedWorker<Api> = {
  api: WorkerCalls<Api>;
  /** Resolves when the worker died (never after `dispose()`, never in-process). */
  died: Promise<WorkerDied>;
  /** False once it died or was disposed: the next use should start another. */
  isRunning(): boolean;
  dispose(): void;
};

type Invoke = (method: string, args: unknown[]) => Promise<unknown>;
type Methods = Record<string, (...args: unknown[]) => unknown>;

export function spawnWorker<Api extends object>(spec: WorkerSpec<Api>): SpawnedWorker<Api> {
  return typeof Worker === "undefined" ? spawnInProcess(spec) : spawnModuleWorker(spec);
}

function spawnModuleWorker<Api extends object>(spec: WorkerSpec<Api>): SpawnedWorker<Api> {
  const worker = spec.start(lifelineName(spec.kind));
  const remote = Comlink.wrap<Methods>(worker);
  const methods = remote as unknown as Methods;
  let ended: MessageError | null = null;
  let rejectPending: (failure: MessageError) => void = () => {};
  const pendingFail = new Promise<never>((_, reject) => {
    rejectPending = reject;
  });
  pendingFail.catch(() => {});
  let reportDeath: (failure: WorkerDied) => void = () => {};
  const died = new Promise<WorkerDied>((resolve) => {
    reportDeath = resolve;
  });
  const lifeline = watchLifeline(typeof navigator === "undefined" ? undefined : navigator.locks, () => die("lifeline"));

  function end(failure: MessageError): boolean {
    if (ended) return false;
    ended = failure;
    lifeline.stop();
    rejectPending(failure);
    return true;
  }
  function die(death: WorkerDeath, detail?: string): void {
    const failure = workerDied(spec.kind, death, detail);
    if (!end(failure)) return;
    worker.terminate();
    reportDeath(failure);
  }

  worker.addEventListener("message", (event: MessageEvent) => {
    if (isLifelineHeld(event.data)) lifeline.held(event.data.groveLifelineHeld);
  });
  worker.addEventListener("error", (event: ErrorEvent) => die("error", event.message));
  // A reply that could not be read leaves its call waiting forever: as good as dead.
  worker.addEventListener("messageerror", () => die("messageerror"));
  exposeKillForTests(spec.kind, () => worker.terminate());

  const invoke: Invoke = (method, args) => {
    if (ended) return Promise.reject(ended);
    const call = methods[method];
    if (!call) return Promise.reject(new Error(`No method ${method} on the ${spec.kind} worker.`));
    return Promise.race([Reflect.apply(call, methods, args), pendingFail]);
  };
  return {
    api: calls<Api>(invoke),
    died,
    isRunning: () => ended === null,
    dispose: () => {
      if (!end(workerStopped())) return;
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

function spawnInProcess<Api extends object>(spec: WorkerSpec<Api>): SpawnedWorker<Api> {
  // Never in a production build: browsers have Worker, and the client passes no in-process
  // implementation there (see WorkerSpec.inProcess).
  if (!spec.inProcess) throw new Error("Web Workers are not available in this browser.");
  const implementation = spec.inProcess() as Promise<unknown> as Promise<Methods>;
  let ended: MessageError | null = null;
  const invoke: Invoke = (method, args) => {
    if (ended) return Promise.reject(ended);
    return implementation.then((impl) => {
      const call = impl[method];
      if (!call) throw new Error(`No method ${method} on the ${spec.kind} implementation.`);
      return Reflect.apply(call, impl, args);
    });
  };
  return {
    api: calls<Api>(invoke),
    died: new Promise<WorkerDied>(() => {}),
    isRunning: () => ended === null,
    dispose: () => {
      ended ??= workerStopped();
    },
  };
}

/** An object whose every method forwards to `invoke` (it is never a thenable: `then` is absent). */
function calls<Api>(invoke: Invoke): WorkerCalls<Api> {
  return new Proxy({} as WorkerCalls<Api>, {
    get: (_target, method) =>
      typeof method === "string" && method !== "then" ? (...args: unknown[]) => invoke(method, args) : undefined,
  });
}
