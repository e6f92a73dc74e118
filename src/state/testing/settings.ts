/** Test support: the settings store as after a user entered a key for every provider. */
import { DEFAULT_SETTINGS, type Settings } from "../settings-model";
import { useSettingsStore } from "../stores";

/** Loads the default settings with a key for every provider, then `patch` on top. */
export function settingsWithKeys(patch: Partial<Settings> = {}): void {
  useSettingsStore.setState({
    settings: {
      ...DEFAULT_SETTINGS,
      providers: DEFAULT_SETTINGS.providers.map((p) => ({ ...p, apiKey: "key" })),
      ...patch,
    },
    loaded: true,
  });
}
