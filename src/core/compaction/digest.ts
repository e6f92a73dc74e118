/**
 * Turning what a summarizer returned into the stored digest, whatever it returned (DESIGN §4.3,
 * §4.4): echoed framing, kept-turn wrappers, prompt tags and tail blocks are stripped; the digest
 * is made to LEAD with "Standing facts & constraints"; the split-turn section and the folded-paste
 * note are appended; the one-line `shortSummary` is cleaned or derived.
 *
 * "Standing facts & constraints" first: if the summarizer wrote the section elsewhere it is moved to
 * the front; if it wrote none, a fixed section (prompts/compaction-standing-facts-fallback.md) is
 * put first, pointing at the kept user turns, which are the deterministic record of what the user
 * said. We do not try to consolidate facts in code: the kept turns already carry them verbatim.
 *
 * Pure: no I/O, no token counting.
 */

import {
  COMPACTED_SYSTEM_NOTE,
  COMPACTION_FOLDED_NOTE,
  COMPACTION_KEPT_USER_TURNS,
  COMPACTION_PINNED,
  COMPACTION_SPLIT_TURN_SECTION,
  COMPACTION_STANDING_FACTS_FALLBACK,
  COMPACTION_SUMMARY_CONTEXT,
  fillTemplate,
} from "../prompts";
import { stripFileOpsTags } from "./file-ops";
import { cutChars } from "./serialize";
import { stripTail } from "./verbatim-tail";

export const SHORT_SUMMARY_MAX_CHARS = 120;

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A literal phrase matched with any whitespace between its words, case-insensitively. */
const phrase = (s: string): RegExp => new RegExp(s.trim().split(/\s+/).map(escapeRegExp).join("\\s+"), "gi");

/** Paragraphs of a template that contain no placeholder: the fixed text a summarizer might echo. */
function fixedParagraphs(template: string): string[] {
  return template
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "" && !p.includes("{{"));
}

/** Sentences long enough that removing them can never hit ordinary summary prose by accident. */
const MIN_ECHO_SENTENCE_CHARS = 24;

/**
 * The framing's paragraphs and long sentences as patterns, made on first use: as a module constant
 * they were built while the reply code loads after a chat's first screen (tens of ms in one task).
 */
let echoPatterns: readonly RegExp[] | undefined;
function framingEchoPatterns(): readonly RegExp[] {
  if (echoPatterns) return echoPatterns;
  const paragraphs = [
    COMPACTION_SUMMARY_CONTEXT,
    COMPACTION_KEPT_USER_TURNS,
    COMPACTION_PINNED,
    COMPACTED_SYSTEM_NOTE,
  ].flatMap(fixedParagraphs);
  echoPatterns = [
    ...paragraphs.map(phrase),
    ...paragraphs
      .flatMap((p) => p.split(/(?<=[.!?])\s+/))
      .filter((s) => s.length >= MIN_ECHO_SENTENCE_CHARS)
      .map(phrase),
  ];
  return echoPatterns;
}

/** The framing's first sentence: what tests count to check the framing appears exactly once. */
export const FRAMING_FIRST_SENTENCE = (COMPACTION_SUMMARY_CONTEXT.split(/(?<=[.!?])\s+/)[0] ?? "").trim();

/** Any tag of our prompts or of the compaction message: in a one-liner, a sure sign of an echo. */
const OUR_TAGS =
  /<\/?(conversation|previous-summary|instructions|summary|user_message|pinned_message|pinned_passage|verbatim_tail)\b/i;
const PROMPT_TAGS =
  /<\/?(conversation|previous-summary|instructions|summary|user_message|pinned_message|pinned_passage)\b[^<>]*>/gi;
const FOLDED_NOTE_PREFIX = (COMPACTION_FOLDED_NOTE.split("{{")[0] ?? "").trim();
const FOLDED_NOTE_LINE = new RegExp(`^[ \\t]*${escapeRegExp(FOLDED_NOTE_PREFIX)}.*$`, "gim");

/** Removes our own notes (the folded-paste note) so each compaction writes its own, once. */
export function stripCompactionNotes(text: string): string {
  return FOLDED_NOTE_PREFIX === "" ? text : text.replace(FOLDED_NOTE_LINE, "");
}

const tidy = (text: string): string =>
  text
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();

/**
 * A summarizer's output made safe to store: tail blocks and tail tags, echoed framing paragraphs
 * and sentences, prompt and kept-turn tags, and our own notes removed; blank runs collapsed.
 */
export function cleanSummarizerOutput(text: string): string {
  let out = stripTail(text);
  for (const p of framingEchoPatterns()) out = out.replace(p, "");
  out = out.replace(PROMPT_TAGS, "");
  out = stripCompactionNotes(out);
  out = stripFileOpsTags(out);
  return tidy(out);
}

const STANDING_HEADING = /^(#{1,6})[ \t]*\**[ \t]*standing facts\b[^\n]*$/im;

/** The digest with its "Standing facts & constraints" section first (see the header). */
export function ensureStandingFactsFirst(digest: string): string {
  const d = digest.trim();
  const m = STANDING_HEADING.exec(d);
  if (m === null)
    return d === "" ? COMPACTION_STANDING_FACTS_FALLBACK : `${COMPACTION_STANDING_FACTS_FALLBACK}\n\n${d}`;
  if (m.index === 0) return d;
  const level = (m[1] ?? "#").length;
  const afterHeading = m.index + m[0].length;
  const next = new RegExp(`^#{1,${level}}[ \\t]`, "m").exec(d.slice(afterHeading));
  const end = next === null ? d.length : afterHeading + next.index;
  const section = d.slice(m.index, end).trim();
  const rest = tidy(`${d.slice(0, m.index)}\n\n${d.slice(end)}`);
  return rest === "" ? section : `${section}\n\n${rest}`;
}

export type DigestParts = {
  /** The (cleaned) summary of the history and earlier summaries; may be "". */
  summary: string;
  /** The (cleaned) split-turn prefix summary, when the cut fell inside a turn. */
  splitTurn: string | null;
  /** User turns too long to keep verbatim, folded into this summary. */
  folded: { count: number; tokens: number };
};

/** The digest as stored (before the tail): standing facts first, split turn, folded-paste note. */
export function assembleDigest(parts: DigestParts): string {
  const pieces = [ensureStandingFactsFirst(parts.summary)];
  if (parts.splitTurn !== null && parts.splitTurn.trim() !== "") {
    pieces.push(fillTemplate(COMPACTION_SPLIT_TURN_SECTION, { summary: parts.splitTurn.trim() }));
  }
  if (parts.folded.count > 0) {
    pieces.push(
      fillTemplate(COMPACTION_FOLDED_NOTE, {
        count: String(parts.folded.count),
        tokens: parts.folded.tokens.toLocaleString("en-US"),
      }),
    );
  }
  return pieces.join("\n\n");
}

/** `text` clamped to `max` characters at a word boundary when there is one, with "…". */
export function clampLine(text: string, max: number = SHORT_SUMMARY_MAX_CHARS): string {
  const t = text.replace(/\s+/g, " ").trim();
  if (t.length <= max) return t;
  const { head } = cutChars(t, max - 1);
  const space = head.lastIndexOf(" ");
  const cut = space >= max / 2 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:.-]+$/, "")}…`;
}

const stripLineMarkup = (line: string): string =>
  line
    .replace(/^\s*(#{1,6}\s*|[-*+]\s+|\d+[.)]\s+|>\s*)/, "")
    .replace(/\*\*|__|`/g, "")
    .trim()
    .replace(/^["'“”‘’]+|["'“”‘’]+$/g, "")
    .trim();

/**
 * The summarizer's one-liner, cleaned (first non-empty line, markup and quotes removed, clamped
 * to 120 characters), or null when it is junk: empty, or carrying our tags or echoed framing.
 */
export function cleanShortSummary(raw: string): string | null {
  if (OUR_TAGS.test(raw) || framingEchoPatterns().some((p) => raw.search(p) >= 0)) return null;
  for (const line of raw.split("\n")) {
    const l = stripLineMarkup(line);
    if (l !== "") return clampLine(l);
  }
  return null;
}

/**
 * The fallback one-liner: the first sentence of the digest's "Goal" section when it has one, else
 * of its first prose outside "Standing facts & constraints", else of any prose; clamped. Null if
 * the digest has no prose at all.
 */
export function firstSentence(digest: string): string | null {
  const goal = /^#{1,6}[ \t]*\**[ \t]*goal\b[^\n]*$/im.exec(digest);
  if (goal !== null) {
    const s = firstProseSentence(digest.slice(goal.index + goal[0].length));
    if (s !== null) return s;
  }
  const standing = STANDING_HEADING.exec(digest);
  if (standing !== null) {
    const after = digest.slice(standing.index + standing[0].length);
    const next = /^#{1,6}[ \t]/m.exec(after);
    const s = next === null ? null : firstProseSentence(after.slice(next.index));
    if (s !== null) return s;
  }
  return firstProseSentence(digest);
}

function firstProseSentence(text: string): string | null {
  for (const line of text.split("\n")) {
    if (/^\s*#{1,6}\s/.test(line)) continue;
    const l = stripLineMarkup(line);
    if (l === "") continue;
    const m = /^(.+?[.!?])(\s|$)/.exec(l);
    return clampLine(m?.[1] ?? l);
  }
  return null;
}
