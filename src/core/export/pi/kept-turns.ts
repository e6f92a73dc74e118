/**
 * A Grove compaction keeps some user turns verbatim beside its summary (build-context.ts rule 2);
 * pi's compaction has only a summary text. So the pi export writes the kept turns into that text
 * exactly as Grove's context builder places them (everything after Grove's own framing paragraph,
 * which pi replaces with its own), and the import takes them out again. Pure.
 */
import { compactionContextText } from "../../session/build-context";
import type { MessageEntry } from "../../session/entries";

const MARK = "\u0000grove-summary\u0000";

/** What goes before and after the summary in pi's text; null when no turns are kept. */
function keptTurnsWrap(keptTurns: readonly MessageEntry[]): { before: string; after: string } | null {
  if (keptTurns.length === 0) return null;
  const plain = compactionContextText(MARK, []);
  const full = compactionContextText(MARK, keptTurns);
  let common = 0;
  while (common < plain.length && plain[common] === full[common]) common++;
  // Back to the start of the paragraph the kept turns open.
  const start = full.lastIndexOf("\n\n", common) >= 0 ? full.lastIndexOf("\n\n", common) + 2 : 0;
  const at = full.indexOf(MARK);
  return { before: full.slice(start, at), after: full.slice(at + MARK.length) };
}

/** The summary as pi's text: Grove's summary with its kept turns around it. */
export function summaryWithKeptTurns(summary: string, keptTurns: readonly MessageEntry[]): string {
  const wrap = keptTurnsWrap(keptTurns);
  return wrap ? `${wrap.before}${summary}${wrap.after}` : summary;
}

/** Grove's summary back from pi's text; the text unchanged when it does not hold these turns. */
export function summaryWithoutKeptTurns(text: string, keptTurns: readonly MessageEntry[]): string {
  const wrap = keptTurnsWrap(keptTurns);
  if (!wrap || !text.startsWith(wrap.before) || !text.endsWith(wrap.after)) return text;
  if (text.length < wrap.before.length + wrap.after.length) return text;
  return text.slice(wrap.before.length, text.length - wrap.after.length);
}
