/**
 * What a send did, readable from the page when the test-hooks flag is set (e2e and benches only):
 * `window.groveContextBuilds()` (contexts state/ built on this thread so far) and
 * `window.groveSending()` (a message is still being stored or answered, with its maintenance),
 * `window.groveContextBuildTimes()` (the latest builds: path length, a tool loop's step or not, ms).
 */

import { exposeForTests } from "../../worker-kit/test-hooks";
import { anyChatSending } from "../activity/chat-activity";
import { contextBuilds, contextBuildTimes } from "../context/context-builds";

export function exposeSendHooksForTests(): void {
  exposeForTests({
    groveContextBuilds: contextBuilds,
    groveContextBuildTimes: contextBuildTimes,
    groveSending: anyChatSending,
  });
}
