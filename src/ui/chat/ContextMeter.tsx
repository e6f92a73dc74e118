import { useEffect, useMemo, useRef, useState } from "react";
import type { BuildContextOptions } from "../../core/session/build-context";
import { usesTools } from "../../core/session/chat-tools";
import { contextTokensSteps } from "../../core/session/context-tokens";
import type { Entry, Session } from "../../core/session/entries";
import { estimateTokens } from "../../core/tokens/estimate";
import {
  canImprove,
  chooseReading,
  isExact,
  type MeterReading,
  type MeterSource,
} from "../../core/tokens/meter-reading";
import { afterFirstScreen } from "../../state/app/first-screen";
import { runInSlices } from "../../state/app/run-in-slices";
import { useCalibrationStore } from "../../state/context/calibration-store";
import { countable, METER_COUNT_WAIT_MS } from "../../state/context/exact-count";
import { keepReading, keptReading, meterKeyFor, sourceOf } from "../../state/context/meter-readings";
import { openCompactDialog } from "../../state/dialogs/compact-dialog";
import { useMaintenanceStore } from "../../state/maintenance/maintenance-store";
import { type ChatTarget, contextLimits } from "../../state/models/chat-target";
import { useStreamStore } from "../../state/reply/stream-store";
import { useSettingsStore } from "../../state/settings/settings-store";
import { useMcpStore } from "../../state/tools/mcp-store";
import type { SessionView } from "../hooks";
import { formatTokens } from "./maintenance-text";
import { useChatCost } from "./use-chat-cost";

/** Recounts wait this long after the last change (ms): a burst of changes costs one worker count. */
const MEASURE_DEBOUNCE_MS = 250;

/**
 * The meter's reading for the open context (core/tokens/meter-reading.ts): the reading kept for it
 * (shown at once, on every visit), else the first measurement (the real tokenizer in the worker,
 * calibrated for Claude, or Anthropic's count of the exact request), kept from then on. Measures
 * only while a better source could still answer. Undefined until there is a reading.
 */
function useMeterReading(
  path: readonly Entry[],
  target: ChatTarget | null,
  key: string | null,
  /** The whole path is read: until then nothing is measured (a count of part of it would be kept). */
  complete: boolean,
): { reading: MeterReading | undefined; pending: boolean } {
  // The path whose measure finished (counted, or failed and left to the estimate).
  const [settled, setSettled] = useState<readonly Entry[] | null>(null);
  const [fresh, setFresh] = useState<{ key: string | null; path: readonly Entry[]; reading: MeterReading } | null>(
    null,
  );
  const kept = key ? keptReading(key) : undefined;
  const best: MeterSource = target && countable(target) ? "anthropic" : "tokenizer";
  const worthMeasuring = complete && canImprove(kept, best);
  useEffect(() => {
    if (!target || !worthMeasuring) return;
    let live = true;
    const timer = setTimeout(() => {
      // The measuring code (worker client, exact counter) is fetched on the first measure, after
      // the debounce: the estimate above needs none of it, and it stays out of the entry chunk.
      // In a fresh tab the count (the compaction worker, its tokenizer table) waits for the first
      // screen to be shown and idle: until then the estimate, marked "≈", stands.
      afterFirstScreen()
        .then(() => import("../../state/context/measure"))
        .then(({ measureContext }) =>
          live ? measureContext(path, target, METER_COUNT_WAIT_MS, undefined, undefined, "fallback") : null,
        )
        .then((m) => {
          if (!live) return;
          setSettled(path);
          if (!m) return;
          const reading: MeterReading = { tokens: m.tokens, source: sourceOf(m) };
          const chosen = key ? chooseReading(key ? keptReading(key) : undefined, reading) : reading;
          if (key && chosen && chosen !== keptReading(key)) keepReading(key, chosen);
          setFresh({ key, path, reading: chosen ?? reading });
        })
        .catch(() => {
          // The estimate stays on screen: a count that failed is not worth an error.
          if (live) setSettled(path);
        });
    }, MEASURE_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [path, target, key, worthMeasuring]);
  const current = fresh && fresh.key === key && fresh.path === path ? fresh.reading : undefined;
  const reading = chooseReading(kept, current) ?? current;
  return { reading, pending: target !== null && worthMeasuring && settled !== path };
}

/**
 * The character estimate of the context of `path` (null: none wanted), made after the render that
 * asks, a few milliseconds per task (runInSlices): on a 2,000-message path building and counting
 * the context is tens of ms, one long task of a chat's opening when it was made at once.
 */
function useEstimate(path: readonly Entry[] | null, options: BuildContextOptions): number | null {
  const { systemPrompt, targetApi } = options;
  const [done, setDone] = useState<{ path: readonly Entry[]; tokens: number } | null>(null);
  useEffect(() => {
    if (!path) return;
    let live = true;
    void runInSlices(contextTokensSteps(path, { systemPrompt, targetApi }, estimateTokens), {
      stopped: () => !live,
    }).then((tokens) => {
      if (live && tokens !== undefined) setDone({ path, tokens });
    });
    return () => {
      live = false;
    };
  }, [path, systemPrompt, targetApi]);
  return path && done?.path === path ? done.tokens : null;
}

/**
 * Tokens of the tool definitions the chat's next request carries (issue 28 item 4): the chosen
 * servers' tools as listed on this page, Grove's own, the provider tools. 0 without tools; counted
 * in the worker with the chat's tokenizer after the first screen, the estimate until then.
 */
function useToolDefinitionTokens(
  session: Session | undefined,
  target: ChatTarget | null,
): { tokens: number; counted: boolean } {
  const settings = useSettingsStore((s) => s.settings);
  const status = useMcpStore((s) => s.status);
  const withTools = usesTools(session?.tools);
  const [text, setText] = useState("");
  useEffect(() => {
    if (!withTools) return setText("");
    let live = true;
    // The definitions' code (Grove's own tools, MCP specs) loads only for a chat that uses tools, so a
    // chat without them pays nothing for it on the first screen.
    Promise.all([import("../../state/tools/tool-definitions"), import("../../core/agent/tool-spec")])
      .then(([definitions, spec]) => {
        if (live) setText(spec.toolDefinitionsText(definitions.chatToolDefinitions(session, settings, status)));
      })
      .catch(() => {
        // No share until the code loads; the conversation's reading stands.
      });
    return () => {
      live = false;
    };
  }, [withTools, session, settings, status]);
  // Counted once per text: a new message changes the session, not the definitions.
  const [counted, setCounted] = useState<{ text: string; tokens: number } | null>(null);
  useEffect(() => {
    if (!target || text === "") return;
    let live = true;
    afterFirstScreen()
      .then(() => import("../../state/context/measure"))
      .then(({ measureToolDefinitions }) => measureToolDefinitions(text, target))
      .then((tokens) => {
        if (live) setCounted({ text, tokens });
      })
      .catch(() => {
        // The estimate stands.
      });
    return () => {
      live = false;
    };
  }, [text, target]);
  if (!withTools || text === "") return { tokens: 0, counted: true };
  return counted?.text === text
    ? { tokens: counted.tokens, counted: true }
    : { tokens: estimateTokens(text), counted: false };
}

/**
 * Tokens in context against the model's window, through the one metric (DESIGN §3): the estimate
 * at once, then the count: Anthropic's count of the exact request for Claude when it can be had, else
 * the worker's ("≈" whenever it is an estimate, the calibrated Claude estimate included). The
 * automatic-compaction threshold is marked on the bar and is the meter's `high`.
 */
export function ContextMeter({ view }: { view: SessionView }) {
  const settings = useSettingsStore((s) => s.settings);
  const calibration = useCalibrationStore((s) => s.table);
  const sessionId = view.session?.id;
  const paused = useMaintenanceStore((s) => (sessionId ? s.paused[sessionId] : undefined));
  const replying = useStreamStore((s) => (sessionId ? sessionId in s.replies : false));
  const maintaining = useMaintenanceStore((s) => s.op !== null);
  const busy = replying || maintaining;
  // The model and the threshold from the same place the send takes them (state/models/chat-target.ts).
  const limits = useMemo(
    () => contextLimits(view.session, settings, calibration),
    [view.session, settings, calibration],
  );
  const { target, model, api, systemPrompt } = limits;
  const key = target ? meterKeyFor(view.session, target, settings) : null;
  // The kept reading of this context is the same number on every visit, whole path read or not;
  // without one, the estimate once the path is in; before that, "≈…" (pending, not a number).
  const { reading: measured, pending } = useMeterReading(view.path, target, key, view.complete);
  // Until the first measurement of this context: the character estimate, said to be one. Reported
  // usage is not used here (meter-reading.ts): it only calibrates the Claude estimate.
  // While a chat opens only the end of its path is read (hooks.ts): no estimate of part of it.
  const estimate = useEstimate(view.complete && measured === undefined ? view.path : null, {
    systemPrompt,
    targetApi: api,
  });
  const latest = measured ?? (estimate === null ? null : { tokens: estimate, source: "estimate" as const });
  // Steady numbers (issue 27 item 8): while this chat's new count runs, the last counted value
  // stays, instead of an estimate flashing between two counts. `data-count` says which it is.
  const held = useRef<{ sessionId: string; reading: MeterReading } | null>(null);
  const latestExact = latest !== null && isExact(latest);
  if (latestExact && sessionId) held.current = { sessionId, reading: latest };
  const holding = !latestExact && pending && held.current !== null && held.current.sessionId === sessionId;
  const reading = holding ? (held.current?.reading ?? latest) : latest;
  const countState = latestExact ? "current" : holding || pending ? "counting" : "estimate";
  const chatCost = useChatCost(view);
  const toolShare = useToolDefinitionTokens(view.session, target);
  const toolTokens = toolShare.tokens;
  if (!reading) return <PendingMeter window={model.info.contextWindow} />;

  // What the request carries: the conversation and, as their own share, the tools' definitions.
  const tokens = reading.tokens + toolTokens;
  const exact = isExact(reading);
  const byAnthropic = reading.source === "anthropic";
  const window = model.info.contextWindow;
  const auto = settings.compaction.enabled;
  const threshold = limits.threshold;
  const high = limits.warnAt;
  const label = `${exact ? "" : "≈"}${formatTokens(tokens)} / ${formatTokens(window)}`;
  const warning = tokens >= high;
  const pct = (n: number) => `${Math.round((n / window) * 100)}%`;
  const title = [
    holding ? "The last count, while the new one runs." : "",
    byAnthropic ? "Counted by Anthropic." : exact ? "" : "Estimated.",
    `${tokens.toLocaleString()} tokens in context (${
      byAnthropic
        ? "the exact request"
        : exact
          ? "counted"
          : reading.source === "calibrated"
            ? "estimated with the tokenizer, calibrated by the provider's reported usage"
            : "estimated from the text length until it is counted"
    }) of a ${window.toLocaleString()}-token window (${pct(tokens)}).`,
    toolTokens > 0
      ? `Of these, ${toolTokens.toLocaleString()} are the definitions of this chat's tools (${pct(toolTokens)}); compaction does not shrink them.`
      : "",
    auto
      ? `Automatic compaction at ${threshold.toLocaleString()} tokens (${pct(threshold)}).`
      : "Automatic compaction is off.",
    model.known ? "" : `Unknown model: ${formatTokens(window)} window assumed. Set it in Settings.`,
    chatCost ? `Spent in this chat: ${chatCost}.` : "",
  ]
    .filter(Boolean)
    .join(" ");

  return (
    <div className="meter" title={title} data-count={countState}>
      <meter
        aria-label="Context usage"
        aria-description={title}
        aria-busy={countState === "counting" ? true : undefined}
        min={0}
        max={window}
        value={Math.min(tokens, window)}
        low={high * 0.75}
        high={high}
        optimum={0}
      />
      {toolTokens > 0 && (
        <span
          className="meter-tools-share"
          aria-hidden="true"
          style={{ width: `calc(${Math.min(1, toolTokens / window)} * var(--meter-width))` }}
        />
      )}
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
        {!exact && <span className="sr-only"> (estimate)</span>}
        {toolTokens > 0 && (
          <span
            className="meter-tools"
            data-testid="meter-tools"
            data-tokens={toolTokens}
            data-counted={toolShare.counted}
          >
            {" "}
            · tools {formatTokens(toolTokens)}
          </span>
        )}
        {!model.known && (
          <span className="badge warn" title="Unknown model: 128k window assumed">
            {" "}
            assumed
          </span>
        )}
      </span>
      {warning && !paused && sessionId && (
        <button
          type="button"
          className="badge warn"
          disabled={busy}
          title={
            busy
              ? "Wait for the reply or the running operation to finish"
              : "The context is nearly full: summarize its earlier part"
          }
          onClick={() => openCompactDialog(sessionId)}
        >
          Compact
          <span className="sr-only"> (the context is nearly full)</span>
        </button>
      )}
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

/** The meter while the chat's path is still being read and no reading of it is kept. */
function PendingMeter({ window }: { window: number }) {
  const title = "Counting the tokens in context…";
  return (
    <div className="meter" title={title} data-count="counting">
      <meter aria-label="Context usage" aria-description={title} aria-busy="true" min={0} max={window} value={0} />
      <span className="meter-text">
        ≈… / {formatTokens(window)}
        <span className="sr-only"> (counting)</span>
      </span>
    </div>
  );
}
