/**
 * The fidelity bench's core (issue 29 item 4): generate a conversation, fold it with Grove's
 * compaction engine the way the app does (the compaction worker's API run in-process, its
 * summarizer calls made through providers/ to a real endpoint — the mock server, or a provider),
 * then check each planted fact in the next request and ask about it.
 *
 * Per fact: `verbatim` — its statement is, character for character, in the context Grove would
 * send next (`buildContext`, the one source of what is sent); `recalled` — the chat model's answer
 * to a probe question, asked exactly as "Check memory" asks (core/compaction/memory-check.ts: the
 * chat's system prompt, the compacted context as text, the question), holds the value, by span
 * first and by a grader request only where it does not. Per run: the tokens after each fold, the
 * per-chat prompt at the head of every chat request (after every fold and in every probe), and
 * what the requests cost (the usage the provider reported, priced by core/cost).
 *
 * Mock and live share all of this; they differ only in the providers and models (targets.ts).
 */
import * as Comlink from "comlink";
import {
  answerPrompt,
  gradeBySpan,
  gradePrompt,
  PROBE_GRADE_SYSTEM,
  parseGrade,
} from "../../src/core/compaction/memory-check";
import { progressGuard } from "../../src/core/compaction/progress-guard";
import { DEFAULT_COMPACTION_SETTINGS, thresholdFor } from "../../src/core/compaction/settings";
import { costOf, priceOf } from "../../src/core/cost/cost";
import { buildContext } from "../../src/core/session/build-context";
import { contextBlockText } from "../../src/core/session/context";
import type { CompactionEntry, Entry } from "../../src/core/session/entries";
import { asEntryId, type EntryId } from "../../src/core/session/ids";
import { planContext } from "../../src/core/session/plan-context";
import { uncountedEntries } from "../../src/core/tokens/entry-tokens";
import type { TokenEncoding } from "../../src/core/tokens/models";
import { stream as providerStream } from "../../src/providers/registry";
import type { ProviderConfig, StreamFn } from "../../src/providers/types";
import { askModel } from "../../src/state/maintenance/side-request";
import type { CompactJob, WorkerApi } from "../../src/worker/api";
import type { WorkerDeps } from "../../src/worker/deps";
import { createWorkerApi } from "../../src/worker/worker-api";
import { type Conversation, type Fact, type FactClass, generateConversation } from "./conversation";

export type ModelRef = { readonly provider: ProviderConfig; readonly model: string };

/** Who summarizes, who answers the probes, who grades — and which model's prices to charge. */
export type FidelityTarget = {
  /** The row's name (the summarizer's behaviour, or the live model). */
  readonly label: string;
  readonly summarizer: ModelRef;
  readonly chat: ModelRef;
  readonly grader: ModelRef;
  /** Requests are priced as this model's; null: as each request's own model. */
  readonly priceModel: string | null;
};

export type FidelitySettings = {
  readonly seed: number;
  /** Fold counts: one run per count, per conversation. */
  readonly folds: readonly number[];
  /** Conversations per fold count (seeds `seed`, `seed + 1`, …). */
  readonly conversations: number;
  /** The chat's (and the summarizer's) small window, in tokens. */
  readonly window: number;
};

export const DEFAULT_FIDELITY_SETTINGS: FidelitySettings = {
  seed: 29,
  folds: [1, 3, 10, 18],
  conversations: 3,
  window: 14_000,
};

/** Tokens are counted as the app counts GPT-4o-class models (and, calibrated, Claude). */
const ENCODING: TokenEncoding = "o200k_base";
/** The summarizer's max output: a small model's. */
const SUMMARIZER_MAX_OUTPUT = 4_096;
/** As state/maintenance/memory-check.ts asks. */
const ANSWER_OUTPUT_TOKENS = 200;
const GRADE_OUTPUT_TOKENS = 16;

export type FactResult = {
  readonly cls: FactClass;
  readonly subject: string;
  /** Its entry was before the kept region when the next request was built (it went through a fold). */
  readonly folded: boolean;
  readonly verbatim: boolean;
  /** null: not asked (the next request would not fit the window: folds failed). */
  readonly recalled: boolean | null;
  /** A contradicted fact answered with its earlier value. */
  readonly stale: boolean;
  readonly answer: string | null;
};

export type RunResult = {
  readonly label: string;
  readonly folds: number;
  readonly seed: number;
  readonly foldsDone: number;
  /** Scheduled folds that wrote nothing, and the first one's reason (the engine's own message). */
  readonly failedFolds: number;
  readonly failure: string | null;
  /** Per fold written: the context's tokens before and after it. */
  readonly tokensBeforeFold: readonly number[];
  readonly tokensAfterFold: readonly number[];
  /**
   * Folds after which the app's progress guard would pause automatic compaction (the context left
   * above 80% of the threshold): the bench folds on its schedule regardless, as "Compact now" would.
   */
  readonly guardPausedAfter: readonly number[];
  /** Tokens of the next request after the last fold (the probes' context). */
  readonly finalTokens: number;
  readonly overWindow: boolean;
  /** Kept user turns dropped for the budget (details.evictedUserTurnIds), over all folds. */
  readonly evictedUserTurns: number;
  /** Chat requests checked for the per-chat prompt at their head, and how many lacked it. */
  readonly chatRequests: number;
  readonly systemPromptMissing: number;
  readonly facts: readonly FactResult[];
  readonly requests: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** US dollars from the reported usage; null when a request's model has no price. */
  readonly usd: number | null;
};

type Meter = { requests: number; input: number; output: number; usd: number | null };

/** The compaction worker's API, in-process, over providers/ — and a meter of every request it makes. */
export type FidelityWorld = {
  readonly api: WorkerApi;
  /** The provider stream the API uses, metered: probe questions are sent through it too. */
  readonly stream: StreamFn;
  readonly meter: () => Meter;
  /** A fresh meter, pricing requests as `priceModel` (null: as each request's own model). */
  readonly reset: (priceModel: string | null) => void;
};

export function createFidelityWorld(overrides: Partial<WorkerDeps> = {}): FidelityWorld {
  let meter: Meter = { requests: 0, input: 0, output: 0, usd: 0 };
  let priceModel: string | null = null;
  const inner = overrides.stream ?? providerStream;
  const metered: StreamFn = async function* (req) {
    for await (const event of inner(req)) {
      if (event.type === "done" || event.type === "error") {
        meter.requests++;
        const usage = event.partial.usage;
        if (usage) {
          meter.input += usage.input;
          meter.output += usage.output;
          const price = priceOf(priceModel ?? req.model);
          meter.usd = price && meter.usd !== null ? meter.usd + costOf(usage, price) : null;
        }
      }
      yield event;
    }
  };
  const api = createWorkerApi({ ...overrides, stream: metered });
  return {
    api,
    stream: metered,
    meter: () => ({ ...meter }),
    reset: (model) => {
      meter = { requests: 0, input: 0, output: 0, usd: 0 };
      priceModel = model;
    },
  };
}

const noProgress = Comlink.proxy(() => {});

const contextText = (ctx: ReturnType<typeof buildContext>): string =>
  [ctx.system, ...ctx.messages.flatMap((m) => m.content.map(contextBlockText))].join("\n");

/** The question a probe asks about a fact (the mock's reader parses this shape). */
const probeQuestion = (fact: Pick<Fact, "subject">): string => `What is the ${fact.subject}?`;

const normalized = (s: string): string =>
  ` ${s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()} `;

/** One conversation folded `folds` times, then checked and probed. */
async function runConversation(
  world: FidelityWorld,
  target: FidelityTarget,
  settings: FidelitySettings,
  folds: number,
  seed: number,
): Promise<RunResult> {
  world.reset(target.priceModel);
  const conv: Conversation = generateConversation(seed, folds);
  const build = { systemPrompt: conv.chatPrompt, targetApi: target.chat.provider.api };
  const hasChatPrompt = (system: string): boolean => system.startsWith(conv.chatPrompt);
  let path: Entry[] = [];
  const before: number[] = [];
  const after: number[] = [];
  const guardPaused: number[] = [];
  const threshold = thresholdFor(settings.window, DEFAULT_COMPACTION_SETTINGS);
  let failure: string | null = null;
  let failedFolds = 0;
  let evicted = 0;
  let chatRequests = 0;
  let systemPromptMissing = 0;
  const checkRequest = (system: string): void => {
    chatRequests++;
    if (!hasChatPrompt(system)) systemPromptMissing++;
  };

  // Per-entry counts, as the app stores them (the tokenCounts cache), so planning reads no text.
  const counted = new Map<EntryId, number>();
  for (const [t, turn] of conv.turns.entries()) {
    // Chained to whatever is at the leaf now (a compaction entry after a fold), as the app appends.
    for (const e of turn) path.push({ ...e, parentId: path.at(-1)?.id ?? null });
    if (!conv.foldAfter.includes(t)) continue;
    const fresh = await world.api.countEntries(ENCODING, uncountedEntries(path, counted));
    for (const [id, n] of Object.entries(fresh)) counted.set(id as EntryId, n);
    const tokensBefore = await world.api.contextTokens(path, build, ENCODING);
    const job: CompactJob = {
      path,
      reason: "threshold",
      settings: DEFAULT_COMPACTION_SETTINGS,
      systemPrompt: conv.chatPrompt,
      targetApi: target.chat.provider.api,
      contextWindow: settings.window,
      encoding: ENCODING,
      countScale: 1,
      entryCounts: Object.fromEntries(counted),
      summarizer: {
        provider: target.summarizer.provider,
        model: target.summarizer.model,
        contextWindow: settings.window,
        maxOutput: SUMMARIZER_MAX_OUTPUT,
      },
    };
    const outcome = await world.api.compact(job, noProgress);
    if (outcome.kind !== "done") {
      // Nothing is written; the chat goes on and the next scheduled fold tries again, as the app's
      // threshold does after the next reply.
      failedFolds++;
      failure ??=
        outcome.kind === "failed"
          ? outcome.error
          : outcome.kind === "nothing_to_compact"
            ? outcome.reason
            : outcome.kind;
      checkRequest(buildContext(path, build).system);
      continue;
    }
    const leaf = path.at(-1);
    const entry: CompactionEntry = {
      ...outcome.entry,
      id: asEntryId(`${conv.sessionId}-fold${after.length + 1}`),
      sessionId: conv.sessionId,
      parentId: leaf?.id ?? null,
      createdAt: (leaf?.createdAt ?? 0) + 0.5,
    };
    path = [...path, entry];
    before.push(tokensBefore);
    after.push(outcome.tokensAfter);
    if (progressGuard(outcome.tokensAfter, threshold)) guardPaused.push(after.length);
    const details = outcome.entry.details as { evictedUserTurnIds?: readonly unknown[] } | undefined;
    evicted += details?.evictedUserTurnIds?.length ?? 0;
    // The next request after this fold.
    checkRequest(buildContext(path, build).system);
  }

  const next = buildContext(path, build);
  const nextText = contextText(next);
  const finalTokens = await world.api.countContext(next, ENCODING);
  const overWindow = finalTokens > settings.window;
  const keptStart = planContext(path).keptStart;
  const index = new Map(path.map((e, i) => [e.id, i]));
  const ask = !overWindow;

  const facts: FactResult[] = [];
  for (const fact of conv.facts) {
    const at = index.get(fact.entryId) ?? Number.POSITIVE_INFINITY;
    const base = {
      cls: fact.cls,
      subject: fact.subject,
      folded: at < keptStart,
      verbatim: nextText.includes(fact.statement),
    };
    if (!ask) {
      facts.push({ ...base, recalled: null, stale: false, answer: null });
      continue;
    }
    const question = probeQuestion(fact);
    checkRequest(next.system);
    // Asked as "Check memory" asks it: the chat's next request replayed, the question appended.
    const asked = { role: "user" as const, content: [{ type: "text" as const, text: answerPrompt(question) }] };
    const answer = (
      await askModel(
        {
          provider: target.chat.provider,
          model: target.chat.model,
          context: { ...next, messages: [...next.messages, asked] },
          maxOutputTokens: ANSWER_OUTPUT_TOKENS,
        },
        world.stream,
      )
    ).text.trim();
    let recalled = gradeBySpan(answer, fact.value) === "recalled";
    if (!recalled) {
      const probe = { question, span: fact.value, source: { index: 1, entryId: fact.entryId, text: fact.statement } };
      const verdict = await world.api.summarize(
        {
          provider: target.grader.provider,
          model: target.grader.model,
          system: PROBE_GRADE_SYSTEM,
          prompt: gradePrompt(probe, answer),
          maxOutputTokens: GRADE_OUTPUT_TOKENS,
        },
        noProgress,
      );
      recalled = parseGrade(verdict);
    }
    const stale = !recalled && fact.stale !== undefined && normalized(answer).includes(normalized(fact.stale.value));
    facts.push({ ...base, recalled, stale, answer });
  }

  const m = world.meter();
  return {
    label: target.label,
    folds,
    seed,
    foldsDone: after.length,
    failedFolds,
    failure,
    tokensBeforeFold: before,
    tokensAfterFold: after,
    guardPausedAfter: guardPaused,
    finalTokens,
    overWindow,
    evictedUserTurns: evicted,
    chatRequests,
    systemPromptMissing,
    facts,
    requests: m.requests,
    inputTokens: m.input,
    outputTokens: m.output,
    usd: m.usd,
  };
}

/** Every target × fold count × conversation, in that order; `onRun` sees each result as it lands. */
export async function runFidelity(
  world: FidelityWorld,
  targets: readonly FidelityTarget[],
  settings: FidelitySettings,
  onRun: (r: RunResult) => void = () => {},
): Promise<RunResult[]> {
  const out: RunResult[] = [];
  for (const target of targets) {
    for (const folds of settings.folds) {
      for (let c = 0; c < settings.conversations; c++) {
        const r = await runConversation(world, target, settings, folds, settings.seed + c);
        onRun(r);
        out.push(r);
      }
    }
  }
  return out;
}
