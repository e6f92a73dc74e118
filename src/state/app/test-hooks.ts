/**
 * What a send did, readable from the page when the test-hooks flag is set (e2e and benches only):
 * `window.groveContextBuilds()` (contexts state/ built on this thread so far) and
 * `window.groveSending()` (a message is still being stored or answered, with its maintenance).
 */

import { exposeForTests } from "../../worker-kit/test-hooks";
import { anyChatSending } from "../activity/chat-activity";
import { contextBuilds } from "../context/context-builds";

export function exposeSendHooksForTests(): void {
  exposeForTests({ groveContextBuilds: contextBuilds, groveSending: anyChatSending });
}
