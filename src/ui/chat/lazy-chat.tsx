import { type ComponentProps, lazy } from "react";
import type { SessionId } from "../../core/session/ids";
import { useMaintenanceStore } from "../../state/maintenance/maintenance-store";
import { usePromotionStore } from "../../state/maintenance/promotion-notice";
import { useQueueStore } from "../../state/send/queue-store";
import { LazyPart } from "../common/LazyPart";
import type { SessionView } from "../hooks";
import type { AttachmentTray as AttachmentTrayImpl } from "./AttachmentTray";
import type { DraftFailed as DraftFailedImpl } from "./DraftFailed";
import { endNotice } from "./end-notice";
import type { ModelSettingsDialog as ModelSettingsImpl } from "./ModelSettingsDialog";
import type { RowFailed as RowFailedImpl } from "./RowFailed";
import type { SessionPromptDialog as SessionPromptImpl } from "./SessionPromptDialog";

/**
 * Parts of the chat screen that are not needed to paint it, as chunks of their own: the first-run
 * card (shown only until a key is set), the model options and chat prompt dialogs (opened by a
 * click), what stands in for a row or a composer whose rendering threw (RenderBoundary's
 * fallbacks), and the lines that say what just happened or is happening (the end notice, a
 * context promotion, automatic maintenance and a queued message), and the composer's attachment
 * tray. Each loads when first rendered, its stand-in reading only whether there is something to
 * show; `preloadChatParts` warms the dialogs, the maintenance bar and the tray once the first
 * screen is up, so a click, a send or a file rarely waits.
 * Same names and props as the components they stand for, unless said.
 */
const loadFirstRun = () => import("./FirstRunCard");
const loadModelSettings = () => import("./ModelSettingsDialog");
const loadSessionPrompt = () => import("./SessionPromptDialog");
const loadMaintenanceBar = () => import("./MaintenanceBar");
const loadAttachmentTray = () => import("./AttachmentTray");

const FirstRunImpl = lazy(() => loadFirstRun().then((m) => ({ default: m.FirstRunCard })));
const ModelSettings = lazy(() => loadModelSettings().then((m) => ({ default: m.ModelSettingsDialog })));
const SessionPrompt = lazy(() => loadSessionPrompt().then((m) => ({ default: m.SessionPromptDialog })));
const RowFailedPart = lazy(() => import("./RowFailed").then((m) => ({ default: m.RowFailed })));
const DraftFailedPart = lazy(() => import("./DraftFailed").then((m) => ({ default: m.DraftFailed })));
const EndNoticePart = lazy(() => import("./EndNotice").then((m) => ({ default: m.EndNotice })));
const PromotionPart = lazy(() => import("./PromotionNotice").then((m) => ({ default: m.PromotionNotice })));
const MaintenancePart = lazy(() => loadMaintenanceBar().then((m) => ({ default: m.MaintenanceBar })));
const AttachmentTrayPart = lazy(() => loadAttachmentTray().then((m) => ({ default: m.AttachmentTray })));

export function preloadChatParts(): void {
  for (const load of [loadModelSettings, loadSessionPrompt, loadMaintenanceBar, loadAttachmentTray])
    void load().catch(() => {});
}

export function FirstRunCard() {
  return (
    <LazyPart>
      <FirstRunImpl />
    </LazyPart>
  );
}

export function ModelSettingsDialog(props: ComponentProps<typeof ModelSettingsImpl>) {
  return (
    <LazyPart>
      <ModelSettings {...props} />
    </LazyPart>
  );
}

export function SessionPromptDialog(props: ComponentProps<typeof SessionPromptImpl>) {
  return (
    <LazyPart>
      <SessionPrompt {...props} />
    </LazyPart>
  );
}

export function RowFailed(props: ComponentProps<typeof RowFailedImpl>) {
  return (
    <LazyPart>
      <RowFailedPart {...props} />
    </LazyPart>
  );
}

export function DraftFailed(props: ComponentProps<typeof DraftFailedImpl>) {
  return (
    <LazyPart>
      <DraftFailedPart {...props} />
    </LazyPart>
  );
}

/** The line at the end of the chat naming what just happened (EndNotice.tsx), once the tree is read. */
export function EndNotice({ view }: { view: SessionView }) {
  // Whether anything hangs below the leaf is known once the whole tree is read.
  const notice = view.complete ? endNotice(view.session, view.index) : null;
  return notice ? (
    <LazyPart>
      <EndNoticePart notice={notice} />
    </LazyPart>
  ) : null;
}

export function PromotionNotice({ sessionId }: { sessionId: SessionId }) {
  const promoted = usePromotionStore((s) => s.bySession[sessionId] !== undefined);
  return promoted ? (
    <LazyPart>
      <PromotionPart sessionId={sessionId} />
    </LazyPart>
  ) : null;
}

export function MaintenanceBar({ sessionId }: { sessionId: SessionId | null }) {
  const running = useMaintenanceStore((s) => s.op !== null && s.op.sessionId === sessionId && s.op.automatic);
  const queued = useQueueStore((s) => sessionId !== null && s.queued[sessionId] !== undefined);
  return sessionId && (running || queued) ? (
    <LazyPart>
      <MaintenancePart sessionId={sessionId} />
    </LazyPart>
  ) : null;
}

export function AttachmentTray(props: ComponentProps<typeof AttachmentTrayImpl>) {
  if (props.attachments.length === 0 && props.pending === 0 && !props.problem) return null;
  return (
    <LazyPart>
      <AttachmentTrayPart {...props} />
    </LazyPart>
  );
}
