import { whenFirstScreenIdle } from "../state/app/first-screen";
import { preloadActions } from "../state/app/lazy";
import { preloadChatParts } from "./chat/lazy-chat";
import { preloadRowParts } from "./chat/lazy-rows";
import { preloadReports } from "./lazy-reports";
import { preloadPalette } from "./palette/CommandPaletteKeys";

/**
 * Once the first screen is up and the page is idle, fetches the chunks a first click or Enter is
 * likely to need (the send and reply code, the command palette, the model and chat-prompt
 * dialogs, the notices, the rarer rows), so that click (or a first failure) rarely waits for the network. Not
 * modulepreloads in index.html: those would be part of the first screen's download again.
 */
export function preloadChunksWhenIdle(): void {
  const run = () => {
    preloadActions();
    preloadPalette();
    preloadChatParts();
    preloadRowParts();
    preloadReports();
  };
  whenFirstScreenIdle(run);
}
