import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { boot } from "./state/boot";
import { App } from "./ui/App";
import { preloadMarkdown } from "./ui/markdown/LazyMarkdown";
import { preloadChunksWhenIdle } from "./ui/preload-chunks";
import "./ui/app.css";
import { applyTheme, watchTheme } from "./ui/theme";

applyTheme();
watchTheme();

// Fetched while the database opens, so messages rarely show as plain text first.
void preloadMarkdown();
const root = createRoot(document.getElementById("root") as HTMLElement);
// The first render as a transition: React renders it in slices that yield to the page, not in
// one long task (with a chat open it is the app, the chat and its visible messages at once).
void boot().then(() => {
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
  preloadChunksWhenIdle();
});
