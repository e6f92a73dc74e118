/**
 * Records of an import file that could not be read. Real exports hold stubs (a ChatGPT
 * conversation with no `mapping`, a Claude one with no `chat_messages`, an empty one): each is
 * left out with its title and the reason, the rest is imported, and the user is told which.
 * Pure: no I/O.
 */

/** One conversation left out of an import. `reason` is short and shared, so the list can be grouped by it. */
export type SkippedRecord = { readonly title: string; readonly reason: string };

/** The reasons importers give, so that the same cause always reads the same. */
export const SKIP_REASON = {
  /** No message tree, an empty one, or only nodes with nothing to show. */
  noMessages: "no messages",
  /** The list holds something that is not a conversation object. */
  notAConversation: "not a conversation",
  /** Every node's parent chain runs in a circle: no root to start from. */
  loops: "its messages form a loop",
} as const;

/** The title to name a record by: its own, else its place in the file. */
export function recordTitle(raw: unknown, index: number): string {
  const title = typeof raw === "string" ? raw.trim() : "";
  return title !== "" ? title : `Untitled conversation ${index + 1}`;
}

/** Titles listed per reason, at most this many before "and N more". */
const TITLES_PER_REASON = 5;

/**
 * The skipped records in one sentence, grouped by reason:
 * `no messages: "Corrupted entry", "Broken record"; not a conversation: "Untitled conversation 7"`.
 */
export function describeSkipped(skipped: readonly SkippedRecord[]): string {
  const byReason = new Map<string, string[]>();
  for (const s of skipped) {
    const titles = byReason.get(s.reason);
    if (titles) titles.push(s.title);
    else byReason.set(s.reason, [s.title]);
  }
  const groups: string[] = [];
  for (const [reason, titles] of byReason) {
    const shown = titles.slice(0, TITLES_PER_REASON).map((t) => JSON.stringify(t));
    const more = titles.length - shown.length;
    groups.push(`${reason}: ${shown.join(", ")}${more > 0 ? ` and ${more.toLocaleString("en")} more` : ""}`);
  }
  return groups.join("; ");
}
