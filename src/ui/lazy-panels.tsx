import { type ComponentProps, lazy } from "react";
import { LazyPart } from "./common/LazyPart";
import type { HistoryGraph as GraphPanel } from "./graph/HistoryGraph";

/**
 * The graph side panel and the Settings dialog are chunks of their own, loaded when first opened:
 * neither is on the first screen, and together with the Markdown pipeline they were most of the
 * entry chunk. Same names and props as the components they stand for.
 */
const GraphImpl = lazy(() => import("./graph/HistoryGraph").then((m) => ({ default: m.HistoryGraph })));
const SettingsImpl = lazy(() => import("./settings/SettingsDialog").then((m) => ({ default: m.SettingsDialog })));

export function HistoryGraph(props: ComponentProps<typeof GraphPanel>) {
  return (
    <LazyPart>
      <GraphImpl {...props} />
    </LazyPart>
  );
}

export function SettingsDialog() {
  return (
    <LazyPart>
      <SettingsImpl />
    </LazyPart>
  );
}
