/**
 * The chat list's groups: pinned chats first, then by when each was last active — Today,
 * Yesterday, Previous 7 days, Previous 30 days, then one group per calendar month ("October
 * 2026"), newest first. Days are the user's local calendar days. Pure: `now` and the locale are
 * passed in.
 */
import { formatTime } from "../../core/time";

export type Datable = { readonly updatedAt: number; readonly pinned?: boolean };

export type DateGroup<T> = { readonly label: string; readonly items: T[] };

const DAY_MS = 86_400_000;

/** Midnight (local) of the day `ms` falls on. */
function startOfDay(ms: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/** Whole local calendar days from `ms` to `now` (0 = today), robust to daylight-saving days. */
function daysAgo(ms: number, now: number): number {
  return Math.round((startOfDay(now) - startOfDay(ms)) / DAY_MS);
}

/** "October 2026" in `locale` ("unknown date" for a time no Date holds: a group of its own, never a throw). */
function monthYear(ms: number, locale?: string): string {
  return formatTime(ms, "monthYear", locale);
}

/**
 * Formats a date the way the chat list does, once, ahead of it: the first date a page formats
 * loads the locale's calendar data (10–15 ms in a fresh tab), better a task of its own than part
 * of the list's first render.
 */
export function prepareDateFormats(locale?: string): void {
  monthYear(0, locale);
  formatTime(0, "shortDate", locale);
}

export function dateGroupLabel(updatedAt: number, now: number, locale?: string): string {
  const days = daysAgo(updatedAt, now);
  if (days <= 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days < 7) return "Previous 7 days";
  if (days < 30) return "Previous 30 days";
  return monthYear(updatedAt, locale);
}

/**
 * `items` (newest first, as the list reads them) in their groups, in that order; "Pinned" leads
 * when any is pinned. Empty groups are left out.
 */
export function groupByDate<T extends Datable>(items: readonly T[], now: number, locale?: string): DateGroup<T>[] {
  const groups: DateGroup<T>[] = [];
  const pinned = items.filter((s) => s.pinned);
  if (pinned.length > 0) groups.push({ label: "Pinned", items: pinned });
  let last: DateGroup<T> | undefined;
  for (const item of items) {
    if (item.pinned) continue;
    const label = dateGroupLabel(item.updatedAt, now, locale);
    if (last?.label !== label) {
      last = { label, items: [] };
      groups.push(last);
    }
    last.items.push(item);
  }
  return groups;
}
