import { useId, useState } from "react";
import { notifySettingsSaved } from "../../state/settings/settings-actions";
import { readThemeChoice, saveThemeChoice, THEME_CHOICES, type ThemeChoice } from "../theme";
import { SettingsSection } from "./SettingsSection";

const TERMS = ["Theme", "dark", "light", "system", "colour", "color", "mode"];

const isTheme = (v: string): v is ThemeChoice => THEME_CHOICES.some((c) => c.value === v);

/** Settings › Appearance: the theme, applied at once and kept in this browser (ui/theme.ts). */
export function AppearanceSettings() {
  const [theme, setTheme] = useState<ThemeChoice>(readThemeChoice);
  const id = useId();
  return (
    <SettingsSection name="Appearance" terms={TERMS}>
      <div className="field">
        <label htmlFor={id}>Theme</label>
        <select
          id={id}
          value={theme}
          onChange={(e) => {
            const v = e.target.value;
            if (!isTheme(v)) return;
            setTheme(v);
            saveThemeChoice(v);
            notifySettingsSaved();
          }}
        >
          {THEME_CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
        <small className="muted">System follows your device's light or dark setting.</small>
      </div>
    </SettingsSection>
  );
}
