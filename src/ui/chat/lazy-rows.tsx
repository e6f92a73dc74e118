import { type ComponentProps, lazy } from "react";
import { LazyPart } from "../common/LazyPart";
import type { SettingMarker as SettingMarkerImpl } from "./AgentEntryViews";
import type { CompactionRow as CompactionRowImpl } from "./CompactionRow";
import type { BranchSummaryCard as BranchSummaryImpl, HandoffCard as HandoffImpl } from "./SummaryCards";

/**
 * The chat's rarer rows as chunks of their own, so a plain conversation pays nothing for them on its
 * first screen: compaction cards (with Undo), branch-summary and handoff cards, and the rows of
 * imported agent sessions (model changes, context notes, commands). Each loads with the first row of
 * its kind; `preloadRowParts` warms them once the first screen is up, so a chat opened later finds
 * them loaded. Same names and props as the components they stand for.
 */
const loadCompaction = () => import("./CompactionRow");
const loadSummaries = () => import("./SummaryCards");
const loadAgentRows = () => import("./AgentEntryViews");

const Compaction = lazy(() => loadCompaction().then((m) => ({ default: m.CompactionRow })));
const BranchSummary = lazy(() => loadSummaries().then((m) => ({ default: m.BranchSummaryCard })));
const Handoff = lazy(() => loadSummaries().then((m) => ({ default: m.HandoffCard })));
const Setting = lazy(() => loadAgentRows().then((m) => ({ default: m.SettingMarker })));
const ContextNote = lazy(() => loadAgentRows().then((m) => ({ default: m.ContextNoteView })));
const Command = lazy(() => loadAgentRows().then((m) => ({ default: m.CommandBlock })));

export function preloadRowParts(): void {
  for (const load of [loadCompaction, loadSummaries, loadAgentRows]) void load().catch(() => {});
}

export function CompactionRow(props: ComponentProps<typeof CompactionRowImpl>) {
  return (
    <LazyPart>
      <Compaction {...props} />
    </LazyPart>
  );
}

export function BranchSummaryCard(props: ComponentProps<typeof BranchSummaryImpl>) {
  return (
    <LazyPart>
      <BranchSummary {...props} />
    </LazyPart>
  );
}

export function HandoffCard(props: ComponentProps<typeof HandoffImpl>) {
  return (
    <LazyPart>
      <Handoff {...props} />
    </LazyPart>
  );
}

export function SettingMarker(props: ComponentProps<typeof SettingMarkerImpl>) {
  return (
    <LazyPart>
      <Setting {...props} />
    </LazyPart>
  );
}

export function ContextNoteView(props: ComponentProps<typeof import("./AgentEntryViews").ContextNoteView>) {
  return (
    <LazyPart>
      <ContextNote {...props} />
    </LazyPart>
  );
}

export function CommandBlock(props: ComponentProps<typeof import("./AgentEntryViews").CommandBlock>) {
  return (
    <LazyPart>
      <Command {...props} />
    </LazyPart>
  );
}
