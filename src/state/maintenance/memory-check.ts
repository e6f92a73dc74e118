/**
 * "Check memory" on a compaction card (issue 29): probes drafted by the summary model from what
 * the compaction folded, asked of the chat model against the compacted context, graded by span
 * (a grader request only where the span is not in the answer). Side requests only: nothing is
 * appended to the tree, and nothing runs unless the user presses the button. The pure rules are
 * core/compaction/memory-check.ts; this module reads the path, makes the calls and keeps the
 * result per compaction for the card.
 *
 * Each question is asked as a replay of the chat's next request (`probeRequest`): the request the
 * send path would build for the path up to the compaction (`requestFor`: same system prompt, same
 * messages, for the chat's api and provider), with the question appended as the last user
 * message — the model answers from exactly what it would be sent, not from a flattened copy.
 * The prompts are the user's if changed (Settings → Prompts). What a run's requests reported is
 * recorded once when it ends (db/memory-check-costs.ts), for Spending and Chat info.
 */
import { uuidv7 } from "uuidv7";
import {
  answerPrompt,
  DEFAULT_PROBE_COUNT,
  draftPrompt,
  gradeBySpan,
  gradePrompt,
  PROBE_GRADE_SYSTEM,
  PROBE_SYSTEM,
  type ProbeResult,
  parseGrade,
  parseProbes,
  probeSources,
  protectedText,
} from "../../core/compaction/memory-check";
import { costOf, priceOf } from "../../core/cost/cost";
import type { Price } from "../../core/cost/prices";
import { withModelUsage } from "../../core/cost/side-usage";
import { resolvePrompt } from "../../core/prompt-overrides";
import { contextBlockText, type LlmContext } from "../../core/session/context";
import type { CompactionEntry, Entry, ModelUsage } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { errorText } from "../../core/session/message-error";
import { estimateTokens } from "../../core/tokens/estimate";
import { getSessionPath } from "../../db/entries";
import { recordMemoryCheckCost } from "../../db/memory-check-costs";
import { defineStore } from "../app/store-registry";
import { attachmentDataFor } from "../composer/attachments";
import { requestFor } from "../context/send-context";
import { type ChatTarget, chatTarget, isTargetError, summarizerTarget } from "../models/chat-target";
import { useSettingsStore } from "../settings/settings-store";
import { askModel, type SideAnswer, type SideRequest } from "./side-request";

const DRAFT_OUTPUT_TOKENS = 1_200;
const ANSWER_OUTPUT_TOKENS = 200;
const GRADE_OUTPUT_TOKENS = 16; // OpenAI refuses fewer

type MemoryCheckResult = {
  readonly results: readonly ProbeResult[];
  /** US dollars of the check's requests: from the usage they reported, else estimated; null without a price. */
  readonly usd: number | null;
  readonly requests: number;
  /** The usage the providers reported, per model (what Spending counts). */
  readonly usage: readonly ModelUsage[];
  /** Set when the run's cost could not be recorded for Spending: why. */
  readonly unrecorded?: string;
};

export type MemoryCheckState =
  | { readonly status: "running"; readonly step: string }
  | { readonly status: "done"; readonly result: MemoryCheckResult }
  | { readonly status: "failed"; readonly message: string };

/** The last check of each compaction (by its id), for the card. */
export const useMemoryCheckStore = defineStore<{ checks: Record<string, MemoryCheckState> }>(() => ({ checks: {} }));

const setCheck = (id: EntryId, state: MemoryCheckState): void =>
  useMemoryCheckStore.setState((s) => ({ checks: { ...s.checks, [id]: state } }));

export type MemoryCheckDeps = {
  ask: (req: SideRequest) => Promise<SideAnswer>;
  /** When the run's cost is recorded (ms); Date.now by default. */
  now?: () => number;
};

const userText = (text: string): LlmContext["messages"][number] => ({
  role: "user",
  content: [{ type: "text", text }],
});

/**
 * The request a probe question is asked with: the chat's next request for `path` (what the send
 * path builds, `requestFor`), plus the question as the last user message. Pure but for the build.
 */
function probeRequest(path: readonly Entry[], chat: ChatTarget, question: string): LlmContext {
  const next = requestFor(path, chat);
  const template = resolvePrompt("probe-answer", useSettingsStore.getState().settings.prompts);
  return { ...next, messages: [...next.messages, userText(answerPrompt(question, template))] };
}

/** A request's text, for estimating its tokens before it is sent. */
const requestText = (ctx: LlmContext): string =>
  [ctx.system, ...ctx.messages.flatMap((m) => m.content.map(contextBlockText))].join("\n\n");

/** The path up to and including the compaction, read now. */
async function readUpTo(sessionId: SessionId, compactionId: EntryId) {
  const read = await getSessionPath(sessionId);
  if (!read) throw new Error("The chat no longer exists.");
  const at = read.path.findIndex((e) => e.id === compactionId);
  const compaction = read.path[at];
  if (compaction?.type !== "compaction") throw new Error("That compaction is not on the chat's current path.");
  return { session: read.session, path: read.path.slice(0, at + 1), compaction };
}

export type MemoryCheckEstimate = { readonly requests: number; readonly tokens: number; readonly usd: number | null };

const cost = (input: number, output: number, price: Price | undefined): number | null =>
  price ? (input * price.input + output * price.output) / 1_000_000 : null;
const add = (x: number | null, y: number | null): number | null => (x === null || y === null ? null : x + y);

/**
 * What a check will cost at most, before it runs: one drafting call over the folded passages, one
 * answer per probe over the chat's next request, one grader call per probe (the most it can take).
 */
function estimateMemoryCheck(
  path: readonly Entry[],
  compaction: CompactionEntry,
  chat: ChatTarget,
  summaryModel: string,
  count = DEFAULT_PROBE_COUNT,
): MemoryCheckEstimate {
  const prompts = useSettingsStore.getState().settings.prompts;
  const sources = probeSources(path, compaction);
  const draftIn = estimateTokens(draftPrompt(sources, count, resolvePrompt("probe-draft", prompts)));
  const answerIn = estimateTokens(requestText(probeRequest(path, chat, "")));
  const sp = priceOf(summaryModel);
  const cp = priceOf(chat.modelId);
  let usd = cost(draftIn, DRAFT_OUTPUT_TOKENS, sp);
  usd = add(usd, cost(answerIn * count, ANSWER_OUTPUT_TOKENS * count, cp));
  usd = add(usd, cost(200 * count, GRADE_OUTPUT_TOKENS * count, sp));
  return { requests: 1 + 2 * count, tokens: draftIn + answerIn * count + 200 * count, usd };
}

/** The estimate for the card, before anything runs (reads the path; no request). */
export async function memoryCheckEstimateFor(
  sessionId: SessionId,
  compactionId: EntryId,
): Promise<MemoryCheckEstimate> {
  const settings = useSettingsStore.getState().settings;
  const { session, path, compaction } = await readUpTo(sessionId, compactionId);
  const chat = chatTarget(session, settings);
  if (isTargetError(chat)) throw new Error(chat.message);
  const summary = summarizerTarget(chat, settings);
  return estimateMemoryCheck(path, compaction, chat, summary.modelId);
}

const defaultDeps: MemoryCheckDeps = { ask: (req) => askModel(req) };

/** What the requests of one run reported, as they land: the run's cost is recorded from it once, at its end. */
type Meter = { requests: number; usd: number | null; usage: ModelUsage[] };

/**
 * Runs the check for `compactionId` on the chat's current path; the card reads the store. Whatever
 * its requests reported is recorded once when the run ends — done or failed part way, since a
 * request already answered is billed — as a cost of its own for Spending and Chat info
 * (db/memory-check-costs.ts): a fresh id per run, so a re-run is a new cost.
 */
export async function runMemoryCheck(
  sessionId: SessionId,
  compactionId: EntryId,
  deps: MemoryCheckDeps = defaultDeps,
  count = DEFAULT_PROBE_COUNT,
): Promise<MemoryCheckState> {
  const meter: Meter = { requests: 0, usd: 0, usage: [] };
  let state: MemoryCheckState;
  try {
    setCheck(compactionId, { status: "running", step: "Drafting questions…" });
    state = await check(sessionId, compactionId, deps, count, meter);
  } catch (e) {
    state = { status: "failed", message: errorText(e) };
  }
  const unrecorded = await recordCost(sessionId, compactionId, meter, deps.now ?? Date.now);
  if (unrecorded) {
    const note = `Its cost could not be added to Spending: ${unrecorded}`;
    state =
      state.status === "done"
        ? { ...state, result: { ...state.result, unrecorded: note } }
        : state.status === "failed"
          ? { ...state, message: `${state.message} ${note}` }
          : state;
  }
  setCheck(compactionId, state);
  return state;
}

/** Records the run's reported usage (nothing when none was reported); the error's text if the write failed. */
async function recordCost(
  sessionId: SessionId,
  compactionId: EntryId,
  meter: Meter,
  now: () => number,
): Promise<string | null> {
  if (meter.usage.length === 0) return null;
  try {
    await recordMemoryCheckCost({ id: uuidv7(), sessionId, compactionId, createdAt: now(), usage: meter.usage });
    return null;
  } catch (e) {
    return errorText(e);
  }
}

/** The check itself: drafting, the questions, the grading; every request metered into `meter`. */
async function check(
  sessionId: SessionId,
  compactionId: EntryId,
  deps: MemoryCheckDeps,
  count: number,
  meter: Meter,
): Promise<MemoryCheckState> {
  const settings = useSettingsStore.getState().settings;
  const prompts = settings.prompts;
  const { session, path, compaction } = await readUpTo(sessionId, compactionId);
  const chat = chatTarget(session, settings);
  if (isTargetError(chat)) throw new Error(chat.message);
  const summary = summarizerTarget(chat, settings);
  const sources = probeSources(path, compaction);
  if (sources.length === 0) {
    return { status: "failed", message: "Nothing to check: this compaction folded no replies or tool output." };
  }
  const call = async (req: SideRequest): Promise<string> => {
    meter.requests++;
    const out = await deps.ask(req);
    const price = priceOf(req.model);
    if (out.usage) {
      meter.usage = withModelUsage(meter.usage, req.model, out.usage);
      meter.usd = add(meter.usd, price ? costOf(out.usage, price) : null);
    } else {
      meter.usd = add(meter.usd, cost(estimateTokens(requestText(req.context)), estimateTokens(out.text), price));
    }
    return out.text;
  };
  const summaryCall = (system: string, prompt: string, maxOutputTokens: number): SideRequest => ({
    provider: summary.provider,
    model: summary.modelId,
    context: { system, messages: [userText(prompt)] },
    maxOutputTokens,
  });
  const draftRaw = await call(
    summaryCall(PROBE_SYSTEM, draftPrompt(sources, count, resolvePrompt("probe-draft", prompts)), DRAFT_OUTPUT_TOKENS),
  );
  const probes = parseProbes(draftRaw, sources, protectedText(path, compaction), count);
  if (probes.length === 0) {
    return {
      status: "failed",
      message: "The summary model drafted no question that could be checked against the source.",
    };
  }
  const results: ProbeResult[] = [];
  for (const [i, probe] of probes.entries()) {
    setCheck(compactionId, { status: "running", step: `Asking question ${i + 1} of ${probes.length}…` });
    const context = probeRequest(path, chat, probe.question);
    const attachments = await attachmentDataFor(context, chat);
    const answer = (
      await call({
        provider: chat.provider,
        model: chat.modelId,
        context,
        maxOutputTokens: ANSWER_OUTPUT_TOKENS,
        ...(attachments ? { attachments } : {}),
      })
    ).trim();
    if (gradeBySpan(answer, probe.span) === "recalled") {
      results.push({ probe, answer, recalled: true, gradedBy: "span" });
      continue;
    }
    const verdict = await call(
      summaryCall(
        PROBE_GRADE_SYSTEM,
        gradePrompt(probe, answer, resolvePrompt("probe-grade", prompts)),
        GRADE_OUTPUT_TOKENS,
      ),
    );
    results.push({ probe, answer, recalled: parseGrade(verdict), gradedBy: "grader" });
  }
  return {
    status: "done",
    result: { results, usd: meter.usd, requests: meter.requests, usage: meter.usage },
  };
}
