/** Icons, drawn (an emoji or a font glyph is an empty box without the right font). */
const svg = {
  width: 18,
  height: 18,
  viewBox: "0 0 18 18",
  focusable: false,
  className: "icon",
} as const;
const stroke = {
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 1.5,
  strokeLinecap: "round",
  strokeLinejoin: "round",
} as const;

export function GraphIcon() {
  return (
    <svg {...svg} aria-hidden="true">
      <circle cx="4" cy="4" r="2" {...stroke} />
      <circle cx="4" cy="14" r="2" {...stroke} />
      <circle cx="14" cy="9" r="2" {...stroke} />
      <path d="M4 6v6M5.6 5.2 12.3 8M5.6 12.8 12.3 10" {...stroke} />
    </svg>
  );
}

/** Three sliders: a model's parameters. */
export function SlidersIcon() {
  return (
    <svg {...svg} aria-hidden="true">
      <path d="M3 5h12M3 9h12M3 13h12" {...stroke} />
      <circle cx="6" cy="5" r="1.6" {...stroke} fill="var(--panel, #fff)" />
      <circle cx="12" cy="9" r="1.6" {...stroke} fill="var(--panel, #fff)" />
      <circle cx="8" cy="13" r="1.6" {...stroke} fill="var(--panel, #fff)" />
    </svg>
  );
}

export function GearIcon() {
  return (
    <svg {...svg} aria-hidden="true">
      <circle cx="9" cy="9" r="2.4" {...stroke} />
      <path
        d="M9 1.8v2M9 14.2v2M1.8 9h2M14.2 9h2M3.9 3.9l1.4 1.4M12.7 12.7l1.4 1.4M3.9 14.1l1.4-1.4M12.7 5.3l1.4-1.4"
        {...stroke}
      />
    </svg>
  );
}

export function MoreIcon() {
  return (
    <svg {...svg} aria-hidden="true">
      <circle cx="4" cy="9" r="1.5" fill="currentColor" />
      <circle cx="9" cy="9" r="1.5" fill="currentColor" />
      <circle cx="14" cy="9" r="1.5" fill="currentColor" />
    </svg>
  );
}

/** A wrench: tools the model may call. */
export function WrenchIcon() {
  return (
    <svg {...svg} aria-hidden="true">
      <path
        d="M11.5 2.5a3.5 3.5 0 0 0-3.3 4.6L2.8 12.5a1.4 1.4 0 0 0 2 2l5.4-5.4a3.5 3.5 0 0 0 4.6-3.3l-2 2-2-.6-.6-2z"
        {...stroke}
      />
    </svg>
  );
}
