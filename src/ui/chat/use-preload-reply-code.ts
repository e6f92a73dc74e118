import { useEffect } from "react";
import type { Session } from "../../core/session/entries";
import { afterFirstScreen } from "../../state/app/first-screen";
import { preloadApi } from "../../state/app/lazy";
import { replyApi } from "../../state/models/chat-target";
import { useSettingsStore } from "../../state/settings/settings-store";

/** At the latest this long (ms) after the first screen is idle, idle or not. */
const PRELOAD_WAIT_MS = 1_000;

/**
 * Loads the provider code the chat on screen would answer with as soon as it can be used (its
 * provider has a key), so a first send in a fresh tab does not wait for that chunk. The composer
 * also asks on focus; asking again is free (the load is shared).
 */
export function usePreloadReplyCode(session: Session | undefined): void {
  const api = useSettingsStore((s) => (s.loaded ? replyApi(session, s.settings) : null));
  useEffect(() => {
    if (!api) return;
    let live = true;
    let id: number | undefined;
    // After the first screen, when the page is idle: opening a chat comes first (parsing an SDK is
    // a long task of its own, and a fresh tab's download is the first screen's).
    void afterFirstScreen().then(() => {
      if (!live) return;
      if (typeof requestIdleCallback !== "function") void preloadApi(api);
      else id = requestIdleCallback(() => void preloadApi(api), { timeout: PRELOAD_WAIT_MS });
    });
    return () => {
      live = false;
      if (id !== undefined) cancelIdleCallback(id);
    };
  }, [api]);
}
