import { describe, expect, it } from "vitest";
import { asSessionId } from "../../core/session/ids";
import { DEFAULT_SETTINGS, type Settings } from "../settings/settings-model";
import { chatTarget, contextLimits, isTargetError, thresholdOf, WARN_SHARE_WITHOUT_AUTO } from "./chat-target";

const keyed: Settings = {
  ...DEFAULT_SETTINGS,
  providers: DEFAULT_SETTINGS.providers.map((p) => ({ ...p, apiKey: "k" })),
};
const session = {
  id: asSessionId("s"),
  title: "",
  titleSource: "auto" as const,
  createdAt: 0,
  updatedAt: 0,
  leafId: null,
  model: { providerId: "openai", modelId: "gpt-4o" },
};

describe("contextLimits: the meter's model and threshold are the send's", () => {
  it("the target and the threshold the send uses; the warning at the threshold while automatic compaction is on", () => {
    const target = chatTarget(session, keyed, {});
    if (isTargetError(target)) throw new Error(target.message);
    const limits = contextLimits(session, keyed, {});
    expect(limits.target).toEqual(target);
    expect(limits.model).toEqual(target.model);
    expect(limits.threshold).toBe(thresholdOf(target, keyed.compaction));
    expect(limits.warnAt).toBe(limits.threshold);
  });

  it("with automatic compaction off, the warning is at a share of the window; a threshold over the window is capped", () => {
    const off = { ...keyed, compaction: { ...keyed.compaction, enabled: false, thresholdTokens: 10_000_000 } };
    const limits = contextLimits(session, off, {});
    expect(limits.threshold).toBe(128_000);
    expect(limits.warnAt).toBe(128_000 * WARN_SHARE_WITHOUT_AUTO);
  });

  it("without a key: no target, and the model the chat names", () => {
    const limits = contextLimits(session, DEFAULT_SETTINGS, {});
    expect(limits.target).toBeNull();
    expect(limits.model.info.contextWindow).toBe(128_000);
    expect(limits.api).toBe("openai-responses");
  });
});
