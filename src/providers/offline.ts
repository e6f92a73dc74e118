/** True when the browser knows it has no network (navigator.onLine is false); unknown counts as online. */
export function browserOffline(): boolean {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}

/** What a failed send says when the browser is offline: plainly, and that nothing is lost. */
export const OFFLINE_MESSAGE =
  "You're offline, so the provider is unreachable. Your chats are still here to read; send again when you're back online.";
