/**
 * "Switch here" (DESIGN §5): move the leaf to a target, optionally leaving a summary of the branch
 * being left. On a user message the new position is its parent and its text goes back into the
 * composer; otherwise the position is the target; the target being the leaf is nothing to do.
 *
 * With a summary (one operation of the maintenance runner, shared with compaction and handoff):
 * run the branch summarizer in the worker, then in ONE transaction append the `branch_summary` as a child
 * of the new position and move the leaf to it — only if the leaf is still the old leaf (a stale
 * result writes nothing). A failed or cancelled summary writes nothing and leaves the leaf where
 * it was. Without a summary the leaf just moves. Outcomes come back as a result, never a throw.
 */

import { planSwitch, type SwitchPlan } from "../../core/branch/collect";
import type { BranchSummaryEntry } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { buildTreeIndex } from "../../core/session/tree";
import { getSessionWithEntries, moveLeaf } from "../../db/entries";
import { setSetting } from "../../db/settings";
import type { BranchSummaryJob } from "../../worker/api";
import { branchSummaryInWorker } from "../../worker/client";
import { describeFailure } from "../app/describe-failure";
import { reportActionError } from "../app/report-error";
import { useUiStore } from "../app/ui-store";
import { summarizerSpec } from "../models/chat-target";
import type { SwitchSummaryDefault } from "../settings/settings-model";
import { useSettingsStore } from "../settings/settings-store";
import { useMaintenanceStore } from "./maintenance-store";
import { branchPromptsJob } from "./prompts-job";
import { type MaintenanceDeps, maintenanceDeps, runMaintenance } from "./runner";

/** What the user picked in the switch dialog (or the remembered default). */
export type SwitchChoice = { kind: "none" } | { kind: "summarize"; instructions?: string };

export type SwitchResult =
  /** The leaf moved to `leafId`: the new position, or the summary appended under it. */
  | {
      kind: "switched";
      leafId: EntryId | null;
      summary: BranchSummaryEntry | null;
      /** The target's text, put back into the composer (a user-message target). */
      composerText?: string;
    }
  /** The target is the current leaf. */
  | { kind: "nothing_to_do" }
  /** The session or the target does not exist. */
  | { kind: "not_found" }
  /** Another maintenance operation holds the lock, or a reply is streaming in this session. */
  | { kind: "busy" }
  | { kind: "cancelled" }
  /** The summary could not be written (message ready to show); nothing changed. */
  | { kind: "failed"; message: string }
  /** The conversation moved on while the summary was written: nothing was appended. */
  | { kind: "stale" };

export type SwitchPreview =
  | { kind: "nothing_to_do" }
  | { kind: "not_found" }
  | {
      kind: "switch";
      /** Whether the branch being left has anything to summarize: if not, no dialog is needed. */
      summarizable: boolean;
      /** Entries of the abandoned branch. */
      abandonedEntries: number;
      /** The target's text, which will go back into the composer. */
      composerText?: string;
      /** The remembered choice, or null: ask. */
      remembered: SwitchChoice | null;
    };

/** The runner's clock, worker (default the compaction worker) and db; tests override them. */
export type SwitchDeps = Partial<MaintenanceDeps>;

/** The choice remembered in Settings, or null when the dialog should ask. */
export function rememberedSwitchChoice(value: SwitchSummaryDefault = currentDefault()): SwitchChoice | null {
  switch (value) {
    case "ask":
      return null;
    case "none":
      return { kind: "none" };
    case "summarize":
      return { kind: "summarize" };
  }
}

function currentDefault(): SwitchSummaryDefault {
  return useSettingsStore.getState().settings.switchSummaryDefault;
}

/**
 * "Remember my choice": the dialog's choice becomes the default (Settings can change it back to
 * "ask"). Instructions are per switch and are not remembered: a remembered "Summarize" uses the
 * default prompt.
 */
export async function rememberSwitchChoice(choice: SwitchChoice | "ask"): Promise<void> {
  const value: SwitchSummaryDefault = choice === "ask" ? "ask" : choice.kind;
  useSettingsStore.setState((s) => ({ settings: { ...s.settings, switchSummaryDefault: value } }));
  try {
    await setSetting("switchSummaryDefault", value);
  } catch (e) {
    reportActionError("Settings could not be saved", e);
  }
}

async function readPlan(
  sessionId: SessionId,
  targetId: EntryId,
): Promise<{ plan: SwitchPlan; leafId: EntryId | null } | null> {
  // Branch switching genuinely needs the whole tree: session and entries from one transaction.
  const { session, entries } = await getSessionWithEntries(sessionId);
  if (!session) return null;
  return { plan: planSwitch(buildTreeIndex(entries), targetId, session.leafId), leafId: session.leafId };
}

/** What "Switch here" on `targetId` would do, for the dialog: whether to ask at all. */
export async function previewSwitch(sessionId: SessionId, targetId: EntryId): Promise<SwitchPreview> {
  const read = await readPlan(sessionId, targetId);
  if (!read) return { kind: "not_found" };
  const { plan } = read;
  if (plan.kind !== "switch") return plan;
  return {
    kind: "switch",
    summarizable: plan.summarizable,
    abandonedEntries: plan.abandoned.entries.length,
    ...(plan.composerText !== undefined ? { composerText: plan.composerText } : {}),
    remembered: rememberedSwitchChoice(),
  };
}

/** After a switch the composer is where the user goes next: with the target's text, or just focused. */
function seedComposer(sessionId: SessionId, text: string | undefined): void {
  if (useUiStore.getState().sessionId !== sessionId) return;
  if (text === undefined) useUiStore.setState((s) => ({ composerFocus: s.composerFocus + 1 }));
  else useUiStore.setState((s) => ({ composerSeed: { text, nonce: (s.composerSeed?.nonce ?? 0) + 1 } }));
}

/** Switch without a summary: the leaf just moves. */
async function moveOnly(sessionId: SessionId, plan: Extract<SwitchPlan, { kind: "switch" }>): Promise<SwitchResult> {
  await moveLeaf(sessionId, plan.position);
  seedComposer(sessionId, plan.composerText);
  return {
    kind: "switched",
    leafId: plan.position,
    summary: null,
    ...(plan.composerText !== undefined ? { composerText: plan.composerText } : {}),
  };
}

/**
 * Switch here on `targetId`, with or without a summary of the branch being left. A summary is
 * skipped when the branch has nothing to summarize.
 */
export async function switchHere(
  sessionId: SessionId,
  targetId: EntryId,
  choice: SwitchChoice,
  deps: SwitchDeps = {},
): Promise<SwitchResult> {
  if (choice.kind === "none") {
    // No LLM call, so no lock: only a maintenance operation on this very session is in the way
    // (its result would be computed for a leaf that is about to move).
    if (useMaintenanceStore.getState().op?.sessionId === sessionId) return { kind: "busy" };
    try {
      const read = await readPlan(sessionId, targetId);
      if (!read) return { kind: "not_found" };
      return read.plan.kind === "switch" ? await moveOnly(sessionId, read.plan) : read.plan;
    } catch (e) {
      return { kind: "failed", message: `Could not switch: ${describeFailure(e)}` };
    }
  }

  return runMaintenance(
    sessionId,
    { kind: "branch_summary", reason: "switch" },
    async (ctx): Promise<SwitchResult> => {
      const { session, entries, settings } = ctx;
      if (!session) return { kind: "not_found" };
      const oldLeaf = session.leafId;
      const plan = planSwitch(buildTreeIndex(entries), targetId, oldLeaf);
      if (plan.kind !== "switch") return plan;
      if (!plan.summarizable) return await moveOnly(sessionId, plan);
      const models = ctx.models();
      if ("kind" in models) return models;
      const { summarizer } = models;
      const job: BranchSummaryJob = {
        abandoned: plan.abandoned.entries,
        instructions: choice.instructions?.trim() || undefined,
        branchReserveTokens: settings.compaction.branchReserveTokens,
        encoding: summarizer.model.info.encoding,
        countScale: summarizer.calibration?.ratio ?? 1,
        summarizer: summarizerSpec(summarizer, settings),
        ...branchPromptsJob(settings.prompts),
      };
      const outcome = ctx.settle(
        await branchSummaryInWorker(
          job,
          ctx.call((p) =>
            p.phase === "preparing"
              ? ctx.progress({ phase: "preparing" })
              : ctx.progress({ phase: "summarizing" }, p.text),
          ),
        ),
      );
      if (outcome.kind === "nothing_to_summarize") return await moveOnly(sessionId, plan);
      if (outcome.kind !== "done") return outcome;
      const entry = await ctx.append(outcome.entry, { parentId: plan.position, ifLeafIs: oldLeaf });
      if (!entry) return { kind: "stale" };
      seedComposer(sessionId, plan.composerText);
      return {
        kind: "switched",
        leafId: entry.id,
        summary: entry,
        ...(plan.composerText !== undefined ? { composerText: plan.composerText } : {}),
      };
    },
    maintenanceDeps(deps),
  );
}

/**
 * The branch summary's "back to that branch": the leaf moves to `fromId` (the leaf the branch was
 * left at), so the conversation continues there. Errors become a notice.
 */
export async function returnToBranch(sessionId: SessionId, fromId: EntryId): Promise<void> {
  try {
    await moveLeaf(sessionId, fromId);
  } catch (e) {
    reportActionError("Could not go back to that branch", e);
  }
}
