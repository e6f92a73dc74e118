/**
 * "Check memory" on a compaction card (issue 29): probes drafted by the summary model from what
 * the compaction folded, asked of the chat model against the compacted context, graded by span
 * (a grader request only where the span is not in the answer). Side requests only: nothing is
 * appended to the tree, and nothing runs unless the user presses the button. The pure rules are
 * core/compaction/memory-check.ts; this module reads the path, makes the calls and keeps the
 * result per compaction for the card.
 */
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
  probeContextText,
  probeSources,
  protectedText,
} from "../../core/compaction/memory-check";
import { priceOf } from "../../core/cost/cost";
import type { Price } from "../../core/cost/prices";
import type { BuildContextOptions } from "../../core/session/build-context";
import type { CompactionEntry, Entry } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { errorText } from "../../core/session/message-error";
import { estimateTokens } from "../../core/tokens/estimate";
import { getSessionPath } from "../../db/entries";
import { type SummarizeRequest, summarizeInWorker } from "../../worker/client";
import { defineStore } from "../app/store-registry";
import { buildCounted } from "../context/context-builds";
import { chatTarget, isTargetError, summarizerTarget } from "../models/chat-target";
import { useSettingsStore } from "../settings/settings-store";

const DRAFT_OUTPUT_TOKENS = 1_200;
const ANSWER_OUTPUT_TOKENS = 200;
const GRADE_OUTPUT_TOKENS = 16; // OpenAI refuses fewer

type MemoryCheckResult = {
  readonly results: readonly ProbeResult[];
  /** US dollars of the check's requests, from their token counts (estimated); null without a price. */
  readonly usd: number | null;
  readonly requests: number;
};

export type MemoryCheckState =
  | { readonly status: "running"; readonly step: string }
  | { readonly status: "done"; readonly result: MemoryCheckResult }
  | { readonly status: "failed"; readonly message: string };

/** The last check of each compaction (by its id), for the card. */
export const useMemoryCheckStore = defineStore<{ checks: Record<string, MemoryCheckState> }>(() => ({ checks: {} }));

const setCheck = (id: EntryId, state: MemoryCheckState): void =>
  useMemoryCheckStore.setState((s) => ({ checks: { ...s.checks, [id]: state } }));

export type MemoryCheckDeps = { summarize: (req: SummarizeRequest) => Promise<string> };

/** The compacted context as the chat model is asked against it: its messages as role-tagged text. */
function compactedContext(path: readonly Entry[], systemPrompt: string, api: BuildContextOptions["targetApi"]) {
  const ctx = buildCounted(path, { systemPrompt, targetApi: api });
  return { system: ctx.system, text: probeContextText(ctx) };
}

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
 * answer per probe over the compacted context, one grader call per probe (the most it can take).
 */
function estimateMemoryCheck(
  path: readonly Entry[],
  compaction: CompactionEntry,
  models: { chat: string; summary: string; systemPrompt: string },
  count = DEFAULT_PROBE_COUNT,
): MemoryCheckEstimate {
  const sources = probeSources(path, compaction);
  const draftIn = estimateTokens(draftPrompt(sources, count));
  const context = compactedContext(path, models.systemPrompt, "openai-chat");
  const answerIn = estimateTokens(context.system) + estimateTokens(context.text) + 100;
  const sp = priceOf(models.summary);
  const cp = priceOf(models.chat);
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
  return estimateMemoryCheck(path, compaction, {
    chat: chat.modelId,
    summary: summary.modelId,
    systemPrompt: chat.systemPrompt,
  });
}

/** Runs the check for `compactionId` on the chat's current path; the card reads the store. */
export async function runMemoryCheck(
  sessionId: SessionId,
  compactionId: EntryId,
  deps: MemoryCheckDeps = { summarize: (req) => summarizeInWorker(req) },
  count = DEFAULT_PROBE_COUNT,
): Promise<MemoryCheckState> {
  const done = (state: MemoryCheckState): MemoryCheckState => {
    setCheck(compactionId, state);
    return state;
  };
  try {
    setCheck(compactionId, { status: "running", step: "Drafting questions…" });
    const settings = useSettingsStore.getState().settings;
    const { session, path, compaction } = await readUpTo(sessionId, compactionId);
    const chat = chatTarget(session, settings);
    if (isTargetError(chat)) throw new Error(chat.message);
    const summary = summarizerTarget(chat, settings);
    const sources = probeSources(path, compaction);
    if (sources.length === 0) {
      return done({ status: "failed", message: "Nothing to check: this compaction folded no replies or tool output." });
    }
    let usd: number | null = 0;
    let requests = 0;
    const call = async (req: SummarizeRequest, price: Price | undefined): Promise<string> => {
      requests++;
      const out = await deps.summarize(req);
      usd = add(usd, cost(estimateTokens(req.system) + estimateTokens(req.prompt), estimateTokens(out), price));
      return out;
    };
    const draftRaw = await call(
      {
        provider: summary.provider,
        model: summary.modelId,
        system: PROBE_SYSTEM,
        prompt: draftPrompt(sources, count),
        maxOutputTokens: DRAFT_OUTPUT_TOKENS,
      },
      priceOf(summary.modelId),
    );
    const probes = parseProbes(draftRaw, sources, protectedText(path, compaction), count);
    if (probes.length === 0) {
      return done({
        status: "failed",
        message: "The summary model drafted no question that could be checked against the source.",
      });
    }
    const context = compactedContext(path, chat.systemPrompt, chat.api);
    const results: ProbeResult[] = [];
    for (const [i, probe] of probes.entries()) {
      setCheck(compactionId, { status: "running", step: `Asking question ${i + 1} of ${probes.length}…` });
      const answer = (
        await call(
          {
            provider: chat.provider,
            model: chat.modelId,
            system: context.system,
            prompt: answerPrompt(context.text, probe.question),
            maxOutputTokens: ANSWER_OUTPUT_TOKENS,
          },
          priceOf(chat.modelId),
        )
      ).trim();
      if (gradeBySpan(answer, probe.span) === "recalled") {
        results.push({ probe, answer, recalled: true, gradedBy: "span" });
        continue;
      }
      const verdict = await call(
        {
          provider: summary.provider,
          model: summary.modelId,
          system: PROBE_GRADE_SYSTEM,
          prompt: gradePrompt(probe, answer),
          maxOutputTokens: GRADE_OUTPUT_TOKENS,
        },
        priceOf(summary.modelId),
      );
      results.push({ probe, answer, recalled: parseGrade(verdict), gradedBy: "grader" });
    }
    return done({ status: "done", result: { results, usd, requests } });
  } catch (e) {
    return done({ status: "failed", message: errorText(e) });
  }
}
