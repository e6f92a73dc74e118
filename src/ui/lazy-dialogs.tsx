import { type ComponentProps, lazy } from "react";
import { useCompactDialog } from "../state/dialogs/compact-dialog";
import { useHandoffDialog } from "../state/dialogs/handoff-dialog";
import { useSwitchDialog } from "../state/dialogs/switch-dialog";
import { useImportStore } from "../state/transfer/import-store";
import type { CompactDialog as CompactImpl } from "./chat/CompactDialog";
import { LazyPart } from "./common/LazyPart";

/**
 * The dialogs that open on demand (compact, handoff, switch branch, import) as chunks of their
 * own, fetched the first time one opens: the entry chunk stays small. Each stand-in reads only its
 * dialog's "open" state, same names and props as the components they stand for.
 */
const Compact = lazy(() => import("./chat/CompactDialog").then((m) => ({ default: m.CompactDialog })));
const Handoff = lazy(() => import("./chat/HandoffDialog").then((m) => ({ default: m.HandoffDialog })));
const Switch = lazy(() => import("./chat/SwitchBranchDialog").then((m) => ({ default: m.SwitchBranchDialog })));
const Import = lazy(() => import("./sessions/ImportDialog").then((m) => ({ default: m.ImportDialog })));

export function CompactDialog(props: ComponentProps<typeof CompactImpl>) {
  const open = useCompactDialog((s) => s.target !== null);
  return open ? (
    <LazyPart>
      <Compact {...props} />
    </LazyPart>
  ) : null;
}

export function HandoffDialog() {
  const open = useHandoffDialog((s) => s.sessionId !== null);
  return open ? (
    <LazyPart>
      <Handoff />
    </LazyPart>
  ) : null;
}

export function SwitchBranchDialog() {
  const open = useSwitchDialog((s) => s.target !== null);
  return open ? (
    <LazyPart>
      <Switch />
    </LazyPart>
  ) : null;
}

export function ImportDialog() {
  const open = useImportStore((s) => s.phase !== "idle");
  return open ? (
    <LazyPart>
      <Import />
    </LazyPart>
  ) : null;
}
