import { lazy } from "react";
import { useUiStore } from "../state/app/ui-store";
import { useImportReportStore } from "../state/transfer/import-store";
import { LazyPart } from "./common/LazyPart";

/**
 * What the app reports after something happened, as chunks of their own: the notices (an action's
 * failure or info) and the last import's report. The first screen has neither, so neither is in its
 * code; each stand-in reads only whether there is something to show. `preloadReports` fetches the
 * notices once the first screen is up, so a first failure rarely waits for the network. Same names
 * as the components they stand for.
 */
const loadNotices = () => import("./common/Notices");

const NoticesImpl = lazy(() => loadNotices().then((m) => ({ default: m.Notices })));
const ImportReportImpl = lazy(() => import("./sessions/ImportReport").then((m) => ({ default: m.ImportReport })));

export function preloadReports(): void {
  void loadNotices().catch(() => {});
}

export function Notices() {
  const any = useUiStore((s) => s.notices.length > 0);
  return any ? (
    <LazyPart>
      <NoticesImpl />
    </LazyPart>
  ) : null;
}

export function ImportReport() {
  const any = useImportReportStore((s) => s.report !== null);
  return any ? (
    <LazyPart>
      <ImportReportImpl />
    </LazyPart>
  ) : null;
}
