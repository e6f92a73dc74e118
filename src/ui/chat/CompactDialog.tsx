import { useState } from "react";
import { keepRecentTokensFor } from "../../core/compaction/settings";
import { estimateCompaction } from "../../core/cost/compaction-estimate";
import { formatUsd, priceOf } from "../../core/cost/cost";
import type { Session } from "../../core/session/entries";
import { resolveModel } from "../../core/tokens/models";
import { keptReading, meterKeyFor } from "../../state/context/meter-readings";
import { closeCompactDialog, runCompactDialog, useCompactDialog } from "../../state/dialogs/compact-dialog";
import { useMaintenanceStore } from "../../state/maintenance/maintenance-store";
import { contextLimits } from "../../state/models/chat-target";
import { useSettingsStore } from "../../state/settings/settings-store";
import { Dialog } from "../common/Dialog";
import { ProgressBlock } from "../common/ProgressBlock";
import { SubmitTextarea } from "../common/SubmitTextarea";
import { formatTokens, progressText } from "./maintenance-text";

/**
 * "Compact conversation": optional instructions, then the run (phase and the summary streaming
 * in, Cancel aborts and writes nothing), then either closes (the card appears in the chat) or
 * explains why there was nothing to do.
 */
export function CompactDialog({ session }: { session: Session | undefined }) {
  const target = useCompactDialog((s) => s.target);
  const phase = useCompactDialog((s) => s.phase);
  if (!target) return null;
  return (
    <Dialog title="Compact conversation" onClose={closeCompactDialog} closeOnBackdrop={phase === "form"}>
      {phase === "form" ? (
        <CompactForm session={session} />
      ) : phase === "running" ? (
        <CompactProgress />
      ) : (
        <CompactOutcome />
      )}
    </Dialog>
  );
}

function CompactForm({ session }: { session: Session | undefined }) {
  const target = useCompactDialog((s) => s.target);
  const previous = useCompactDialog((s) => s.instructions);
  const [instructions, setInstructions] = useState(previous);
  const settings = useSettingsStore((s) => s.settings);
  const ref = session?.model ?? settings.defaultModel;
  const keep = keepRecentTokensFor(
    resolveModel(ref.modelId, settings.modelOverrides).info.contextWindow,
    settings.compaction,
  );
  const summaryRef = settings.summaryModel ?? ref;
  // Honest before acting (issue 27): when the whole context fits in what is kept word for word, say
  // so before any instructions are typed (they would be thrown away). By the meter's kept count.
  const counted = useCountedTokens(session);
  const nothing = !target?.upToEntryId && counted !== undefined && counted <= keep;
  const submit = () => {
    if (!nothing) void runCompactDialog(instructions);
  };
  if (nothing) {
    return (
      <div className="compact-form">
        <p className="small" role="status">
          Nothing to compact yet ({formatTokens(counted)} tokens; the last {keep.toLocaleString()} stay word for word).
        </p>
        <div className="dialog-actions">
          <button type="button" className="primary" onClick={closeCompactDialog}>
            Close
          </button>
        </div>
      </div>
    );
  }
  return (
    <form
      className="compact-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {target?.upToEntryId ? (
        <p className="small">
          Everything up to and including <q>{target.upToSnippet}</q> is summarized; the messages after it stay word for
          word.
        </p>
      ) : (
        <p className="small">
          The earlier part of this chat is replaced, for the model, by a summary. The most recent messages (about{" "}
          {keep.toLocaleString()} tokens) stay word for word, and so do your own earlier messages where they fit.
        </p>
      )}
      <p className="small muted">
        Nothing is deleted: the full history stays readable here, dimmed where the model no longer sees it.
      </p>
      {counted !== undefined && (
        <CostEstimate
          contextTokens={counted}
          keepTokens={target?.upToEntryId ? 0 : keep}
          chatModel={ref.modelId}
          summaryModel={summaryRef.modelId}
        />
      )}
      <SubmitTextarea
        label="Instructions (optional)"
        rows={3}
        value={instructions}
        placeholder="e.g. Keep every decision about the database schema; drop the debugging detours."
        onChange={setInstructions}
        onSubmit={submit}
      />
      <div className="dialog-actions">
        <button type="button" onClick={closeCompactDialog}>
          Cancel
        </button>
        <button type="submit" className="primary">
          Compact now
        </button>
      </div>
    </form>
  );
}

/** The estimated cost of the summarizer call and of the next request before and after (core/cost/compaction-estimate.ts). */
function CostEstimate(props: { contextTokens: number; keepTokens: number; chatModel: string; summaryModel: string }) {
  const settings = useSettingsStore((s) => s.settings);
  const summarizer = resolveModel(props.summaryModel, settings.modelOverrides).info;
  const e = estimateCompaction({
    contextTokens: props.contextTokens,
    keepTokens: props.keepTokens,
    reserveTokens: settings.compaction.reserveTokens,
    summarizerWindow: summarizer.contextWindow,
    summarizerMaxOutput: summarizer.maxOutput,
    summarizerPrice: priceOf(props.summaryModel),
    chatPrice: priceOf(props.chatModel),
  });
  const money = (usd: number | null) => (usd === null ? "no price known" : `≈ ${formatUsd(usd)}`);
  return (
    <section className="compact-estimate small" aria-label="Estimated cost">
      <p>
        Summary by <strong>{props.summaryModel}</strong>: about {formatTokens(e.summarizer.input)} tokens in, up to{" "}
        {formatTokens(e.summarizer.output)} out — {money(e.summarizer.usd)}.
      </p>
      <p>
        Next request to <strong>{props.chatModel}</strong>: {formatTokens(e.next.before)} tokens (
        {money(e.next.usdBefore)}) now, about {formatTokens(e.next.after)} ({money(e.next.usdAfter)}) after.
      </p>
    </section>
  );
}

/** The meter's kept count of the chat's context (state/context/meter-readings.ts), if there is one. */
function useCountedTokens(session: Session | undefined): number | undefined {
  const settings = useSettingsStore((s) => s.settings);
  const { target } = contextLimits(session, settings);
  const key = target ? meterKeyFor(session, target, settings) : null;
  return key ? keptReading(key)?.tokens : undefined;
}

function CompactProgress() {
  const sessionId = useCompactDialog((s) => s.target?.sessionId);
  const op = useMaintenanceStore((s) => (s.op && s.op.sessionId === sessionId && !s.op.automatic ? s.op : null));
  return (
    <ProgressBlock
      status={op ? progressText(op) : "Preparing…"}
      text={op?.text ?? ""}
      textLabel="Summary so far"
      emptyText="The summary appears here as it is written."
      cancelNote="Cancel stops the request; nothing is saved."
      onCancel={closeCompactDialog}
    />
  );
}

function CompactOutcome() {
  const result = useCompactDialog((s) => s.result);
  const instructions = useCompactDialog((s) => s.instructions);
  if (!result) return null;
  let title: string;
  let body: string;
  switch (result.kind) {
    case "nothing_to_compact":
      title = "Nothing to compact";
      body = result.reason.replace(/^Nothing to compact:\s*/i, "").replace(/^./, (c) => c.toUpperCase());
      break;
    case "already_compacted":
      title = "Already compacted";
      body =
        "The last entry of this chat is a compaction, so there is nothing new to fold. Send a message first; the next compaction will update this summary.";
      break;
    case "busy":
      title = "Busy";
      body = "A reply or another compaction is running in this chat. Try again when it has finished.";
      break;
    case "stale":
      title = "The chat moved on";
      body =
        "New messages arrived while the summary was being written, so nothing was saved. Compact again to include them.";
      break;
    case "failed":
      title = "Compaction failed";
      body = result.message;
      break;
    default: {
      const never: never = result;
      return String(never);
    }
  }
  const failed = result.kind === "failed" || result.kind === "busy";
  return (
    <div className="compact-outcome">
      <div className={failed ? "outcome error-box" : "outcome info-box"} role={failed ? "alert" : "status"}>
        <strong>{title}</strong>
        <span>{body}</span>
      </div>
      <div className="dialog-actions">
        {failed && (
          <button type="button" onClick={() => void runCompactDialog(instructions)}>
            Try again
          </button>
        )}
        <button type="button" className="primary" onClick={closeCompactDialog}>
          OK
        </button>
      </div>
    </div>
  );
}
