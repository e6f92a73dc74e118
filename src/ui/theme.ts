/**
 * The colour theme: "system" follows the operating system, "light"/"dark" override it. The choice is
 * a display preference of this browser, kept in localStorage (read synchronously before the first
 * paint by public/theme-boot.js, which must use the same key and rule) and applied as
 * <html data-theme="light|dark">, which the stylesheets key their dark colours on.
 */
export type ThemeChoice = "system" | "light" | "dark";

const THEME_STORAGE_KEY = "grove.theme";
export const THEME_CHOICES: readonly { value: ThemeChoice; label: string }[] = [
  { value: "system", label: "System" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
];

const systemDark = () => window.matchMedia?.("(prefers-color-scheme: dark)").matches ?? false;

export function readThemeChoice(): ThemeChoice {
  try {
    const v = localStorage.getItem(THEME_STORAGE_KEY);
    return v === "light" || v === "dark" ? v : "system";
  } catch {
    return "system";
  }
}

export function applyTheme(choice: ThemeChoice = readThemeChoice()): void {
  const dark = choice === "dark" || (choice === "system" && systemDark());
  document.documentElement.dataset.theme = dark ? "dark" : "light";
}

export function saveThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === "system") localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage blocked: the choice holds for this page only.
  }
  applyTheme(choice);
}

export function isDarkTheme(): boolean {
  return document.documentElement.dataset.theme === "dark";
}

/**
 * Keeps the page in step with a system change (under "system") and with a choice made in another tab.
 * The listeners are added in a task of their own: adding them sometimes blocks the page's thread
 * (one cold open in three, on a busy machine, spent 90 ms in these two calls, inside the task that
 * evaluates the app's script), and the theme is applied before the first paint anyway.
 */
export function watchTheme(): () => void {
  const media = window.matchMedia?.("(prefers-color-scheme: dark)");
  const onMedia = () => applyTheme();
  const onStorage = (e: StorageEvent) => {
    if (e.key === THEME_STORAGE_KEY || e.key === null) applyTheme();
  };
  const timer = setTimeout(() => {
    media?.addEventListener("change", onMedia);
    window.addEventListener("storage", onStorage);
  }, 0);
  return () => {
    clearTimeout(timer);
    media?.removeEventListener("change", onMedia);
    window.removeEventListener("storage", onStorage);
  };
}
