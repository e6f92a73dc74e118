import { type ReactNode, useEffect, useId, useRef } from "react";
import { createPortal } from "react-dom";
import { inertBehind } from "./inert-behind";

/**
 * A modal dialog: role=dialog named by its title, Esc closes, focus moves in on open and returns
 * to the opener on close. It is drawn in document.body, and everything else there is `inert`
 * while it is open (so neither the keyboard nor a screen reader reaches the page behind it).
 */
export function Dialog({
  title,
  onClose,
  children,
  wide,
  closeOnBackdrop = true,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
  /** false: a click outside does nothing (while work runs that closing would cancel). */
  closeOnBackdrop?: boolean;
}) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const scrimRef = useRef<HTMLDivElement>(null);
  useEffect(() => (scrimRef.current ? inertBehind(scrimRef.current) : undefined), []);
  // Esc also when focus has left the dialog for the page's body (a Save button that went away
  // takes focus with it), as long as this dialog is the topmost.
  const latestClose = useRef(onClose);
  latestClose.current = onClose;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const scrim = scrimRef.current;
      if (e.key !== "Escape" || !scrim || scrim.contains(document.activeElement)) return;
      const scrims = document.querySelectorAll(".scrim");
      if (scrims[scrims.length - 1] === scrim) latestClose.current();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>("input, textarea, select, button:not(.dialog-close)");
    first?.focus();
    return () => opener?.focus?.();
  }, []);
  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a backdrop click is a mouse shortcut; keyboards have Esc and Close
    <div
      ref={scrimRef}
      className="scrim"
      role="presentation"
      onMouseDown={(e) => closeOnBackdrop && e.target === e.currentTarget && onClose()}
    >
      <div
        ref={ref}
        className={`dialog ${wide ? "wide" : ""}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <div className="dialog-head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button dialog-close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </div>
        <div className="dialog-body">{children}</div>
      </div>
    </div>,
    document.body,
  );
}
