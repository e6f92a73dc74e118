/**
 * Times as data and as words, safely: one rule for which epoch-millisecond numbers are dates (a
 * `Date` holds ±8.64e15 ms; an imported 1e300 once made "Invalid time value" take a chat down), and
 * the one formatter the UI and the exports use, which never throws: a time no `Date` can hold reads
 * "unknown date". Pure (Intl formats; no I/O).
 */

/** The largest distance from the epoch a `Date` can hold: 100,000,000 days (ECMAScript). */
export const MAX_TIME_MS = 8.64e15;

/** Whether `ms` is a time a `Date` can hold (finite, within ±MAX_TIME_MS). */
export function isRepresentableTime(ms: unknown): ms is number {
  return typeof ms === "number" && Number.isFinite(ms) && Math.abs(ms) <= MAX_TIME_MS;
}

/** What a time no `Date` can hold reads as. */
export const UNKNOWN_DATE = "unknown date";

type TimeStyle =
  /** "Oct 4, 2026" */
  | "date"
  /** "10/4/2026" (the locale's short date) */
  | "shortDate"
  /** "Oct 4, 2026, 10:42 AM" */
  | "dateTime"
  /** "10:42" */
  | "clock"
  /** "October 2026" */
  | "monthYear";

const OPTIONS: Record<TimeStyle, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: "medium" },
  shortDate: {},
  dateTime: { dateStyle: "medium", timeStyle: "short" },
  clock: { hour: "2-digit", minute: "2-digit" },
  monthYear: { month: "long", year: "numeric" },
};

// One formatter per locale and style, made once: building one costs more than formatting (the chat
// list formats a date per row).
const formats = new Map<string, Intl.DateTimeFormat>();

/** `ms` in words in `locale` (the user's when undefined); "unknown date" for a time no Date can hold. */
export function formatTime(ms: number, style: TimeStyle, locale?: string): string {
  if (!isRepresentableTime(ms)) return UNKNOWN_DATE;
  const key = `${locale ?? ""}\n${style}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, OPTIONS[style]);
    formats.set(key, format);
  }
  return format.format(ms);
}

/** ISO 8601 (UTC), or undefined for a time no Date can hold (a `<time dateTime>` is then left out). */
export function isoTime(ms: number): string | undefined {
  return isRepresentableTime(ms) ? new Date(ms).toISOString() : undefined;
}
