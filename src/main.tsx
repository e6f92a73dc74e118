/**
 * The page's entry: starts the app's start-up (boot: the database opens and is read) at once, and
 * brings the screen in while the database answers, a part per task. Evaluating all of the first
 * screen's code in the entry's one task held a fresh tab's main thread for longer than a frame
 * (65–90 ms); each part below is evaluated in a task of its own.
 */
import { boot } from "./state/app/boot";
import { nextTask } from "./state/app/next-task";
import { useUiStore } from "./state/app/ui-store";
import { readFirstTail } from "./ui/first-tail";
import { warmFontStrikes } from "./ui/font-warmup";
import { preloadMarkdown } from "./ui/markdown/LazyMarkdown";
import "./ui/app.css";
import { applyTheme, watchTheme } from "./ui/theme";

applyTheme();
watchTheme();

const booted = boot();
// The open chat's end, read while the code below arrives: the first render draws it (first-tail.ts).
const firstTailRead = booted.then(() => readFirstTail(useUiStore.getState().sessionId));
// Fetched while the database opens, so messages rarely show as plain text first.
void preloadMarkdown();
// The fonts the last screens used, looked up while the database opens (font-warmup.ts says why).
void warmFontStrikes();

/** The first screen's code, in parts of about the same weight (each brings what it imports). */
const FIRST_SCREEN_PARTS = [
  () => import("@tanstack/react-virtual"),
  () => import("./ui/chat/MessageList"),
  () => import("./ui/chat/ChatView"),
];

void (async () => {
  const { createRoot } = await import("react-dom/client");
  for (const part of FIRST_SCREEN_PARTS) {
    await nextTask();
    await part();
  }
  await nextTask();
  const [{ startApp }, { prepareDateFormats }] = await Promise.all([
    import("./ui/start-app"),
    import("./ui/sessions/date-groups"),
  ]);
  await nextTask();
  prepareDateFormats();
  await firstTailRead;
  await nextTask();
  startApp(createRoot);
})();
