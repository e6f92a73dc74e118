/**
 * Pins (issue 29): "Keep word for word" on a message, or on a passage selected in one. A pin is an
 * entry on the path — a `custom` entry of type `grove.pin` naming the message, whether it is now
 * pinned and, for a passage, its exact text and where it lies in the message — so it is
 * append-only, syncs and exports with the conversation (pi keeps it as a `custom` entry), and
 * belongs to the path it was made on: a branch from before the pin does not have it. The last pin
 * entry for a message (or for one passage of it) on the path wins ("Stop keeping word for word"
 * appends `pinned: false`).
 *
 * What a pin does lives in the context plan (plan-context.ts, rule 3): a pinned message or passage
 * before the kept region is sent verbatim above the summary, beside the user's kept turns.
 *
 * Pure: no I/O.
 */
import { type CustomDataEntry, type Entry, type MessageEntry, messageText } from "./entries";
import type { EntryId } from "./ids";

const PIN_CUSTOM_TYPE = "grove.pin";

/** A passage of a message: `text` is exactly `passageSource(message).slice(start, end)`. */
export type Passage = { readonly start: number; readonly end: number; readonly text: string };

export type PinData = { readonly entryId: EntryId; readonly pinned: boolean; readonly passage?: Passage };

export type PinEntry = CustomDataEntry & { readonly customType: typeof PIN_CUSTOM_TYPE; readonly data: PinData };

/** A passage pinned on the path, with the message it was selected in. */
export type PinnedPassage = Passage & { readonly entryId: EntryId };

const isPassage = (p: unknown): p is Passage => {
  if (typeof p !== "object" || p === null) return false;
  const { start, end, text } = p as Partial<Passage>;
  return (
    typeof text === "string" &&
    text !== "" &&
    Number.isInteger(start) &&
    Number.isInteger(end) &&
    (start as number) >= 0 &&
    (end as number) - (start as number) === text.length
  );
};

export function isPinEntry(e: Entry): e is PinEntry {
  if (e.type !== "custom" || e.customType !== PIN_CUSTOM_TYPE) return false;
  const d = e.data as Partial<PinData> | null | undefined;
  return (
    typeof d === "object" &&
    d !== null &&
    typeof d.entryId === "string" &&
    typeof d.pinned === "boolean" &&
    (d.passage === undefined || isPassage(d.passage))
  );
}

/** The pin entry's content (the caller adds id, sessionId, parentId, createdAt); with `passage`, a passage pin. */
export const pinData = (
  entryId: EntryId,
  pinned: boolean,
  passage?: Passage,
): { customType: string; data: PinData } => ({
  customType: PIN_CUSTOM_TYPE,
  data: passage
    ? { entryId, pinned, passage: { start: passage.start, end: passage.end, text: passage.text } }
    : { entryId, pinned },
});

/**
 * The messages pinned whole on `path` (root first): the last pin entry for each message wins, and
 * only a message on the path before its pin counts. Passage pins are `pinnedPassages`.
 */
export function pinnedIds(path: readonly Entry[]): Set<EntryId> {
  const seen = new Set<EntryId>();
  const pinned = new Set<EntryId>();
  for (const e of path) {
    if (isPinEntry(e)) {
      if (!seen.has(e.data.entryId) || e.data.passage) continue;
      if (e.data.pinned) pinned.add(e.data.entryId);
      else pinned.delete(e.data.entryId);
    } else if (e.type === "message") seen.add(e.id);
  }
  return pinned;
}

const passageKey = (entryId: EntryId, p: Passage): string => `${entryId}:${p.start}:${p.end}`;

/**
 * The passages pinned on `path`: the last pin entry for each passage (same message, same offsets)
 * wins, only a message on the path before its pin counts; in path order of their messages, then
 * by where they start.
 */
export function pinnedPassages(path: readonly Entry[]): PinnedPassage[] {
  const order = new Map<EntryId, number>();
  const pinned = new Map<string, PinnedPassage>();
  for (const e of path) {
    if (isPinEntry(e)) {
      const { entryId, passage } = e.data;
      if (!passage || !order.has(entryId)) continue;
      const key = passageKey(entryId, passage);
      if (e.data.pinned) pinned.set(key, { entryId, start: passage.start, end: passage.end, text: passage.text });
      else pinned.delete(key);
    } else if (e.type === "message") order.set(e.id, order.size);
  }
  return [...pinned.values()].sort(
    (a, b) => (order.get(a.entryId) ?? 0) - (order.get(b.entryId) ?? 0) || a.start - b.start || a.end - b.end,
  );
}

/** The text a passage's offsets count in: the message's text blocks, joined as the chat shows them. */
export const passageSource = (e: MessageEntry): string => messageText(e.content);

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Where `selected` (text the user selected in the rendered message) lies in `source`: exactly, or
 * else word for word with the spacing and markdown marks between words as the source has them (a
 * selection across bold text or a line break reads without them). Null when it is not there.
 * The passage is always an exact substring of the source.
 */
export function findPassage(source: string, selected: string): Passage | null {
  const wanted = selected.trim();
  if (wanted === "") return null;
  const at = source.indexOf(wanted);
  if (at >= 0) return { start: at, end: at + wanted.length, text: wanted };
  const words = wanted.split(/\s+/).map(escapeRegExp);
  const match = new RegExp(words.join("[\\s*_`~>#|-]+")).exec(source);
  if (!match) return null;
  return { start: match.index, end: match.index + match[0].length, text: match[0] };
}
