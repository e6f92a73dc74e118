/** Test support: settings stores for tests (keys for every provider; a provider that answers at once). */
import { DEFAULT_SETTINGS, type Settings } from "../settings/settings-model";
import { useSettingsStore } from "../settings/settings-store";

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

/**
 * A keyless custom provider on a plain-http host nobody confirmed, as the default model: every
 * reply is an error entry written at once (the endpoint is refused before any network).
 */
export const REFUSED_ENDPOINT: Settings = {
  ...DEFAULT_SETTINGS,
  providers: [
    ...DEFAULT_SETTINGS.providers,
    {
      id: "custom-test",
      name: "Test server",
      api: "openai-chat",
      baseUrl: "http://grove-test.invalid/v1",
      apiKey: "",
      customModels: ["m"],
      builtIn: false,
    },
  ],
  defaultModel: { providerId: "custom-test", modelId: "m" },
};
