/**
 * The compaction property, runnable from tests (`compaction.property.test.ts`, 1,000 runs) and
 * from a bench (`compactionProperty(10_000)`).
 *
 * A scenario is a random session script: user turns (short facts, CJK runs, emoji, blank text,
 * images, pastes larger than the kept-turn cap or than the summarizer window), assistant replies
 * (text, stopped, failed-and-empty, tool calls with results — sometimes with a reply between a
 * call and its result), branch summaries, handoffs, foreign compaction entries (as an importer
 * would write them: any firstKeptEntryId, any kept ids, junk summaries with tails), and
 * compactions — automatic or "up to here", with or without instructions — each answered by an
 * ADVERSARIAL summarizer (good, junk, empty, echoing framing and tails, overshooting its budget,
 * throwing, aborting).
 *
 * After every compaction that succeeds, the context that would be sent next (`buildContext` on
 * the path plus the new entry) must satisfy every guarantee of DESIGN §4 — see `checkOutcome`.
 * A compaction that fails or is cancelled must say so and carry no entry.
 *
 * Test support, not app code: nothing in the app imports this file. No I/O.
 */
import fc from "fast-check";
import { type CompactionOutcome, runCompaction } from "../compaction/compact";
import { FRAMING_FIRST_SENTENCE, SHORT_SUMMARY_MAX_CHARS } from "../compaction/digest";
import { entryTokensFrom, isCutCandidate, isToolResultEntry, isUserTurn } from "../compaction/entry-text";
import { type CompactionPlan, prepareCompaction } from "../compaction/prepare";
import type { SummarizeRequest } from "../compaction/requests";
import { type CompactionSettings, DEFAULT_COMPACTION_SETTINGS } from "../compaction/settings";
import { extractTail, TAIL_MAX_CHARS } from "../compaction/verbatim-tail";
import { buildContext } from "../session/build-context";
import { contextTokens } from "../session/context-tokens";
import type { Block, CompactionEntry, CompactionReason, Entry, MessageEntry, MessageStatus } from "../session/entries";
import { asEntryId, asSessionId, type EntryId } from "../session/ids";
import { contextText, count, occurrences, SYSTEM } from "./compaction";

// ---- the script -------------------------------------------------------------------------------

export type SummarizerMode = "good" | "junk" | "empty" | "echo" | "overshoot" | "throw" | "throw-short" | "abort";

type UserSpec = { texts: string[]; image: boolean };
type ReplySpec =
  | { kind: "text"; text: string; status: MessageStatus }
  | { kind: "tools"; text: string; results: string[]; between: boolean; together: boolean };

type Step =
  | { kind: "turn"; user: UserSpec; replies: ReplySpec[] }
  | { kind: "branch_summary"; text: string }
  | { kind: "handoff"; text: string }
  | { kind: "foreign_compaction"; summary: string; firstKept: number | null; kept: number[] }
  | {
      kind: "compact";
      modes: SummarizerMode[];
      /** Fraction of the path for "compact up to here"; null = automatic cut. */
      upTo: number | null;
      instructions: string | null;
      junk: string;
    };

export type Scenario = {
  steps: Step[];
  settings: CompactionSettings;
  contextWindow: number;
  summarizerWindow: number;
};

const word = fc.constantFrom("alpha", "beta", "deploy", "eu-west-3", "never", "always", "café", "x=1;", "naïve", "→");
const cjk = fc.constantFrom("日本語のテキスト", "中文字符", "한국어", "漢字かな交じり");
const emoji = fc.constantFrom("👍", "👨‍👩‍👧‍👦", "🇫🇷", "𝒳");

/** Text: a few words, sometimes CJK or emoji runs; `tag` makes it recognizable. */
const phrase = (tag: string): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.array(
        fc.oneof({ weight: 6, arbitrary: word }, { weight: 2, arbitrary: cjk }, { weight: 1, arbitrary: emoji }),
        {
          minLength: 1,
          maxLength: 12,
        },
      ),
      fc.nat(9999),
    )
    .map(([ws, n]) => `${tag}-${n} ${ws.join(" ")}`);

/** Text of roughly `min`–`max` tokens (estimate: 4 characters per token). */
const sized = (min: number, max: number): fc.Arbitrary<string> =>
  fc.tuple(fc.integer({ min, max }), fc.constantFrom("p", "q ", "lorem ", "漢")).map(([n, unit]) => {
    const chars = unit === "漢" ? n : n * 4;
    return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
  });

const userSpec: fc.Arbitrary<UserSpec> = fc.record({
  texts: fc.oneof(
    { weight: 8, arbitrary: fc.array(phrase("fact"), { minLength: 1, maxLength: 2 }) },
    { weight: 1, arbitrary: fc.constant([" "]).map((t) => [...t]) },
    { weight: 2, arbitrary: sized(150, 600).map((t) => [`PASTE ${t}`]) },
    { weight: 1, arbitrary: sized(2_000, 6_000).map((t) => [`HUGE ${t}`]) },
  ),
  image: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});

const replySpec: fc.Arbitrary<ReplySpec> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("text" as const),
      text: fc.oneof(phrase("reply"), sized(20, 300), sized(400, 900)),
      status: fc.constantFrom<MessageStatus>("complete", "complete", "complete", "stopped", "interrupted", "error"),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("tools" as const),
      text: fc.oneof(fc.constant(""), phrase("calling")),
      results: fc.array(fc.oneof(phrase("out"), sized(50, 900)), { minLength: 1, maxLength: 3 }),
      between: fc.boolean(),
      together: fc.boolean(),
    }),
  },
);

const mode = fc.constantFrom<SummarizerMode>(
  "good",
  "good",
  "good",
  "junk",
  "echo",
  "echo",
  "overshoot",
  "empty",
  "throw",
  "throw-short",
  "abort",
);

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant("turn" as const),
      user: userSpec,
      replies: fc.array(replySpec, { minLength: 0, maxLength: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("branch_summary" as const), text: phrase("branch") }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("handoff" as const), text: phrase("handoff") }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("foreign_compaction" as const),
      summary: fc.oneof(
        phrase("imported"),
        phrase("imported").map((t) => `${t}\n<verbatim_tail>\nold\n</verbatim_tail>`),
        fc.constant("## Standing facts & constraints\n- imported"),
      ),
      firstKept: fc.option(fc.nat(200)),
      kept: fc.array(fc.nat(200), { maxLength: 4 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("compact" as const),
      modes: fc.array(mode, { minLength: 1, maxLength: 4 }),
      upTo: fc.option(fc.double({ min: 0.3, max: 1, noNaN: true }), { freq: 4 }),
      instructions: fc.option(fc.constantFrom("Focus on the deployment facts.", "Keep it short; mention 日本語."), {
        freq: 2,
      }),
      junk: fc.string({ maxLength: 80, unit: "grapheme" }),
    }),
  },
);

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    steps: fc.array(step, { minLength: 1, maxLength: 30 }),
    keepRecentTokens: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 400 })),
    keptUserTurnMaxTokens: fc.integer({ min: 20, max: 800 }),
    keptUserTurnsBudget: fc.option(fc.integer({ min: 0, max: 1_500 })),
    reserveTokens: fc.constantFrom(1_000, 4_000, 16_384),
    contextWindow: fc.constantFrom(4_000, 14_000, 200_000),
    summarizerWindow: fc.constantFrom(3_000, 6_000, 14_000, 200_000),
  })
  .map((r) => ({
    steps: r.steps,
    settings: {
      ...DEFAULT_COMPACTION_SETTINGS,
      keepRecentTokens: r.keepRecentTokens,
      keptUserTurnMaxTokens: r.keptUserTurnMaxTokens,
      keptUserTurnsBudget: r.keptUserTurnsBudget,
      reserveTokens: r.reserveTokens,
    },
    contextWindow: r.contextWindow,
    summarizerWindow: r.summarizerWindow,
  }));

// ---- running a script -------------------------------------------------------------------------

const SESSION = asSessionId("prop-session");
const BUILD = { systemPrompt: SYSTEM, targetApi: "anthropic-messages" as const };

class PathBuilder {
  readonly path: Entry[] = [];
  private n = 0;
  private calls = 0;

  private base(): { id: EntryId; sessionId: typeof SESSION; parentId: EntryId | null; createdAt: number } {
    this.n++;
    return {
      id: asEntryId(`e${this.n}`),
      sessionId: SESSION,
      parentId: this.path.at(-1)?.id ?? null,
      createdAt: this.n,
    };
  }

  push(make: (b: ReturnType<PathBuilder["base"]>) => Entry): void {
    this.path.push(make(this.base()));
  }

  message(role: MessageEntry["role"], content: Block[], status: MessageStatus = "complete"): void {
    this.push((b) => ({ ...b, type: "message", role, content, status }));
  }

  callId(): string {
    this.calls++;
    return `call-${this.calls}`;
  }

  append(entry: Omit<CompactionEntry, "id" | "sessionId" | "parentId" | "createdAt">): void {
    this.push((b) => ({ ...entry, ...b }));
  }
}

function runTurn(b: PathBuilder, s: Extract<Step, { kind: "turn" }>): void {
  const content: Block[] = s.user.texts.map((text) => ({ type: "text", text }));
  if (s.user.image) content.push({ type: "image", blobId: "blob" as never, mimeType: "image/png" });
  b.message("user", content);
  for (const r of s.replies) {
    if (r.kind === "text") {
      b.message("assistant", r.status === "error" ? [] : [{ type: "text", text: r.text }], r.status);
      continue;
    }
    const ids = r.results.map(() => b.callId());
    const calls: Block[] = ids.map((id) => ({ type: "tool_call", id, name: "run", args: { cmd: id } }));
    b.message("assistant", r.text === "" ? calls : [{ type: "text", text: r.text }, ...calls]);
    if (r.between) b.message("assistant", [{ type: "text", text: "still working" }]);
    const results: Block[] = ids.map((id, i) => ({
      type: "tool_result",
      callId: id,
      toolName: "run",
      text: r.results[i] ?? "",
      isError: i === 1,
    }));
    if (r.together) b.message("tool", results);
    else for (const res of results) b.message("tool", [res]);
  }
}

function foreignCompaction(b: PathBuilder, s: Extract<Step, { kind: "foreign_compaction" }>): void {
  const { path } = b;
  if (path.length === 0 || path.at(-1)?.type === "compaction") return;
  const pick = (i: number): EntryId => path[i % path.length]?.id ?? asEntryId("bogus");
  const users = path.filter((e) => e.type === "message" && e.role === "user");
  b.append({
    type: "compaction",
    summary: s.summary,
    shortSummary: "imported",
    firstKeptEntryId: s.firstKept === null ? null : s.firstKept > 150 ? asEntryId("bogus") : pick(s.firstKept),
    keptUserTurnIds: s.kept.map((i) => users[i % Math.max(1, users.length)]?.id ?? asEntryId("bogus")),
    tokensBefore: 0,
    tokensAfter: 0,
    reason: "manual",
    model: "imported",
  });
}

/** A summarizer answering each call by the next mode in `modes` (cycled), recording requests. */
function adversary(modes: SummarizerMode[], junk: string, ctl: AbortController) {
  const requests: SummarizeRequest[] = [];
  const summarize = async (req: SummarizeRequest): Promise<string> => {
    const m = modes[requests.length % modes.length] ?? "good";
    requests.push(req);
    switch (m) {
      case "good":
        return req.purpose === "short-summary"
          ? "Deploy work; facts recorded"
          : `## Standing facts & constraints\n- ${junk}\n\n## Goal\nKeep going.`;
      case "junk":
        return `${junk} ${"ж".repeat(junk.length % 7)}x`;
      case "empty":
        return "";
      case "echo":
        return [
          FRAMING_FIRST_SENTENCE,
          req.prompt.slice(0, 400),
          "<verbatim_tail>\nechoed tail\n</verbatim_tail>",
          "<user_message>\necho\n</user_message>",
          `summary: ${junk}x`,
          "<verbatim_tail>",
        ].join("\n");
      case "overshoot":
        return `## Goal\n${"many words ".repeat(req.maxOutputTokens * 3)}`;
      case "throw":
        throw new Error("provider failed");
      case "throw-short":
        if (req.purpose === "short-summary") throw new Error("short failed");
        return `## Goal\n${junk}x`;
      case "abort": {
        ctl.abort();
        const e = new Error("aborted");
        e.name = "AbortError";
        throw e;
      }
    }
  };
  return { summarize, requests, modes };
}

const fail = (msg: string): never => {
  throw new Error(`compaction property violated: ${msg}`);
};

/** User turns the model sees in `path`'s context, in path order. */
function visibleUserTurns(path: readonly Entry[], start: number, previous: CompactionEntry | null): MessageEntry[] {
  const kept = new Set(previous?.keptUserTurnIds ?? []);
  const out: MessageEntry[] = [];
  for (const [i, e] of path.entries()) {
    if (!isUserTurn(e) || e.type !== "message") continue;
    if (i >= start || kept.has(e.id)) out.push(e);
  }
  return out;
}

/** Checks every guarantee on one compaction (see the header). */
export function checkOutcome(
  before: readonly Entry[],
  plan: CompactionPlan,
  outcome: CompactionOutcome,
  requests: readonly SummarizeRequest[],
  modesUsed: readonly SummarizerMode[],
  scenario: Scenario,
): Entry[] | null {
  for (const r of requests) {
    const size = count(r.system) + count(r.prompt) + r.maxOutputTokens;
    if (size > scenario.summarizerWindow)
      fail(`a ${r.purpose} request of ${size} tokens > window ${scenario.summarizerWindow}`);
    if (plan.instructions !== null && !r.prompt.includes(plan.instructions))
      fail(`instructions missing from a ${r.purpose} call`);
  }
  // What the outcome must be, from the answers given: an abort cancels; a throw or an empty answer
  // to a summary or split-turn call fails; anything else (junk, echoes, a failed short summary) is done.
  const fatal = requests.some((r, i) => {
    const m = modesUsed[i];
    return r.purpose !== "short-summary" && (m === "throw" || m === "empty");
  });
  const expected = modesUsed.includes("abort") ? "cancelled" : fatal ? "failed" : "done";
  if (outcome.kind !== expected) fail(`expected ${expected}, got ${outcome.kind} (${modesUsed.join(",")})`);
  if (outcome.kind !== "done") {
    if ("entry" in outcome) fail("a failed/cancelled outcome carries an entry");
    return null;
  }
  const { entry } = outcome;
  const after: Entry[] = [
    ...before,
    {
      ...entry,
      id: asEntryId(`c-${before.length}`),
      sessionId: SESSION,
      parentId: before.at(-1)?.id ?? null,
      createdAt: 1e9,
    },
  ];
  const ctx = buildContext(after, BUILD);
  const text = contextText(ctx);

  // One framing, at most one tail, and the tail is the planned one, ≤ 1500 characters.
  if (occurrences(text, FRAMING_FIRST_SENTENCE) !== 1)
    fail(`framing appears ${occurrences(text, FRAMING_FIRST_SENTENCE)} times`);
  const tails = occurrences(text, "<verbatim_tail>");
  if (tails !== (plan.tail === null ? 0 : 1))
    fail(`${tails} tails in the context (planned ${plan.tail === null ? 0 : 1})`);
  if (plan.tail !== null && extractTail(entry.summary) !== plan.tail) fail("the stored tail is not the planned tail");
  if (plan.tail !== null && plan.tail.length > TAIL_MAX_CHARS) fail("tail longer than 1500 characters");
  if (!/^## Standing facts/.test(entry.summary)) fail("summary does not lead with Standing facts & constraints");
  if (entry.shortSummary.trim() === "" || entry.shortSummary.length > SHORT_SUMMARY_MAX_CHARS) fail("bad shortSummary");

  // The kept region starts at a legal boundary: a user/assistant message (or branch summary /
  // handoff), never a tool result, and no call folded while its result is kept.
  if (entry.firstKeptEntryId !== null) {
    const k = before.findIndex((e) => e.id === entry.firstKeptEntryId);
    const first = before[k];
    if (first === undefined || k < plan.start) fail("firstKeptEntryId is not in the foldable region");
    else {
      if (isToolResultEntry(first) || !isCutCandidate(first))
        fail(`kept region starts at ${first.type}/${"role" in first ? first.role : ""}`);
      const foldedCalls = new Set<string>();
      for (const e of before.slice(plan.start, k)) {
        if (e.type === "message") for (const b of e.content) if (b.type === "tool_call") foldedCalls.add(b.id);
      }
      for (const e of before.slice(k)) {
        if (e.type !== "message") continue;
        for (const b of e.content)
          if (b.type === "tool_result" && foldedCalls.has(b.callId)) fail("a kept tool result lost its call");
      }
    }
  }

  // User turns are never re-generated: every visible user turn is kept verbatim unless it was
  // evicted (oldest first) or too long; its text appears byte for byte in the next context.
  const prev = plan.previous;
  const visible = visibleUserTurns(before, plan.start, prev);
  const evicted = new Set(plan.kept.evictedUserTurnIds);
  const oversized = new Set(plan.kept.oversized.map((o) => o.id));
  const keptIds = new Set(entry.keptUserTurnIds);
  const keptFrom =
    entry.firstKeptEntryId === null ? before.length : before.findIndex((e) => e.id === entry.firstKeptEntryId);
  const tokensOf = entryTokensFrom(count);
  let lastEvicted = -1;
  let firstKeptTurn = Number.POSITIVE_INFINITY;
  for (const t of visible) {
    const i = before.indexOf(t);
    if (evicted.has(t.id)) {
      lastEvicted = Math.max(lastEvicted, i);
      continue;
    }
    if (oversized.has(t.id)) {
      if (tokensOf(t) <= scenario.settings.keptUserTurnMaxTokens) fail("a small turn was treated as oversized");
      continue;
    }
    if (i < keptFrom) {
      if (!keptIds.has(t.id)) fail(`user turn ${t.id} was dropped`);
      firstKeptTurn = Math.min(firstKeptTurn, i);
    }
    for (const b of t.content) {
      if (b.type === "text" && b.text.trim() !== "" && !text.includes(b.text))
        fail(`user turn ${t.id} not verbatim in the context`);
    }
  }
  if (lastEvicted > firstKeptTurn) fail("a newer turn was evicted before an older one");

  // One metric: tokensBefore/After are contextTokens of the path before and after.
  if (outcome.tokensBefore !== contextTokens(before, BUILD, count)) fail("tokensBefore is not contextTokens(path)");
  if (outcome.tokensAfter !== contextTokens(after, BUILD, count))
    fail("tokensAfter is not contextTokens(path + entry)");
  return after;
}

/** What the runs exercised, so a test can check the generator reaches every case. */
export type PropertyStats = {
  compactions: number;
  done: number;
  failed: number;
  cancelled: number;
  nothingToCompact: number;
  alreadyCompacted: number;
  upToHere: number;
  iterative: number;
  splitTurns: number;
  multiWindow: number;
  evicted: number;
  oversized: number;
  clampedTails: number;
};

const emptyStats = (): PropertyStats => ({
  compactions: 0,
  done: 0,
  failed: 0,
  cancelled: 0,
  nothingToCompact: 0,
  alreadyCompacted: 0,
  upToHere: 0,
  iterative: 0,
  splitTurns: 0,
  multiWindow: 0,
  evicted: 0,
  oversized: 0,
  clampedTails: 0,
});

/** Runs one scenario, checking every compaction; throws on the first violated guarantee. */
async function runScenario(s: Scenario, stats: PropertyStats = emptyStats()): Promise<void> {
  const b = new PathBuilder();
  for (const st of s.steps) {
    switch (st.kind) {
      case "turn":
        runTurn(b, st);
        break;
      case "branch_summary":
        b.push((base) => ({
          ...base,
          type: "branch_summary",
          fromId: asEntryId("elsewhere"),
          summary: st.text,
          model: "m",
        }));
        break;
      case "handoff":
        b.push((base) => ({
          ...base,
          type: "handoff",
          document: st.text,
          fromSessionId: SESSION,
          fromEntryId: asEntryId("x"),
        }));
        break;
      case "foreign_compaction":
        foreignCompaction(b, st);
        break;
      case "compact": {
        const before = [...b.path];
        const reason: CompactionReason = st.upTo === null ? "threshold" : "manual";
        const upTo = st.upTo === null ? undefined : before[Math.floor(st.upTo * (before.length - 1))]?.id;
        const prepared = prepareCompaction(before, {
          reason,
          settings: s.settings,
          contextWindow: s.contextWindow,
          summarizerWindow: s.summarizerWindow,
          countTokens: count,
          systemPrompt: SYSTEM,
          targetApi: "anthropic-messages",
          ...(st.instructions !== null ? { instructions: st.instructions } : {}),
          ...(upTo !== undefined ? { upToEntryId: upTo } : {}),
        });
        stats.compactions++;
        if (prepared.kind === "already_compacted") {
          if (before.at(-1)?.type !== "compaction") fail("already_compacted without a compaction leaf");
          stats.alreadyCompacted++;
          break;
        }
        if (prepared.kind === "nothing_to_compact") {
          stats.nothingToCompact++;
          break;
        }
        const plan = prepared.plan;
        const ctl = new AbortController();
        const adv = adversary(st.modes, st.junk, ctl);
        const outcome = await runCompaction(prepared.plan, { summarize: adv.summarize, signal: ctl.signal });
        const modesUsed = adv.requests.map((_, i) => st.modes[i % st.modes.length] ?? "good");
        const after = checkOutcome(before, plan, outcome, adv.requests, modesUsed, s);
        stats[outcome.kind === "done" ? "done" : outcome.kind]++;
        if (after !== null && outcome.kind === "done") {
          b.append(outcome.entry);
          if (upTo !== undefined) stats.upToHere++;
          if (plan.previous !== null) stats.iterative++;
          if ((outcome.entry.details as { splitTurnStartId: unknown }).splitTurnStartId !== null) stats.splitTurns++;
          if ((outcome.entry.details as { windows: number }).windows > 1) stats.multiWindow++;
          if (plan.kept.evictedUserTurnIds.length > 0) stats.evicted++;
          if (plan.kept.oversized.length > 0) stats.oversized++;
          if (plan.tail?.startsWith("[...truncated]")) stats.clampedTails++;
        }
        break;
      }
    }
  }
}

/** Asserts the property over `runs` random scenarios (throws with a counterexample on failure). */
export async function compactionProperty(runs: number, seed?: number): Promise<PropertyStats> {
  const stats = emptyStats();
  await fc.assert(
    fc.asyncProperty(scenarioArb, (s) => runScenario(s, stats)),
    { numRuns: runs, ...(seed !== undefined ? { seed } : {}) },
  );
  return stats;
}
