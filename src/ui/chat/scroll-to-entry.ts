import type { EntryId } from "../../core/session/ids";
import { useUiStore } from "../../state/app/ui-store";

/** Asks the chat to scroll `entryId` (on the active path) into view and outline it (ui/graph/use-scroll-to-entry.ts). */
export function scrollToEntry(entryId: EntryId): void {
  useUiStore.setState((s) => ({ scrollTo: { entryId, nonce: (s.scrollTo?.nonce ?? 0) + 1 } }));
}
