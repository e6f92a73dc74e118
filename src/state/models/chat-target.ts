/**
 * Which provider and model a session talks to, with everything derived from that choice: the
 * model's limits (registry + overrides), its token encoding, the system prompt in force and the
 * Claude calibration. One place, so the reply, the meter and compaction agree.
 */
import type { CompactionSettings } from "../../core/compaction/settings";
import { thresholdFor } from "../../core/compaction/settings";
import { type ChatParams, effectiveParams, type RequestParams } from "../../core/session/chat-params";
import type { ApiKind, MessageError, Session } from "../../core/session/entries";
import { type CalibrationState, type CalibrationTable, calibrationFor } from "../../core/tokens/claude-estimate";
import { type ResolvedModel, resolveModel } from "../../core/tokens/models";
import { remoteSummarizerSet } from "../../providers/remote-summarizer";
import type { ProviderConfig } from "../../providers/types";
import type { SummarizerSpec } from "../../worker/api";
import { useCalibrationStore } from "../context/calibration-store";
import { findProvider, type Settings, thinkingFor } from "../settings/settings-model";

export type ChatTarget = {
  provider: ProviderConfig;
  modelId: string;
  model: ResolvedModel;
  api: ApiKind;
  systemPrompt: string;
  /** For Claude models: reported-usage calibration of the estimate (ratio 1 elsewhere). */
  calibration: CalibrationState | null;
  /** The chat's own temperature, output limit and thinking (Model settings); absent: the defaults. */
  params?: ChatParams;
};

/** The session's target, or why it can't be used (no key, unknown provider). */
export function chatTarget(
  session: Session | undefined,
  settings: Settings,
  calibration: CalibrationTable = useCalibrationStore.getState().table,
): ChatTarget | MessageError {
  const ref = session?.model ?? settings.defaultModel;
  const provider = findProvider(settings, ref.providerId);
  if (!provider) {
    return {
      kind: "invalid_request",
      message: `The provider "${ref.providerId}" is not configured. Pick another model.`,
    };
  }
  if (needsKey(provider)) {
    return {
      kind: "auth",
      message: `No ${provider.name} API key yet. Open Settings and paste your key, then press Retry.`,
    };
  }
  const model = resolveModel(ref.modelId, settings.modelOverrides, provider.api);
  return {
    provider,
    modelId: ref.modelId,
    model,
    api: provider.api,
    systemPrompt: session?.systemPrompt ?? settings.systemPrompt,
    calibration: model.info.encoding === "claude" ? calibrationFor(calibration, ref.modelId) : null,
    ...(session?.params ? { params: session.params } : {}),
  };
}

/** What a request to `target` sends for temperature, output limit and thinking (the chat's, else the model's). */
export function requestParams(target: ChatTarget, settings: Settings): RequestParams {
  return effectiveParams(target.params, {
    maxOutputTokens: target.model.info.maxOutput,
    thinking: thinkingFor(settings, target.modelId),
  });
}

/** A built-in provider is not asked anything without a key (custom ones may run keyless: local servers). */
const needsKey = (provider: ProviderConfig): boolean => provider.builtIn && !provider.apiKey.trim();

/**
 * The provider a send from `session` would need a key for and has none, else null. Nothing is
 * sent then: the user is told what to do, not that the provider rejected anything.
 */
export function missingKeyFor(session: Session | undefined, settings: Settings): ProviderConfig | null {
  const provider = findProvider(settings, (session?.model ?? settings.defaultModel).providerId);
  return provider && needsKey(provider) ? provider : null;
}

export const isTargetError = (t: ChatTarget | MessageError): t is MessageError => "kind" in t;

/** The summarizer: the configured cheaper model when it is usable, else the chat model itself. */
export function summarizerTarget(chat: ChatTarget, settings: Settings): ChatTarget {
  if (!settings.summaryModel) return chat;
  const t = chatTarget({ ...sessionlessRef(), model: settings.summaryModel }, settings);
  return isTargetError(t) ? chat : { ...t, systemPrompt: chat.systemPrompt };
}

function sessionlessRef(): Session {
  return { id: "" as Session["id"], title: "", titleSource: "auto", createdAt: 0, updatedAt: 0, leafId: null };
}

/** Where automatic compaction starts for a chat on `target`'s model (DESIGN §4.6): what the send compacts at. */
export function thresholdOf(target: Pick<ChatTarget, "model">, compaction: CompactionSettings): number {
  return thresholdFor(target.model.info.contextWindow, compaction);
}

/** Where the meter warns when automatic compaction is off: this share of the window. */
export const WARN_SHARE_WITHOUT_AUTO = 0.85;

/** A chat's context limits: what the send decides by, as the meter shows them. */
export type ContextLimits = {
  /** The chat's target; null when nothing can be sent (no key, unknown provider). */
  target: ChatTarget | null;
  /** The target's model, else the model the chat names, resolved the same way. */
  model: ResolvedModel;
  api: ApiKind;
  systemPrompt: string;
  /** Where automatic compaction starts (`thresholdOf`), at most the window. */
  threshold: number;
  /** The meter's warning: the threshold while automatic compaction is on, else a share of the window. */
  warnAt: number;
};

/** The limits of `session`'s context (or a new chat's) under `settings`. */
export function contextLimits(
  session: Session | undefined,
  settings: Settings,
  calibration: CalibrationTable = useCalibrationStore.getState().table,
): ContextLimits {
  const chat = chatTarget(session, settings, calibration);
  const target = isTargetError(chat) ? null : chat;
  const ref = session?.model ?? settings.defaultModel;
  const api = target?.api ?? findProvider(settings, ref.providerId)?.api ?? "openai-chat";
  const model = target?.model ?? resolveModel(ref.modelId, settings.modelOverrides, api);
  const window = model.info.contextWindow;
  const threshold = Math.min(window, thresholdOf({ model }, settings.compaction));
  return {
    target,
    model,
    api,
    systemPrompt: session?.systemPrompt ?? settings.systemPrompt,
    threshold,
    warnAt: settings.compaction.enabled ? threshold : window * WARN_SHARE_WITHOUT_AUTO,
  };
}

/**
 * The summarizer as the worker's jobs describe it; with `settings`, the remote summarizer too when
 * one is set (compaction and branch summaries; titles and handoffs always use the model).
 */
export function summarizerSpec(target: ChatTarget, settings?: Settings): SummarizerSpec {
  const spec: SummarizerSpec = {
    provider: target.provider,
    model: target.modelId,
    contextWindow: target.model.info.contextWindow,
    maxOutput: target.model.info.maxOutput,
  };
  if (settings && remoteSummarizerSet(settings.remoteSummarizer)) spec.remote = settings.remoteSummarizer;
  return spec;
}

/** The api a reply in `session` would use now; null when it could not be sent (no key, unknown provider). */
export function replyApi(session: Session | undefined, settings: Settings): ApiKind | null {
  const target = chatTarget(session, settings);
  return isTargetError(target) ? null : target.api;
}
