import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import type { MessageEntry } from "../../core/session/entries";
import { asEntryId, asSessionId } from "../../core/session/ids";
import { getAllSettings } from "../../db/settings";
import { freshDatabase } from "../../db/testing/database";
import { chatTarget, isTargetError } from "../models/chat-target";
import { useSettingsStore } from "../settings/settings-store";
import { settingsWithKeys } from "../testing/settings";
import { learnCalibration } from "./calibration";
import { CALIBRATION_KEY, useCalibrationStore } from "./calibration-store";

describe("the Claude calibration, apart from the settings", () => {
  it("a reply's reported usage goes into the calibration store and its row, and the settings object stays the same", async () => {
    freshDatabase();
    settingsWithKeys({ defaultModel: { providerId: "anthropic", modelId: "claude-sonnet-4-5" } });
    const settings = useSettingsStore.getState().settings;
    const target = chatTarget(undefined, settings);
    if (isTargetError(target)) throw new Error(target.message);
    const context = {
      system: "",
      messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "Hello there, how are you?" }] }],
    };
    const entry = { id: asEntryId("r"), sessionId: asSessionId("s"), usage: { input: 40, output: 5 } } as MessageEntry;
    await learnCalibration({ entry, target, context }, async () => 30);
    const learned = useCalibrationStore.getState().table[target.modelId];
    expect(learned?.samples).toBe(1);
    expect(useSettingsStore.getState().settings).toBe(settings);
    expect((await getAllSettings())[CALIBRATION_KEY]).toEqual(useCalibrationStore.getState().table);
    // The next target reads it.
    const next = chatTarget(undefined, settings);
    expect(isTargetError(next) ? null : next.calibration).toEqual(learned);
  });
});
