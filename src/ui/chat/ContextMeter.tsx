import { useMemo } from "react";
import { contextUsage } from "../../core/session/context-usage";
import { estimateTokens } from "../../core/tokens/estimate";
import { resolveModel } from "../../core/tokens/models";
import { findProvider } from "../../state/settings-model";
import { useSettingsStore } from "../../state/stores";
import type { SessionView } from "../hooks";

function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 100_000) return `${(n / 1000).toFixed(1)}k`;
  return `${Math.round(n / 1000)}k`;
}

/** Tokens in context against the model's window, through the one contextUsage function (DESIGN §3). */
export function ContextMeter({ view }: { view: SessionView }) {
  const settings = useSettingsStore((s) => s.settings);
  const ref = view.session?.model ?? settings.defaultModel;
  const model = resolveModel(ref.modelId, settings.modelOverrides);
  const api = findProvider(settings, ref.providerId)?.api ?? "openai-chat";
  const systemPrompt = view.session?.systemPrompt ?? settings.systemPrompt;
  const usage = useMemo(
    () => contextUsage(view.path, { systemPrompt, targetApi: api }, estimateTokens),
    [view.path, systemPrompt, api],
  );
  const window = model.info.contextWindow;
  const approx = usage.source === "estimate" ? "≈" : "";
  const label = `${approx}${formatTokens(usage.tokens)} / ${formatTokens(window)}`;
  const title = [
    `${usage.tokens.toLocaleString()} tokens in context of ${window.toLocaleString()}`,
    usage.source === "estimate" ? "(estimated)" : "(from the provider's reported usage)",
    model.known ? "" : `Unknown model: ${formatTokens(window)} window assumed. Set it in Settings.`,
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <div className="meter" title={title}>
      <meter
        aria-label="Context usage"
        min={0}
        max={window}
        value={Math.min(usage.tokens, window)}
        low={window * 0.6}
        high={window * 0.85}
        optimum={0}
      />
      <span className="meter-text">
        {label}
        {!model.known && (
          <span className="badge warn" title="Unknown model: 128k window assumed">
            {" "}
            assumed
          </span>
        )}
      </span>
    </div>
  );
}
