/**
 * Paths read or extended lately, by their last entry's id: the next send walks up only to the
 * first of them (entries are immutable, so the path to an entry never changes). A send in a
 * 2,000-message chat then reads the session row and nothing else, instead of 2,000 keyed gets.
 */
import type { Entry } from "../../core/session/entries";
import type { EntryId } from "../../core/session/ids";

/** Paths kept (the newest); a few per open chat is plenty. */
const MAX_PATHS = 8;

const paths = new Map<EntryId, readonly Entry[]>();

/** Remembers `path` as the path to its last entry. */
export function rememberPath(path: readonly Entry[]): void {
  const last = path.at(-1);
  if (!last) return;
  paths.delete(last.id);
  paths.set(last.id, path);
  if (paths.size > MAX_PATHS) {
    const oldest = paths.keys().next().value;
    if (oldest !== undefined) paths.delete(oldest);
  }
}

/** The path to `id`, if it was remembered. */
export const knownPath = (id: EntryId): readonly Entry[] | undefined => paths.get(id);
