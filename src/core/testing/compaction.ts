/**
 * Test and bench support for the compaction engine: default options, a recording fake summarizer,
 * appending an outcome's entry, and reading a built context as text. Used by the tests beside it
 * and by property-harness.ts; nothing in the app imports this file. No I/O here.
 */

import type { NewCompactionEntry, SummarizeFn } from "../compaction/compact";
import type { CompactionPlan, PrepareOptions, PrepareResult } from "../compaction/prepare";
import type { SummarizeRequest } from "../compaction/requests";
import { DEFAULT_COMPACTION_SETTINGS } from "../compaction/settings";
import { buildContext } from "../session/build-context";
import { contextBlockText, type LlmContext } from "../session/context";
import type { CompactionEntry, Entry } from "../session/entries";
import { asEntryId } from "../session/ids";
import { estimateTokens } from "../tokens/estimate";

export const SYSTEM = "You are a helpful assistant.";
export const count = estimateTokens;

export function options(overrides: Partial<PrepareOptions> = {}): PrepareOptions {
  return {
    reason: "manual",
    settings: DEFAULT_COMPACTION_SETTINGS,
    contextWindow: 200_000,
    summarizerWindow: 200_000,
    countTokens: count,
    systemPrompt: SYSTEM,
    targetApi: "anthropic-messages",
    summarizerModel: "test-summarizer",
    ...overrides,
  };
}

export function planOf(result: PrepareResult): CompactionPlan {
  if (result.kind !== "plan") throw new Error(`expected a plan, got ${JSON.stringify(result)}`);
  return result.plan;
}

/** A summarizer answering with `respond(req, n)` (n = 0-based call number) and recording every request. */
export function fakeSummarizer(respond: (req: SummarizeRequest, n: number) => string | Promise<string>): {
  summarize: SummarizeFn;
  calls: SummarizeRequest[];
} {
  const calls: SummarizeRequest[] = [];
  const summarize: SummarizeFn = async (req, _signal, onText) => {
    calls.push(req);
    const text = await respond(req, calls.length - 1);
    onText?.(text);
    return text;
  };
  return { summarize, calls };
}

/** A well-behaved summarizer: a structured digest that mentions which call it was. */
export function goodSummarizer(): ReturnType<typeof fakeSummarizer> {
  return fakeSummarizer((req, n) => {
    switch (req.purpose) {
      case "summary":
        return `## Standing facts & constraints\n- fact from call ${n}\n\n## Goal\nShip the feature. Then rest.\n\n## Next steps\n- continue`;
      case "split-turn-prefix":
        return `## Turn in progress\nThe user asked for a refactor (call ${n}).`;
      case "short-summary":
        return "Refactoring the parser; tests next";
    }
  });
}

export const signal = (): AbortSignal => new AbortController().signal;

let appended = 0;

/** The path with `entry` appended at its leaf, as the state layer would write it. */
export function appendCompaction(path: readonly Entry[], entry: NewCompactionEntry, id?: string): Entry[] {
  const leaf = path[path.length - 1];
  appended++;
  const full: CompactionEntry = {
    ...entry,
    id: asEntryId(id ?? `compaction-${appended}`),
    sessionId: leaf?.sessionId ?? ("s" as CompactionEntry["sessionId"]),
    parentId: leaf?.id ?? null,
    createdAt: (leaf?.createdAt ?? 0) + 1,
  };
  return [...path, full];
}

/** Every piece of text in a built context (system first), joined with newlines. */
export function contextText(ctx: LlmContext): string {
  return [ctx.system, ...ctx.messages.flatMap((m) => m.content.map(contextBlockText))].join("\n");
}

export function built(path: readonly Entry[]): LlmContext {
  return buildContext(path, { systemPrompt: SYSTEM, targetApi: "anthropic-messages" });
}

export function occurrences(haystack: string, needle: string): number {
  if (needle === "") return 0;
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}
