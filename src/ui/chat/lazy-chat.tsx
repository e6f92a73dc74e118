import { type ComponentProps, lazy } from "react";
import { LazyPart } from "../common/LazyPart";
import type { DraftFailed as DraftFailedImpl } from "./DraftFailed";
import type { ModelSettingsDialog as ModelSettingsImpl } from "./ModelSettingsDialog";
import type { RowFailed as RowFailedImpl } from "./RowFailed";
import type { SessionPromptDialog as SessionPromptImpl } from "./SessionPromptDialog";

/**
 * Parts of the chat screen that are not needed to paint it, as chunks of their own: the first-run
 * card (shown only until a key is set), the model options and chat prompt dialogs (opened by a
 * click), and what stands in for a row or a composer whose rendering threw (RenderBoundary's
 * fallbacks). Each loads when first rendered; `preloadChatParts` warms the dialogs once the first
 * screen is up, so a click rarely waits. Same names and props as the components they stand for.
 */
const loadFirstRun = () => import("./FirstRunCard");
const loadModelSettings = () => import("./ModelSettingsDialog");
const loadSessionPrompt = () => import("./SessionPromptDialog");

const FirstRunImpl = lazy(() => loadFirstRun().then((m) => ({ default: m.FirstRunCard })));
const ModelSettings = lazy(() => loadModelSettings().then((m) => ({ default: m.ModelSettingsDialog })));
const SessionPrompt = lazy(() => loadSessionPrompt().then((m) => ({ default: m.SessionPromptDialog })));
const RowFailedPart = lazy(() => import("./RowFailed").then((m) => ({ default: m.RowFailed })));
const DraftFailedPart = lazy(() => import("./DraftFailed").then((m) => ({ default: m.DraftFailed })));

export function preloadChatParts(): void {
  for (const load of [loadModelSettings, loadSessionPrompt]) void load().catch(() => {});
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
