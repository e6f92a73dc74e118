import { importableApps } from "../../core/export/importable-formats";
import type { SessionId } from "../../core/session/ids";
import { useStreamStore } from "../../state/reply/stream-store";
import { useSettingsStore } from "../../state/settings/settings-store";
import { RenderBoundary } from "../common/RenderBoundary";
import type { SessionView } from "../hooks";
import { CompactDialog, HandoffDialog } from "../lazy-dialogs";
import { ImportReport } from "../lazy-reports";
import { BranchPoint } from "./BranchPoint";
import { ChatHeader } from "./ChatHeader";
import { Composer } from "./Composer";
import { needsFirstRun } from "./first-run";
import { DraftFailed, EndNotice, FirstRunCard, MaintenanceBar, PromotionNotice } from "./lazy-chat";
import { PassagePinButton } from "./lazy-pins";
import { ApprovalDialog, ToolLoopContinue } from "./lazy-tools";
import { MessageList } from "./MessageList";
import { NewChatSetup } from "./NewChatSetup";
import { usePendingSendView } from "./pending-send-view";
import { SessionLinks } from "./SessionLinks";
import { usePassageSelection } from "./use-passage-selection";

/** "Keep word for word" over text selected in a message; its own component, so a selection re-renders only it. */
function SelectionPin({ view }: { view: SessionView }) {
  const selection = usePassageSelection();
  return selection && view.session ? <PassagePinButton selection={selection} view={view} /> : null;
}

export function ChatView({
  sessionId,
  view: live,
  onToggleSessions,
}: {
  sessionId: SessionId | null;
  /** The open session, read once in App and shared with the graph. */
  view: SessionView;
  onToggleSessions: () => void;
}) {
  // The message just sent shows at once, before it is stored and read back.
  const view = usePendingSendView(sessionId, live);
  const settings = useSettingsStore((s) => s.settings);
  const replying = useStreamStore((s) => (sessionId ? sessionId in s.replies : false));
  const missing = sessionId !== null && view.loaded && !view.session;

  return (
    <div className="chat">
      <ChatHeader view={view} onToggleSessions={onToggleSessions} />
      {!missing && <SessionLinks session={view.session} />}
      {missing ? (
        <div className="empty-state">
          <h1>Chat not found</h1>
          <p className="muted">It may have been deleted in another tab. Start a new chat or pick one from the list.</p>
        </div>
      ) : sessionId !== null && !view.loaded ? (
        // A chat being read: not the new-chat screen for a moment (it flashed on every open).
        <div className="message-scroll" aria-busy="true" />
      ) : view.path.length === 0 && !replying ? (
        <div className="empty-state">
          <h1>What are we exploring?</h1>
          <p className="muted">
            Every message can branch. Nothing leaves this browser except the calls to the provider you choose.
          </p>
          {sessionId === null && needsFirstRun(settings) && <FirstRunCard />}
          {sessionId === null && <NewChatSetup />}
          {sessionId === null && (
            <p className="muted small">
              Have history elsewhere? Import an export from {importableApps()} with Import in the sessions list, or drop
              the file here.
            </p>
          )}
        </div>
      ) : (
        <MessageList view={view} sessionId={sessionId} />
      )}
      {!missing && <SelectionPin view={view} />}
      {!missing && <EndNotice view={view} />}
      {!replying && !missing && <BranchPoint view={view} />}
      {!replying && sessionId && <ToolLoopContinue sessionId={sessionId} path={view.path} />}
      {sessionId && <PromotionNotice sessionId={sessionId} />}
      <MaintenanceBar sessionId={sessionId} />
      <ImportReport />
      {/* Room for the notices (common/Notices.tsx), so they never cover a message. */}
      <div className="notice-room" aria-hidden="true" />
      <RenderBoundary
        resetKey={sessionId}
        fallback={(error, retry) => <DraftFailed sessionId={sessionId} error={error} onDiscarded={retry} />}
      >
        <Composer sessionId={sessionId} session={view.session} leafId={view.session?.leafId} />
      </RenderBoundary>
      <CompactDialog session={view.session} />
      <HandoffDialog />
      <ApprovalDialog />
    </div>
  );
}
