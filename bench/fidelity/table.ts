/**
 * The fidelity bench's results as Markdown: one row per summarizer × fold count (its conversations
 * pooled), a cell per fact class "verbatim / recalled", and the floor's violations. Pure and
 * deterministic: no dates or timings in here, so the same seed gives the same text.
 */
import { FACT_CLASSES, type FactClass, FLOOR_CLASSES } from "./conversation";
import type { FactResult, RunResult } from "./run-fidelity";

const CLASS_HEADINGS: Record<FactClass, string> = {
  "user-early": "user, early",
  "user-mid": "user, mid",
  "user-late": "user, late",
  contradicted: "user, contradicted (newest)",
  pinned: "pinned",
  assistant: "assistant",
  tool: "tool output only",
};

const pct = (n: number, of: number): string => (of === 0 ? "—" : `${Math.round((100 * n) / of)}%`);
const int = (n: number): string => Math.round(n).toLocaleString("en-US");

function groups(results: readonly RunResult[]): RunResult[][] {
  const out = new Map<string, RunResult[]>();
  for (const r of results) {
    const key = `${r.label}\u0000${r.folds}`;
    out.set(key, [...(out.get(key) ?? []), r]);
  }
  return [...out.values()];
}

function classCell(facts: readonly FactResult[], cls: FactClass): string {
  const of = facts.filter((f) => f.cls === cls);
  if (of.length === 0) return "—";
  const verbatim = of.filter((f) => f.verbatim).length;
  const asked = of.filter((f) => f.recalled !== null);
  const recalled = asked.filter((f) => f.recalled).length;
  const stale = asked.filter((f) => f.stale).length;
  const flag = FLOOR_CLASSES.has(cls) && verbatim < of.length ? " ⚠" : "";
  const staleNote = stale > 0 ? ` (${stale} stale)` : "";
  return `${pct(verbatim, of.length)}${flag} / ${asked.length === 0 ? "not asked" : pct(recalled, asked.length)}${staleNote}`;
}

function row(runs: readonly RunResult[]): string {
  const first = runs[0];
  if (!first) return "";
  const facts = runs.flatMap((r) => r.facts);
  const failures = runs.filter((r) => r.failure !== null);
  const over = runs.filter((r) => r.overWindow).length;
  const chat = runs.reduce((n, r) => n + r.chatRequests, 0);
  const missing = runs.reduce((n, r) => n + r.systemPromptMissing, 0);
  const last = runs.map((r) => r.tokensAfterFold.at(-1) ?? r.finalTokens);
  const usd = runs.every((r) => r.usd !== null) ? runs.reduce((s, r) => s + (r.usd ?? 0), 0) : null;
  const folded = facts.filter((f) => f.folded).length;
  const failed = runs.reduce((n, r) => n + r.failedFolds, 0);
  const foldNote =
    failures.length > 0
      ? `${first.folds} (${failed} of ${first.folds * runs.length} failed: ${failures[0]?.failure ?? ""})`
      : String(first.folds);
  return [
    first.label,
    foldNote,
    ...FACT_CLASSES.map((c) => classCell(facts, c)),
    `${folded}/${facts.length}`,
    missing === 0 ? `in ${chat}/${chat}` : `**missing in ${missing}/${chat}** ⚠`,
    `${int(Math.max(...last))}${over > 0 ? ` (over the window in ${over})` : ""}`,
    usd === null ? "no price" : `$${usd.toFixed(4)}`,
  ].join(" | ");
}

/** The results table (Markdown), one row per summarizer × fold count. */
export function fidelityTable(results: readonly RunResult[]): string {
  const head = [
    "summarizer",
    "folds",
    ...FACT_CLASSES.map((c) => CLASS_HEADINGS[c]),
    "facts folded",
    "per-chat prompt",
    "tokens after last fold (max)",
    "cost",
  ];
  const lines = [`| ${head.join(" | ")} |`, `|${head.map(() => " --- ").join("|")}|`];
  for (const g of groups(results)) lines.push(`| ${row(g)} |`);
  return lines.join("\n");
}

/** Tokens of the context after each fold, for the first conversation of each row. */
function foldTokens(results: readonly RunResult[]): string {
  return groups(results)
    .map((g) => g[0])
    .filter((r): r is RunResult => r !== undefined && r.tokensAfterFold.length > 0)
    .map((r) => {
      const pairs = r.tokensAfterFold.map(
        (a, i) => `${int(r.tokensBeforeFold[i] ?? 0)}→${int(a)}${r.guardPausedAfter.includes(i + 1) ? "‡" : ""}`,
      );
      const evicted = r.evictedUserTurns > 0 ? `; ${r.evictedUserTurns} kept user turns evicted for the budget` : "";
      return `- ${r.label}, ${r.folds} fold${r.folds === 1 ? "" : "s"} (seed ${r.seed}): ${pairs.join(", ")}${evicted}`;
    })
    .join("\n");
}

/**
 * What breaks the floor: a user fact (the newest statement of a contradicted one) or a pinned
 * message not word for word in the next request, or a chat request without the per-chat prompt.
 */
export function floorViolations(results: readonly RunResult[]): string[] {
  const out: string[] = [];
  for (const r of results) {
    const where = `${r.label}, ${r.folds} folds, seed ${r.seed}`;
    for (const f of r.facts) {
      if (FLOOR_CLASSES.has(f.cls) && !f.verbatim)
        out.push(`${where}: ${f.cls} fact "the ${f.subject}" is not word for word in the next request`);
    }
    if (r.systemPromptMissing > 0)
      out.push(`${where}: ${r.systemPromptMissing} of ${r.chatRequests} chat requests lack the per-chat prompt`);
  }
  return out;
}

/** The whole report: the table, a legend, the tokens per fold and the floor's verdict. */
export function fidelityReport(results: readonly RunResult[], intro: readonly string[]): string {
  const violations = floorViolations(results);
  return [
    ...intro,
    "",
    fidelityTable(results),
    "",
    "Each class cell: **present verbatim in the next request / recalled in a probe answer**, over all the row's",
    'conversations. ⚠ marks a floor class (user facts, pins) below 100% verbatim. "stale": a contradicted',
    'fact answered with its earlier value. "facts folded": facts whose message went through a fold.',
    "",
    "Tokens of the context before→after each fold (‡: above 80% of the threshold, where the app's progress",
    "guard pauses automatic compaction until a manual one; the bench folds on its schedule regardless):",
    "",
    foldTokens(results),
    "",
    violations.length === 0
      ? "Floor: every user fact and pinned message was word for word in the next request, and the per-chat prompt headed every chat request."
      : `**FLOOR VIOLATED** (${violations.length}):\n${violations.map((v) => `- ${v}`).join("\n")}`,
    "",
  ].join("\n");
}
