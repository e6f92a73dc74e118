/** Calling a progress callback that crosses to the page: it must not throw, and nothing waits for it. */

/** Calls a progress callback, which must not throw; if it does (or its message fails), it is ignored. */
export function notify<T>(onValue: (value: T) => void, value: T): void {
  try {
    const result: unknown = onValue(value);
    // Through comlink the call is a message and returns a promise; nothing waits for it.
    if (result instanceof Promise) result.catch(() => {});
  } catch {
    // The job does not fail because a progress display did.
  }
}
