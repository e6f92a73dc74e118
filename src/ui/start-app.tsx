import { StrictMode, startTransition } from "react";
import type { createRoot as CreateRoot } from "react-dom/client";
import { App } from "./App";
import { preloadChunksWhenIdle } from "./preload-chunks";

/**
 * The first render, once start-up is done. As a transition: React renders it in slices that yield
 * to the page, not in one long task (with a chat open it is the app, the chat and its visible
 * messages at once).
 */
export function startApp(createRoot: typeof CreateRoot): void {
  const root = createRoot(document.getElementById("root") as HTMLElement);
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
  preloadChunksWhenIdle();
}
