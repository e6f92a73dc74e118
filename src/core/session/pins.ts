/**
 * Pins (issue 29): "Keep word for word" on a message. A pin is an entry on the path — a `custom`
 * entry of type `grove.pin` naming the message and whether it is now pinned — so it is append-only,
 * syncs and exports with the conversation (pi keeps it as a `custom` entry), and belongs to the
 * path it was made on: a branch from before the pin does not have it. The last pin entry for a
 * message on the path wins ("Stop keeping word for word" appends `pinned: false`).
 *
 * What a pin does lives in the context plan (plan-context.ts, rule 3): a pinned message before
 * the kept region is sent verbatim above the summary, beside the user's kept turns.
 *
 * Pure: no I/O.
 */
import type { CustomDataEntry, Entry } from "./entries";
import type { EntryId } from "./ids";

const PIN_CUSTOM_TYPE = "grove.pin";

export type PinData = { readonly entryId: EntryId; readonly pinned: boolean };

export type PinEntry = CustomDataEntry & { readonly customType: typeof PIN_CUSTOM_TYPE; readonly data: PinData };

export function isPinEntry(e: Entry): e is PinEntry {
  if (e.type !== "custom" || e.customType !== PIN_CUSTOM_TYPE) return false;
  const d = e.data as Partial<PinData> | null | undefined;
  return typeof d === "object" && d !== null && typeof d.entryId === "string" && typeof d.pinned === "boolean";
}

/** The pin entry's content (the caller adds id, sessionId, parentId, createdAt). */
export const pinData = (entryId: EntryId, pinned: boolean): { customType: string; data: PinData } => ({
  customType: PIN_CUSTOM_TYPE,
  data: { entryId, pinned },
});

/**
 * The messages pinned on `path` (root first), in path order: the last pin entry for each message
 * wins, and only a message on the path before its pin counts.
 */
export function pinnedIds(path: readonly Entry[]): Set<EntryId> {
  const seen = new Set<EntryId>();
  const pinned = new Set<EntryId>();
  for (const e of path) {
    if (isPinEntry(e)) {
      if (!seen.has(e.data.entryId)) continue;
      if (e.data.pinned) pinned.add(e.data.entryId);
      else pinned.delete(e.data.entryId);
    } else if (e.type === "message") seen.add(e.id);
  }
  return pinned;
}
