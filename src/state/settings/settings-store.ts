/** The settings as loaded from the settings table (boot.ts keeps them live across tabs). */
import { defineStore } from "../app/store-registry";
import { DEFAULT_SETTINGS, type Settings } from "./settings-model";

type SettingsState = { settings: Settings; loaded: boolean };

export const useSettingsStore = defineStore<SettingsState>(() => ({ settings: DEFAULT_SETTINGS, loaded: false }));
