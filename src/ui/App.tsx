import { useState } from "react";
import { useUiStore } from "../state/stores";
import { ChatView } from "./chat/ChatView";
import { SwitchBranchDialog } from "./chat/SwitchBranchDialog";
import { Notices } from "./common/Notices";
import { HistoryGraph } from "./graph/HistoryGraph";
import { useSessionView } from "./hooks";
import { CommandPalette } from "./palette/CommandPalette";
import { SkipLink } from "./SkipLink";
import { DropToImport } from "./sessions/DropToImport";
import { ImportDialog } from "./sessions/ImportDialog";
import { SessionSidebar } from "./sessions/SessionSidebar";
import { SettingsDialog } from "./settings/SettingsDialog";

export function App() {
  const sessionId = useUiStore((s) => s.sessionId);
  const settingsOpen = useUiStore((s) => s.settingsOpen);
  const graphOpen = useUiStore((s) => s.graphOpen);
  // One live read of the open session, shared by the chat and the graph (each running its own
  // query read and indexed a 10,000-entry session twice on every change).
  const view = useSessionView(sessionId);
  const [drawerOpen, setDrawerOpen] = useState(false);
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
