import { useEffect, useState } from "react";
import { firstScreenShown, openSettled } from "../state/app/first-screen";
import { useUiStore } from "../state/app/ui-store";
import { ChatView } from "./chat/ChatView";
import { useRememberedFontStrikes } from "./font-warmup";
import { useSessionView } from "./hooks";
import { ImportDialog, SwitchBranchDialog } from "./lazy-dialogs";
import { HistoryGraph, SettingsDialog } from "./lazy-panels";
import { Notices } from "./lazy-reports";
import { CommandPalette } from "./palette/CommandPaletteKeys";
import { SkipLink } from "./SkipLink";
import { DropToImport } from "./sessions/DropToImport";
import { SessionSidebar } from "./sessions/SessionSidebar";

export function App() {
  const sessionId = useUiStore((s) => s.sessionId);
  const settingsOpen = useUiStore((s) => s.settingsOpen);
  const graphOpen = useUiStore((s) => s.graphOpen);
  // One live read of the open session, shared by the chat and the graph (each running its own
  // query read and indexed a 10,000-entry session twice on every change).
  const view = useSessionView(sessionId);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // What this screen's text looks like, for the next fresh tab to look its fonts up early.
  useRememberedFontStrikes(`${sessionId}:${view.complete}`);
  // The chat's first read is on screen (or no chat is open): background work may start once idle.
  const firstScreen = sessionId === null || view.loaded;
  useEffect(() => {
    if (firstScreen) firstScreenShown();
  }, [firstScreen]);
  // The whole path is in: the heaviest background work (the search worker) may start.
  const settled = sessionId === null || view.complete;
  useEffect(() => {
    if (settled) openSettled();
  }, [settled]);
  return (
    <div className={`app ${drawerOpen ? "drawer-open" : ""}${graphOpen ? " graph-open" : ""}`}>
      <SkipLink />
      <SessionSidebar currentId={sessionId} onNavigate={() => setDrawerOpen(false)} />
      <button
        type="button"
        className="drawer-scrim"
        aria-label="Close sessions"
        tabIndex={-1}
        onClick={() => setDrawerOpen(false)}
      />
      <main className="main">
        <ChatView sessionId={sessionId} view={view} onToggleSessions={() => setDrawerOpen((o) => !o)} />
      </main>
      {graphOpen && <HistoryGraph view={view} />}
      {settingsOpen && <SettingsDialog />}
      <SwitchBranchDialog />
      <ImportDialog />
      <DropToImport />
      <CommandPalette view={view} onShowSessions={() => setDrawerOpen(true)} />
      <Notices />
    </div>
  );
}
