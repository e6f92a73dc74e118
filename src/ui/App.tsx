import { useState } from "react";
import { useUiStore } from "../state/stores";
import { ChatView } from "./chat/ChatView";
import { SwitchBranchDialog } from "./chat/SwitchBranchDialog";
import { Notices } from "./common/Notices";
import { HistoryGraph } from "./graph/HistoryGraph";
import { DropToImport } from "./sessions/DropToImport";
import { ImportDialog } from "./sessions/ImportDialog";
import { SessionSidebar } from "./sessions/SessionSidebar";
import { SettingsDialog } from "./settings/SettingsDialog";

export function App() {
  const sessionId = useUiStore((s) => s.sessionId);
  const settingsOpen = useUiStore((s) => s.settingsOpen);
  const graphOpen = useUiStore((s) => s.graphOpen);
  const [drawerOpen, setDrawerOpen] = useState(false);
  return (
    <div className={`app ${drawerOpen ? "drawer-open" : ""}${graphOpen ? " graph-open" : ""}`}>
      <SessionSidebar currentId={sessionId} onNavigate={() => setDrawerOpen(false)} />
      <button
        type="button"
        className="drawer-scrim"
        aria-label="Close sessions"
        tabIndex={-1}
        onClick={() => setDrawerOpen(false)}
      />
      <main className="main">
        <ChatView sessionId={sessionId} onToggleSessions={() => setDrawerOpen((o) => !o)} />
      </main>
      {graphOpen && <HistoryGraph />}
      {settingsOpen && <SettingsDialog />}
      <SwitchBranchDialog />
      <ImportDialog />
      <DropToImport />
      <Notices />
    </div>
  );
}
