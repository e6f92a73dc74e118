/** The chat list's row icons, drawn: without an emoji font (many Linux setups) "🗑" is an empty box. */
const stroke = {
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 1.3,
  strokeLinecap: "round",
  strokeLinejoin: "round",
} as const;

export function TrashIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false" className="icon">
      <path d="M6 2h4M2.5 4h11M4 4l.7 9.2a1 1 0 0 0 1 .8h4.6a1 1 0 0 0 1-.8L12 4M6.5 6.5v5M9.5 6.5v5" {...stroke} />
    </svg>
  );
}

export function PinIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false" className="icon">
      <path d="M6 2h4l-.5 4 2.5 2.5H4L6.5 6 6 2M8 8.5V14" {...stroke} />
    </svg>
  );
}

export function ArchiveIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false" className="icon">
      <path d="M2 3h12v3H2zM3 6v7h10V6M6.5 8.5h3" {...stroke} />
    </svg>
  );
}

export function RestoreIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false" className="icon">
      <path d="M3 8a5 5 0 1 0 1.5-3.6M3 2.5v3h3" {...stroke} />
    </svg>
  );
}
