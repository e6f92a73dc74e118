import type { Settings } from "../../state/settings/settings-model";

/** Shown in the empty chat while no provider can be used: nothing has a key and there is no custom one. */
export function needsFirstRun(settings: Settings): boolean {
  return settings.providers.every((p) => p.builtIn && !p.apiKey.trim());
}
