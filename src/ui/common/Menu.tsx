import { type ReactNode, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { moveMenuFocus } from "./menu-keys";
import "./menu.css";

/** Least room kept between an open menu and the window's edge (px). */
const EDGE_PX = 8;

/**
 * A menu button (WAI-ARIA "menu button" pattern): the button opens a role=menu list; arrows move
 * between items, Esc or a click outside closes it and focus returns to the button. Items are
 * passed as a render function that receives `close`.
 */
export function MenuButton({
  label,
  title,
  className,
  icon,
  children,
}: {
  label: string;
  title?: string;
  className?: string;
  /** Shown instead of the label (which then names the button for assistive tech). */
  icon?: ReactNode;
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  // Keep the open menu on screen: upward when there is no room below, nudged in from the sides.
  useLayoutEffect(() => {
    const menu = menuRef.current;
    if (!open || !menu) return;
    const r = menu.getBoundingClientRect();
    if (r.bottom > window.innerHeight - EDGE_PX && r.top - r.height - EDGE_PX > 0) menu.classList.add("menu-up");
    const shift =
      r.right > window.innerWidth - EDGE_PX
        ? window.innerWidth - EDGE_PX - r.right
        : r.left < EDGE_PX
          ? EDGE_PX - r.left
          : 0;
    if (shift !== 0) menu.style.translate = `${Math.round(shift)}px 0`;
  }, [open]);

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>('[role^="menuitem"]:not(:disabled)')?.focus();
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!menuRef.current?.contains(t) && !buttonRef.current?.contains(t)) setOpen(false);
    };
    document.addEventListener("pointerdown", onDown);
    return () => document.removeEventListener("pointerdown", onDown);
  }, [open]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === "Escape") {
      e.stopPropagation();
      close();
    } else if (e.key === "Tab") {
      setOpen(false);
    } else {
      moveMenuFocus(e, menuRef.current);
    }
  };

  return (
    <div className="menu-anchor">
      <button
        ref={buttonRef}
        type="button"
        className={className}
        title={title}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={icon ? label : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        {icon ?? label}
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={label}
          className="menu"
          tabIndex={-1}
          onKeyDown={onKeyDown}
        >
          {children(close)}
        </div>
      )}
    </div>
  );
}

/**
 * One item of a MenuButton's menu: its name, and under it in small print what it does (the item's
 * description for assistive tech, so its accessible name stays just the verb).
 */
export function MenuAction({
  label,
  description,
  disabled,
  disabledReason,
  onSelect,
}: {
  label: string;
  description?: string;
  disabled?: boolean;
  /** Why it is disabled (a tooltip). */
  disabledReason?: string;
  onSelect: () => void;
}) {
  const descId = useId();
  return (
    <button
      type="button"
      role="menuitem"
      className="menu-action"
      aria-label={label}
      aria-describedby={description ? descId : undefined}
      disabled={disabled}
      title={disabled ? disabledReason : undefined}
      onClick={onSelect}
    >
      <span className="menu-action-label">{label}</span>
      {/* The small print is drawn as CSS content and read as the description (the hidden span):
          words drawn inside the item but missing from its name would fail WCAG 2.5.3 (label in name). */}
      {description && (
        <>
          <span className="menu-action-desc" data-text={description} aria-hidden="true" />
          <span id={descId} hidden>
            {description}
          </span>
        </>
      )}
    </button>
  );
}
