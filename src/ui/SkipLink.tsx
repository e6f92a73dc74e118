import { useUiStore } from "../state/app/ui-store";
import "./skip-link.css";

/**
 * "Skip to chat": the first thing Tab reaches, shown only when focused; it moves focus past the
 * chat list to the message box. A button, not a #fragment link: the address's hash is the router's.
 */
export function SkipLink() {
  return (
    <button
      type="button"
      className="skip-link"
      onClick={() => useUiStore.setState((s) => ({ composerFocus: s.composerFocus + 1 }))}
    >
      Skip to chat
    </button>
  );
}
