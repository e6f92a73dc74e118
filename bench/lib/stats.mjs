/** Small numeric helpers for bench output. Numbers are printed, never judged. */

/** Nearest-rank percentile (p in 0..100) of a list of numbers; NaN for an empty list. */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const median = (values) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export const min = (values) => (values.length ? Math.min(...values) : Number.NaN);
export const max = (values) => (values.length ? Math.max(...values) : Number.NaN);

/** "12.3 ms" (one decimal under 100 ms, none above). */
export function ms(value) {
  if (!Number.isFinite(value)) return "n/a";
  return `${value < 100 ? value.toFixed(1) : Math.round(value).toString()} ms`;
}

/** "median 12.3 ms (min 11.0, max 14.2, n=7)" */
export function spread(values) {
  const fmt = (v) => (v < 100 ? v.toFixed(1) : Math.round(v).toString());
  return `median ${ms(median(values))} (min ${fmt(min(values))}, max ${fmt(max(values))}, n=${values.length})`;
}

export function ratio(a, b) {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : "n/a";
}

/**
 * Pads columns into a fixed-width table. `align` has one letter per column, "l" or "r"; by default
 * the first column is left-aligned and the rest right-aligned.
 */
export function table(rows, align = "") {
  const widths = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, String(cell).length);
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) =>
        (align[i] ?? (i === 0 ? "l" : "r")) === "l" ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]),
      )
      .join("  ")
      .trimEnd(),
  );
}
