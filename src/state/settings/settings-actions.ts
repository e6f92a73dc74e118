/** Settings actions: save (optimistically, then to the settings table) and list a provider's models. */
import { setSetting } from "../../db/settings";
import type { ProviderConfig } from "../../providers/types";
import { reportActionError } from "../app/report-error";
import { clearFixedNotices, pushNotice } from "../app/ui-store";
import type { Settings } from "./settings-model";
import { useSettingsStore } from "./settings-store";

// Told after each change is written (Settings shows "Saved"): a listener set, not a store field,
// since nothing but that moment's status cares.
const savedListeners = new Set<() => void>();

/** Calls `listener` after each settings change is written; returns the disposer. */
export function onSettingsSaved(listener: () => void): () => void {
  savedListeners.add(listener);
  return () => {
    savedListeners.delete(listener);
  };
}

/** For a preference saved outside the settings table (the theme, in localStorage). */
export function notifySettingsSaved(): void {
  for (const listener of savedListeners) listener();
}

export async function saveSettings(patch: Partial<Settings>): Promise<void> {
  useSettingsStore.setState((s) => ({ settings: { ...s.settings, ...patch } }));
  try {
    for (const [key, value] of Object.entries(patch)) await setSetting(key, value);
    notifySettingsSaved();
    // "No API key yet" goes once that provider has one.
    const { providers } = useSettingsStore.getState().settings;
    clearFixedNotices((cause) => providers.some((p) => p.id === cause.providerId && p.apiKey.trim() !== ""));
  } catch (e) {
    reportActionError("Settings could not be saved", e);
  }
}

export async function updateProvider(id: string, patch: Partial<ProviderConfig>): Promise<void> {
  const providers = useSettingsStore
    .getState()
    .settings.providers.map((p) => (p.id === id ? { ...p, ...patch, id: p.id, builtIn: p.builtIn } : p));
  await saveSettings({ providers });
}

export async function addCustomProvider(provider: Omit<ProviderConfig, "id" | "builtIn">): Promise<string> {
  const id = `custom-${crypto.randomUUID().slice(0, 8)}`;
  const providers = [...useSettingsStore.getState().settings.providers, { ...provider, id, builtIn: false }];
  await saveSettings({ providers });
  return id;
}

export async function removeProvider(id: string): Promise<void> {
  const providers = useSettingsStore.getState().settings.providers.filter((p) => p.id !== id || p.builtIn);
  await saveSettings({ providers });
}

/** A provider's key and base URL were edited but could not be saved (Settings closed with a problem showing). */
export function reportUnsavedProvider(name: string, reason: string): void {
  pushNotice("error", `${name} was not saved: ${reason}`);
}

/**
 * The provider's own model list, or [] when it does not answer (the registry and free text remain).
 * Asked only for a committed key + base URL pair (Settings commits them together), and never for an
 * endpoint the registry refuses (no base URL, unconfirmed plain http).
 */
const modelListCache = new Map<string, Promise<string[]>>();
export function fetchProviderModels(provider: ProviderConfig): Promise<string[]> {
  // The whole pair is the key: a new key for the same host is a new question (kept in memory only).
  const key = JSON.stringify([provider.id, provider.baseUrl, provider.apiKey, provider.plainHttpOrigin ?? ""]);
  let cached = modelListCache.get(key);
  if (!cached) {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10_000);
    // The registry (and the provider error classes it brings) is fetched on first use: the model
    // picker asks at first paint, and the entry chunk should not carry it.
    cached = import("../../providers/registry")
      .then(({ listModels }) => listModels(provider, controller.signal))
      .catch(() => []);
    modelListCache.set(key, cached);
  }
  return cached;
}

export function forgetModelLists(): void {
  modelListCache.clear();
}
