import { useEffect, useState } from "react";
import { onSettingsSaved } from "../../state/settings/settings-actions";

/** How long "Saved" stays after a change was written (ms). */
const SAVED_VISIBLE_MS = 2_000;

/** "Saved" for a moment after each change is written: settings save as you go, with no Save button. */
export function SavedStatus() {
  const [savedAt, setSavedAt] = useState<number | null>(null);
  useEffect(() => onSettingsSaved(() => setSavedAt(Date.now())), []);
  useEffect(() => {
    if (savedAt === null) return;
    const t = setTimeout(() => setSavedAt(null), SAVED_VISIBLE_MS);
    return () => clearTimeout(t);
  }, [savedAt]);
  return (
    <p className="settings-saved small" role="status">
      {savedAt !== null && (
        <>
          <span aria-hidden="true">✓ </span>Saved
        </>
      )}
    </p>
  );
}
