import { useEffect, useMemo, useState } from "react";
import { thresholdFor } from "../../core/compaction/settings";
import { contextUsage } from "../../core/session/context-usage";
import type { Entry } from "../../core/session/entries";
import { estimateTokens } from "../../core/tokens/estimate";
import { resolveModel } from "../../core/tokens/models";
import { type ChatTarget, chatTarget, isTargetError } from "../../state/actions/chat-target";
import { METER_COUNT_WAIT_MS } from "../../state/actions/exact-count";
import { type Measured as Measure, measureContext } from "../../state/actions/measure";
import { openCompactDialog } from "../../state/dialogs/compact-dialog";
import { findProvider } from "../../state/settings-model";
import { useMaintenanceStore, useSettingsStore } from "../../state/stores";
import type { SessionView } from "../hooks";
import { formatTokens } from "./maintenance-text";

/** Recounts wait this long after the last change (ms): a burst of changes costs one worker count. */
export const MEASURE_DEBOUNCE_MS = 250;

type Measured = { path: readonly Entry[]; target: ChatTarget } & Measure;

/**
 * The context's size with the real tokenizer (in the worker, calibrated for Claude), for the
 * path and target it was asked for; null until that answer is in (the caller shows the estimate).
 */
function useMeasuredContext(path: readonly Entry[], target: ChatTarget | null): Measured | null {
  const [measured, setMeasured] = useState<Measured | null>(null);
  useEffect(() => {
    if (!target) return;
    let live = true;
    const timer = setTimeout(() => {
      measureContext(path, target, METER_COUNT_WAIT_MS)
        .then((m) => {
          if (live) setMeasured({ path, target, ...m });
        })
        .catch(() => {
          // The estimate stays on screen: a count that failed is not worth an error.
        });
    }, MEASURE_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [path, target]);
  return measured && measured.path === path && measured.target === target ? measured : null;
}

/**
 * Tokens in context against the model's window, through the one metric (DESIGN §3): the estimate
 * at once, then the count: Anthropic's count of the exact request for Claude when it can be had, else
 * the worker's ("≈" whenever it is an estimate, the calibrated Claude estimate included). The
 * automatic-compaction threshold is marked on the bar and is the meter's `high`.
 */
export function ContextMeter({ view }: { view: SessionView }) {
  const settings = useSettingsStore((s) => s.settings);
  const sessionId = view.session?.id;
  const paused = useMaintenanceStore((s) => (sessionId ? s.paused[sessionId] : undefined));
  const ref = view.session?.model ?? settings.defaultModel;
  const api = findProvider(settings, ref.providerId)?.api ?? "openai-chat";
  const target = useMemo(() => {
    const t = chatTarget(view.session, settings);
    return isTargetError(t) ? null : t;
  }, [view.session, settings]);
  const model = target?.model ?? resolveModel(ref.modelId, settings.modelOverrides, api);
  const systemPrompt = view.session?.systemPrompt ?? settings.systemPrompt;
  const estimate = useMemo(
    () => contextUsage(view.path, { systemPrompt, targetApi: api }, estimateTokens),
    [view.path, systemPrompt, api],
  );
  const measured = useMeasuredContext(view.path, target);

  const tokens = measured?.tokens ?? estimate.tokens;
  const exact = measured?.exact ?? false;
  const byAnthropic = measured?.countedBy === "anthropic";
  const window = model.info.contextWindow;
  const auto = settings.compaction.enabled;
  const threshold = Math.min(window, thresholdFor(window, settings.compaction));
  const high = auto ? threshold : window * 0.85;
  const label = `${exact ? "" : "≈"}${formatTokens(tokens)} / ${formatTokens(window)}`;
  const pct = (n: number) => `${Math.round((n / window) * 100)}%`;
  const title = [
    byAnthropic ? "Counted by Anthropic." : exact ? "" : "Estimated.",
    `${tokens.toLocaleString()} tokens in context (${
      byAnthropic
        ? "the exact request"
        : exact
          ? "counted"
          : measured?.calibrated
            ? "estimated, calibrated by the provider's reported usage"
            : measured
              ? "estimated until calibrated by the provider's usage"
              : "estimated"
    }) of a ${window.toLocaleString()}-token window (${pct(tokens)}).`,
    auto
      ? `Automatic compaction at ${threshold.toLocaleString()} tokens (${pct(threshold)}).`
      : "Automatic compaction is off.",
    model.known ? "" : `Unknown model: ${formatTokens(window)} window assumed. Set it in Settings.`,
  ]
    .filter(Boolean)
    .join(" ");

  return (
    <div className="meter" title={title}>
      <meter
        aria-label="Context usage"
        aria-description={title}
        min={0}
        max={window}
        value={Math.min(tokens, window)}
        low={high * 0.75}
        high={high}
        optimum={0}
      />
      {auto && (
        <span
          className="meter-tick"
          data-testid="compaction-threshold"
          aria-hidden="true"
          style={{ left: `calc(${Math.min(1, threshold / window)} * var(--meter-width))` }}
        />
      )}
      <span className="meter-text">
        {label}
        {!model.known && (
          <span className="badge warn" title="Unknown model: 128k window assumed">
            {" "}
            assumed
          </span>
        )}
      </span>
      {paused && sessionId && (
        <button
          type="button"
          className="badge warn paused-badge"
          title={paused}
          onClick={() => openCompactDialog(sessionId)}
        >
          Auto-compaction paused
          <span className="sr-only">: {paused}</span>
        </button>
      )}
    </div>
  );
}
