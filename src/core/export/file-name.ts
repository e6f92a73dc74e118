/** File names for exports: what every OS accepts, short, never empty. */
export function fileBaseName(title: string): string {
  const clean = title
    .normalize("NFKC")
    .replace(/[\\/:*?"<>|]+/g, " ")
    .replace(/\p{Cc}+/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "")
    .slice(0, 80)
    .trim();
  return clean || "chat";
}

/** "grove-export-2026-11-21.json": Export all, named by the day (UTC). */
export const exportAllFileName = (now: number): string =>
  `grove-export-${new Date(now).toISOString().slice(0, 10)}.json`;
