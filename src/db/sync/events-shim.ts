/**
 * Node's `events` EventEmitter, as much of it as PouchDB uses (on/once/emit/remove…, listeners,
 * listenerCount, setMaxListeners). PouchDB imports `events`, which browsers do not have and which is
 * not installed here; vite.config.ts aliases `events` to this file. PouchDB also copies the
 * prototype's methods with Object.keys onto its constructor (PouchDB.on, PouchDB.emit), so the
 * methods are made enumerable like the prototype methods of Node's function-style original.
 */
type Listener = (...args: unknown[]) => void;
type Wrapped = Listener & { listener?: Listener };

function store(self: object): Map<string | symbol, Wrapped[]> {
  const holder = self as { _events?: Map<string | symbol, Wrapped[]> };
  if (!Object.hasOwn(holder, "_events") || !holder._events) {
    Object.defineProperty(holder, "_events", { value: new Map(), writable: true, configurable: true });
  }
  return holder._events!;
}

class EventEmitter {
  static listenerCount(emitter: EventEmitter, type: string | symbol): number {
    return emitter.listenerCount(type);
  }

  on(type: string | symbol, listener: Listener): this {
    // Node emits newListener before adding; PouchDB's changes feed relies on it for 'change'.
    if (store(this).has("newListener")) this.emit("newListener", type, listener);
    const list = store(this).get(type) ?? [];
    list.push(listener);
    store(this).set(type, list);
    return this;
  }

  addListener(type: string | symbol, listener: Listener): this {
    return this.on(type, listener);
  }

  prependListener(type: string | symbol, listener: Listener): this {
    const list = store(this).get(type) ?? [];
    list.unshift(listener);
    store(this).set(type, list);
    return this;
  }

  once(type: string | symbol, listener: Listener): this {
    const wrapped: Wrapped = (...args: unknown[]) => {
      this.removeListener(type, wrapped);
      listener.apply(this, args);
    };
    wrapped.listener = listener;
    return this.on(type, wrapped);
  }

  off(type: string | symbol, listener: Listener): this {
    return this.removeListener(type, listener);
  }

  removeListener(type: string | symbol, listener: Listener): this {
    const list = store(this).get(type);
    if (!list) return this;
    const index = list.findIndex((l) => l === listener || l.listener === listener);
    if (index >= 0) list.splice(index, 1);
    if (list.length === 0) store(this).delete(type);
    if (store(this).has("removeListener")) this.emit("removeListener", type, listener);
    return this;
  }

  removeAllListeners(type?: string | symbol): this {
    if (type === undefined) store(this).clear();
    else store(this).delete(type);
    return this;
  }

  emit(type: string | symbol, ...args: unknown[]): boolean {
    const list = store(this).get(type);
    if (!list || list.length === 0) {
      if (type === "error") throw args[0] instanceof Error ? args[0] : new Error(String(args[0]));
      return false;
    }
    for (const listener of [...list]) listener.apply(this, args);
    return true;
  }

  listeners(type: string | symbol): Listener[] {
    return (store(this).get(type) ?? []).map((l) => l.listener ?? l);
  }

  listenerCount(type: string | symbol): number {
    return store(this).get(type)?.length ?? 0;
  }

  setMaxListeners(_n: number): this {
    return this;
  }

  getMaxListeners(): number {
    return 0;
  }

  eventNames(): Array<string | symbol> {
    return [...store(this).keys()];
  }
}

for (const key of Object.getOwnPropertyNames(EventEmitter.prototype)) {
  if (key === "constructor") continue;
  const descriptor = Object.getOwnPropertyDescriptor(EventEmitter.prototype, key);
  if (descriptor && typeof descriptor.value === "function") {
    Object.defineProperty(EventEmitter.prototype, key, { ...descriptor, enumerable: true });
  }
}

export { EventEmitter };
export default EventEmitter;
