/**
 * What a send did, readable from the page when the test-hooks flag is set (e2e and benches only):
 * `window.groveContextBuilds()` (contexts state/ built on this thread so far) and
 * `window.groveSending()` (a message is still being stored or answered, with its maintenance).
 */
import { TEST_HOOKS_FLAG } from "../../core/lifeline";
import { anyChatSending } from "../activity/chat-activity";
import { contextBuilds } from "../context/context-builds";

export function exposeSendHooksForTests(): void {
  try {
    if (globalThis.localStorage?.getItem(TEST_HOOKS_FLAG) !== "1") return;
  } catch {
    return; // storage blocked
  }
  Object.assign(globalThis, { groveContextBuilds: contextBuilds, groveSending: anyChatSending });
}
