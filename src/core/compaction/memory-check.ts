/**
 * "Check memory" on a compaction card (issue 29): what the model still knows of what was folded.
 * Pure parts only — the side requests are made by state/maintenance/memory-check.ts:
 *
 * 1. `probeSources`: the passages a probe may be about — assistant text and tool output the
 *    compaction folded (everything before its kept region). Never floor-protected text: user
 *    messages, pinned messages, and the `<verbatim_tail>` are carried word for word, so asking
 *    about them measures nothing (`protectedText` is what a span must not come from).
 * 2. `draftPrompt` / `parseProbes`: the summarizer drafts questions with an exact source span;
 *    a probe is kept only if its span occurs, character for character, in the passage it names
 *    and not in protected text.
 * 3. `gradeBySpan`: an answer that contains the span (case, spacing and punctuation aside) is
 *    recalled; otherwise a grader request decides (`gradePrompt`, `parseGrade`).
 */
import memoryProbeAnswerRaw from "../../../prompts/memory-probe-answer.md?raw";
import memoryProbeDraftRaw from "../../../prompts/memory-probe-draft.md?raw";
import memoryProbeGradeRaw from "../../../prompts/memory-probe-grade.md?raw";
import memoryProbeGradeSystemRaw from "../../../prompts/memory-probe-grade-system.md?raw";
import memoryProbeSystemRaw from "../../../prompts/memory-probe-system.md?raw";
import { fillTemplate } from "../prompts-context";
import { contextBlockText, type LlmContext } from "../session/context";
import type { CompactionEntry, Entry, MessageEntry } from "../session/entries";
import { blockText } from "../session/entry-text";
import type { EntryId } from "../session/ids";
import { isSkippedMessage, planContext } from "../session/plan-context";
import { extractTail } from "./verbatim-tail";

export const PROBE_SYSTEM = memoryProbeSystemRaw.trim();
const PROBE_DRAFT = memoryProbeDraftRaw.trim();
const PROBE_ANSWER = memoryProbeAnswerRaw.trim();
export const PROBE_GRADE_SYSTEM = memoryProbeGradeSystemRaw.trim();
const PROBE_GRADE = memoryProbeGradeRaw.trim();

/** Probes asked by default (issue 29). */
export const DEFAULT_PROBE_COUNT = 5;
/** A passage is cut to this many characters in the drafting prompt. */
const SOURCE_MAX_CHARS = 4_000;

export type ProbeSource = { readonly index: number; readonly entryId: EntryId; readonly text: string };
export type Probe = { readonly question: string; readonly span: string; readonly source: ProbeSource };

/** What a message puts in the conversation as text (tool calls and results included, thinking not). */
function messageBodyText(e: MessageEntry): string {
  return e.content
    .map((b) => (b.type === "tool_call" ? null : blockText(b, { thinking: "drop" })))
    .filter((t): t is string => t !== null && t.trim() !== "")
    .join("\n\n");
}

/** The path up to and including the compaction (it need not be the leaf). */
function pathTo(path: readonly Entry[], compaction: CompactionEntry): readonly Entry[] {
  const at = path.findIndex((e) => e.id === compaction.id);
  return at < 0 ? path : path.slice(0, at + 1);
}

/** Text the floor carries word for word under this compaction: user messages, pins, the tail. */
export function protectedText(path: readonly Entry[], compaction: CompactionEntry): string[] {
  const upTo = pathTo(path, compaction);
  const plan = planContext(upTo);
  const out: string[] = [];
  for (const e of upTo.slice(0, plan.keptStart)) {
    if (e.type !== "message") continue;
    if (e.role === "user" || plan.pinnedIds.has(e.id)) out.push(messageBodyText(e));
  }
  const tail = extractTail(compaction.summary);
  if (tail) out.push(tail);
  return out;
}

/** The folded passages a probe may be about (assistant text, tool output), path order, numbered from 1. */
export function probeSources(path: readonly Entry[], compaction: CompactionEntry): ProbeSource[] {
  const upTo = pathTo(path, compaction);
  const plan = planContext(upTo);
  const out: ProbeSource[] = [];
  for (const e of upTo.slice(0, plan.keptStart)) {
    if (e.type !== "message" || e.role === "user" || plan.pinnedIds.has(e.id) || isSkippedMessage(e)) continue;
    const text = messageBodyText(e);
    if (text.trim() === "") continue;
    out.push({ index: out.length + 1, entryId: e.id, text });
  }
  return out;
}

/** The drafting prompt: numbered passages (each cut to SOURCE_MAX_CHARS). */
export function draftPrompt(sources: readonly ProbeSource[], count = DEFAULT_PROBE_COUNT): string {
  const body = sources
    .map((s) => `<passage number="${s.index}">\n${s.text.slice(0, SOURCE_MAX_CHARS)}\n</passage>`)
    .join("\n\n");
  return fillTemplate(PROBE_DRAFT, { count: String(count), sources: body });
}

const normalize = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * The probes in the summarizer's answer that can be checked: a JSON array (possibly fenced or with
 * prose around it) of `{question, span, source}`; a probe is dropped when its span is not in the
 * passage it names (exactly), when it also occurs in protected text, or when it repeats a span.
 */
export function parseProbes(
  raw: string,
  sources: readonly ProbeSource[],
  protectedTexts: readonly string[],
  count = DEFAULT_PROBE_COUNT,
): Probe[] {
  const start = raw.indexOf("[");
  const end = raw.lastIndexOf("]");
  if (start < 0 || end <= start) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.slice(start, end + 1));
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const byIndex = new Map(sources.map((s) => [s.index, s]));
  const seen = new Set<string>();
  const out: Probe[] = [];
  for (const item of parsed) {
    if (out.length >= count) break;
    if (typeof item !== "object" || item === null) continue;
    const { question, span, source } = item as Record<string, unknown>;
    if (typeof question !== "string" || typeof span !== "string" || typeof source !== "number") continue;
    const src = byIndex.get(source);
    const s = span.trim();
    if (!src || s === "" || question.trim() === "" || !src.text.includes(s)) continue;
    if (protectedTexts.some((t) => t.includes(s))) continue;
    const key = normalize(s);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ question: question.trim(), span: s, source: src });
  }
  return out;
}

/** A built context's messages as role-tagged text: what a probe question is asked against. */
export function probeContextText(ctx: LlmContext): string {
  return ctx.messages
    .map((m) => `[${m.role === "user" ? "User" : "Assistant"}]\n${m.content.map(contextBlockText).join("\n\n")}`)
    .join("\n\n");
}

/** The question as asked of the chat model: the compacted context, as text, then the question. */
export function answerPrompt(contextText: string, question: string): string {
  return fillTemplate(PROBE_ANSWER, { context: contextText, question });
}

export type SpanGrade = "recalled" | "ask_grader";

/** Exact span match first: the answer contains the span (case, spacing, punctuation aside). */
export function gradeBySpan(answer: string, span: string): SpanGrade {
  const s = normalize(span);
  return s !== "" && ` ${normalize(answer)} `.includes(` ${s} `) ? "recalled" : "ask_grader";
}

export function gradePrompt(probe: Probe, answer: string): string {
  return fillTemplate(PROBE_GRADE, { span: probe.span, question: probe.question, answer });
}

/** The grader's verdict: YES (recalled) or anything else (not). */
export const parseGrade = (raw: string): boolean => /^\W*yes\b/i.test(raw.trim());

export type ProbeResult = {
  readonly probe: Probe;
  readonly answer: string;
  readonly recalled: boolean;
  /** How it was graded: the span was in the answer, or a grader request decided. */
  readonly gradedBy: "span" | "grader";
};
