/**
 * A chat's own setup: its system prompt and model parameters, before the first message too (a new
 * chat has no session row yet: its choices wait in `useNewChatSetup` and the first send writes them
 * into the session), and the presets saved in settings for both.
 */

import type { ChatParams, ParamsPreset, PromptPreset } from "../../core/session/chat-params";
import type { ChatTools } from "../../core/session/chat-tools";
import type { SessionId } from "../../core/session/ids";
import { updateSession } from "../../db/sessions";
import { reportActionError } from "../app/report-error";
import { defineStore } from "../app/store-registry";
import { saveSettings } from "../settings/settings-actions";
import { useSettingsStore } from "../settings/settings-store";

/** What the user set for the chat they are about to start (New chat, before sending). */
export type NewChatSetup = { systemPrompt?: string; params?: ChatParams; tools?: ChatTools };

export const useNewChatSetup = defineStore<NewChatSetup>(() => ({}));

/** The setup for the first send to take into the new session; it is cleared for the next new chat. */
export function takeNewChatSetup(): NewChatSetup {
  const { systemPrompt, params, tools } = useNewChatSetup.getState();
  useNewChatSetup.setState({ systemPrompt: undefined, params: undefined, tools: undefined }, true);
  return {
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    ...(params !== undefined ? { params } : {}),
    ...(tools !== undefined ? { tools } : {}),
  };
}

/** Puts back what `takeNewChatSetup` took (the first message could not be stored), unless set again meanwhile. */
export function restoreNewChatSetup(setup: NewChatSetup): void {
  const now = useNewChatSetup.getState();
  useNewChatSetup.setState({
    systemPrompt: now.systemPrompt ?? setup.systemPrompt,
    params: now.params ?? setup.params,
    tools: now.tools ?? setup.tools,
  });
}

/** null: the chat follows the default system prompt from Settings again. */
export async function setChatPrompt(sessionId: SessionId | null, prompt: string | null): Promise<void> {
  if (!sessionId) {
    useNewChatSetup.setState({ systemPrompt: prompt ?? undefined });
    return;
  }
  try {
    await updateSession(sessionId, { systemPrompt: prompt });
  } catch (e) {
    reportActionError("Could not save the chat's system prompt", e);
  }
}

/** null or empty: the chat uses the model's defaults again. */
export async function setChatParams(sessionId: SessionId | null, params: ChatParams | null): Promise<void> {
  const value = params && Object.keys(params).length > 0 ? params : null;
  if (!sessionId) {
    useNewChatSetup.setState({ params: value ?? undefined });
    return;
  }
  try {
    await updateSession(sessionId, { params: value });
  } catch (e) {
    reportActionError("Could not save the chat's model settings", e);
  }
}

/** Saves (or replaces, by name) a system-prompt preset. */
export function savePromptPreset(preset: PromptPreset): Promise<void> {
  const others = useSettingsStore.getState().settings.promptPresets.filter((p) => p.name !== preset.name);
  return saveSettings({ promptPresets: [...others, preset] });
}

export function deletePromptPreset(name: string): Promise<void> {
  const presets = useSettingsStore.getState().settings.promptPresets.filter((p) => p.name !== name);
  return saveSettings({ promptPresets: presets });
}

/** Saves (or replaces, by name) a parameters preset. */
export function saveParamsPreset(preset: ParamsPreset): Promise<void> {
  const others = useSettingsStore.getState().settings.paramsPresets.filter((p) => p.name !== preset.name);
  return saveSettings({ paramsPresets: [...others, preset] });
}

export function deleteParamsPreset(name: string): Promise<void> {
  const presets = useSettingsStore.getState().settings.paramsPresets.filter((p) => p.name !== name);
  return saveSettings({ paramsPresets: presets });
}
