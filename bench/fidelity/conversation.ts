/**
 * The fidelity bench's conversations (issue 29 item 4): long, seeded, with planted facts. Same seed
 * and fold count, same conversation, byte for byte (ids included). Pure: no I/O.
 *
 * A conversation is a list of turns — a user message, an assistant answer, often a tool call with
 * its output and a closing line — with folds scheduled after fixed turns (the first once the small
 * window's threshold is near, then every `TURNS_PER_FOLD`), so every summarizer folds the very same
 * text at the very same points. Filler text has no digit in it; every planted value has one.
 *
 * A fact is "the <subject> is <value>", stated once: by the user early, mid-session or late (as a
 * share of the part that will be folded), by the assistant, only inside a tool's output (at a
 * random line, so it may sit past the 2,000 characters the summarizer is shown), in an assistant
 * message the user pins, or stated by the user and then contradicted by the user later (the newest
 * value must win).
 */
import type { Block, Entry, MessageEntry } from "../../src/core/session/entries";
import { asEntryId, asSessionId, type EntryId, type SessionId } from "../../src/core/session/ids";
import { pinData } from "../../src/core/session/pins";
import { type Rng, rng } from "../lib/prng.mjs";

export const FACT_CLASSES = [
  "user-early",
  "user-mid",
  "user-late",
  "contradicted",
  "pinned",
  "assistant",
  "tool",
] as const;
export type FactClass = (typeof FACT_CLASSES)[number];

/** Classes the floor carries word for word: user messages (the newest of a contradiction) and pins. */
export const FLOOR_CLASSES: ReadonlySet<FactClass> = new Set([
  "user-early",
  "user-mid",
  "user-late",
  "contradicted",
  "pinned",
]);

export type Fact = {
  readonly cls: FactClass;
  readonly subject: string;
  readonly value: string;
  /** The exact text that states it (the newest statement for a contradicted fact). */
  readonly statement: string;
  readonly entryId: EntryId;
  /** A contradicted fact's earlier value and statement. */
  readonly stale?: { readonly value: string; readonly statement: string };
};

export type Conversation = {
  readonly sessionId: SessionId;
  /** The per-chat prompt (Grove sends it as the system prompt, in place of the Settings one). */
  readonly chatPrompt: string;
  /** Each turn's entries, root first; chained by parentId across turns. */
  readonly turns: readonly (readonly Entry[])[];
  /** Fold after these turns (0-based turn indices, ascending); the last one ends the conversation. */
  readonly foldAfter: readonly number[];
  readonly facts: readonly Fact[];
};

/** Turns before the first fold: about the 14k window's threshold of context. */
const FIRST_FOLD_AFTER_TURNS = 16;
/** Turns between two folds: about what a fold frees on the 14k window. */
const TURNS_PER_FOLD = 6;
/** Share of turns with a tool call (its output: 40–90 log lines, ~1,500–3,300 characters). */
const TOOL_TURN_SHARE = 0.8;
/** Turns the kept region holds after a fold (about `keepRecentTokens`): planted facts stay before them. */
const KEPT_TURNS_ESTIMATE = 8;

const CHAT_PROMPT =
  "Per-chat prompt (fidelity bench): you help migrate a web shop to a new platform. Answer briefly and precisely.";

const QUALIFIERS = ["staging", "billing", "search", "ingest", "audit", "mobile", "edge", "batch", "backup", "metrics"];
const THINGS = [
  "database port",
  "cache lifetime",
  "worker count",
  "release tag",
  "queue name",
  "owner code",
  "retry limit",
  "shard count",
  "bucket label",
  "deploy window",
];
const CODE_WORDS = ["kestrel", "juniper", "osprey", "basalt", "tamarind", "quokka", "saffron", "larch", "marlin"];
const NOUNS = ["checkout", "catalogue", "session store", "image pipeline", "search index", "order history", "login"];
const VERBS = ["review", "migrate", "test", "profile", "document", "clean up", "harden"];
const ASSISTANT_FILLER = [
  "I looked through the relevant modules and the structure is reasonable.",
  "The main risk is the ordering of the background jobs during the switch.",
  "Most of the handlers can move over without changes.",
  "A few helpers duplicate logic that the new platform already provides.",
  "The configuration is spread over several files, which makes the move slower.",
  "I would keep the old path running in parallel until the new one is verified.",
  "The error handling is uneven and some failures are silently ignored.",
  "The tests cover the happy path well but miss the edge cases.",
];
const LOG_LINES = [
  "INFO  worker ready, waiting for jobs",
  "DEBUG cache warm, hit ratio nominal",
  "INFO  connected to the primary database",
  "WARN  slow query on the catalogue table",
  "INFO  request served from the edge cache",
  "DEBUG refreshing the feature flags",
  "INFO  scheduled job finished without errors",
  "WARN  retrying a request to the payment provider",
  "DEBUG session store compacted",
  "INFO  health check passed",
];

/** The turn the fold number `k` (1-based) comes after. */
const foldTurn = (k: number): number => FIRST_FOLD_AFTER_TURNS - 1 + (k - 1) * TURNS_PER_FOLD;

type Plant = { cls: FactClass; subject: string; value: string; statement: string; stale?: Fact["stale"] };
type TurnPlan = { user: Plant[]; assistant: Plant[]; tool: Plant[]; pinned: Plant[] };

function valueFor(r: Rng): string {
  return r.chance(0.5) ? String(r.int(1_000, 9_999)) : `${r.pick(CODE_WORDS)}-${r.int(10, 99)}`;
}

/** The conversation for `seed` folded `folds` times (≥ 1). */
export function generateConversation(seed: number, folds: number): Conversation {
  if (!Number.isInteger(folds) || folds < 1) throw new Error(`folds must be a positive integer, not ${folds}`);
  const r = rng(seed * 7_919 + folds);
  const foldAfter = Array.from({ length: folds }, (_, i) => foldTurn(i + 1));
  const turnCount = foldTurn(folds) + 1;
  // The part the last fold will have folded, by estimate; facts are planted inside it.
  const folded = Math.max(4, turnCount - KEPT_TURNS_ESTIMATE);
  const at = (share: number): number => Math.min(folded - 1, Math.floor(share * folded));

  const subjects: string[] = [];
  const subject = (): string => {
    for (;;) {
      const s = `${r.pick(QUALIFIERS)} ${r.pick(THINGS)}`;
      if (!subjects.includes(s)) {
        subjects.push(s);
        return s;
      }
    }
  };
  const plans: TurnPlan[] = Array.from({ length: turnCount }, () => ({
    user: [],
    assistant: [],
    tool: [],
    pinned: [],
  }));
  const plant = (turn: number, role: keyof TurnPlan, p: Plant): void => void plans[turn]?.[role].push(p);

  const userFact = (cls: FactClass, turn: number): void => {
    const s = subject();
    const v = valueFor(r);
    plant(turn, "user", { cls, subject: s, value: v, statement: `Please remember this: the ${s} is ${v}.` });
  };
  userFact("user-early", at(0));
  userFact("user-mid", at(0.5));
  userFact("user-late", at(0.9));
  {
    const s = subject();
    const old = valueFor(r);
    let v = valueFor(r);
    while (v === old) v = valueFor(r);
    const oldStatement = `For now, the ${s} is ${old}.`;
    plant(at(0.15), "user", { cls: "contradicted", subject: s, value: old, statement: oldStatement });
    plant(at(0.7), "user", {
      cls: "contradicted",
      subject: s,
      value: v,
      statement: `Change of plan: the ${s} is ${v} from now on.`,
      stale: { value: old, statement: oldStatement },
    });
  }
  for (let i = 0; i < 2; i++) {
    const s = subject();
    const v = valueFor(r);
    plant(r.int(0, folded - 1), "assistant", {
      cls: "assistant",
      subject: s,
      value: v,
      statement: `I checked it: the ${s} is ${v}.`,
    });
  }
  for (let i = 0; i < 2; i++) {
    const s = subject();
    const v = valueFor(r);
    plant(r.int(0, folded - 1), "tool", { cls: "tool", subject: s, value: v, statement: `INFO  the ${s} is ${v}` });
  }
  {
    const s = subject();
    const v = valueFor(r);
    plant(r.int(0, folded - 1), "pinned", {
      cls: "pinned",
      subject: s,
      value: v,
      statement: `Decision: the ${s} is ${v}.`,
    });
  }

  const sessionId = asSessionId(`fidelity-${seed}-${folds}`);
  const facts: Fact[] = [];
  const turns: Entry[][] = [];
  let parentId: EntryId | null = null;
  let n = 0;
  const entry = <E extends Entry>(
    build: (base: Pick<Entry, "id" | "sessionId" | "parentId" | "createdAt">) => E,
  ): E => {
    n++;
    const e = build({ id: asEntryId(`${sessionId}-e${n}`), sessionId, parentId, createdAt: n });
    parentId = e.id;
    return e;
  };
  const message = (role: MessageEntry["role"], content: Block[]): MessageEntry =>
    entry((base) => ({ ...base, type: "message", role, content, status: "complete" }));
  const record = (p: Plant, entryId: EntryId): void => {
    if (p.cls === "contradicted" && !p.stale) return; // the earlier statement: recorded with the newer
    facts.push({
      cls: p.cls,
      subject: p.subject,
      value: p.value,
      statement: p.statement,
      entryId,
      ...(p.stale ? { stale: p.stale } : {}),
    });
  };

  for (const [t, plan] of plans.entries()) {
    const out: Entry[] = [];
    const task = `${r.pick(VERBS)} the ${r.pick(NOUNS)}`;
    const userText = [`Next, let us ${task}.`, ...plan.user.map((p) => p.statement)].join(" ");
    const user = message("user", [{ type: "text", text: userText }]);
    out.push(user);
    for (const p of plan.user) record(p, user.id);

    const sentences = Array.from({ length: r.int(2, 5) }, () => r.pick(ASSISTANT_FILLER));
    for (const p of [...plan.assistant, ...plan.pinned]) sentences.splice(r.int(0, sentences.length), 0, p.statement);
    const answer = message("assistant", [{ type: "text", text: `About how to ${task}: ${sentences.join(" ")}` }]);
    out.push(answer);
    for (const p of [...plan.assistant, ...plan.pinned]) record(p, answer.id);

    if (plan.tool.length > 0 || r.chance(TOOL_TURN_SHARE)) {
      const callId = `call-${t}`;
      const call = message("assistant", [
        {
          type: "tool_call",
          id: callId,
          name: "bash",
          args: { cmd: `tail -n 60 logs/${task.replace(/\W+/g, "-")}.log` },
        },
      ]);
      out.push(call);
      const lines = Array.from({ length: r.int(40, 90) }, () => r.pick(LOG_LINES));
      for (const p of plan.tool) lines.splice(r.int(0, lines.length), 0, p.statement);
      const result = message("tool", [{ type: "tool_result", callId, text: lines.join("\n"), isError: false }]);
      out.push(result);
      for (const p of plan.tool) record(p, result.id);
      out.push(message("assistant", [{ type: "text", text: "The logs look as expected apart from the warnings." }]));
    }
    // "Keep word for word" on the answer: a pin entry at the leaf, as the app appends it.
    if (plan.pinned.length > 0) out.push(entry((base) => ({ ...base, type: "custom", ...pinData(answer.id, true) })));
    turns.push(out);
  }
  return { sessionId, chatPrompt: CHAT_PROMPT, turns, foldAfter, facts };
}
