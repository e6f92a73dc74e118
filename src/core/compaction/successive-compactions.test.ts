/**
 * The A/B from seeds/001, as a deterministic test: a 14k-token window, 18 successive compactions,
 * and a summarizer that returns junk. Small facts the user stated along the way must survive
 * byte for byte in the context that is sent, because user turns are never re-generated.
 */
import { describe, expect, it } from "vitest";
import { contextTokens } from "../session/context-tokens";
import type { Block, Entry, MessageEntry } from "../session/entries";
import { asEntryId, asSessionId } from "../session/ids";
import {
  appendCompaction,
  built,
  contextText,
  count,
  fakeSummarizer,
  occurrences,
  options,
  SYSTEM,
  signal,
} from "../testing/compaction";
import { runCompaction } from "./compact";
import { FRAMING_FIRST_SENTENCE } from "./digest";
import { prepareCompaction } from "./prepare";
import { progressGuard } from "./progress-guard";
import { DEFAULT_COMPACTION_SETTINGS, thresholdFor } from "./settings";

const WINDOW = 14_000;
const FOLDS = 18;
const BUILD = { systemPrompt: SYSTEM, targetApi: "anthropic-messages" as const };

describe("18 successive compactions on a 14k window with a junk summarizer", () => {
  it("keep every planted user fact byte-identical, with one framing and one tail", async () => {
    const settings = DEFAULT_COMPACTION_SETTINGS;
    const threshold = thresholdFor(WINDOW, settings);
    const junk = fakeSummarizer((req, n) =>
      req.purpose === "short-summary" ? "" : `lorem ipsum ${n} <verbatim_tail>x`,
    );
    const facts: string[] = [];
    let path: Entry[] = [];
    let n = 0;
    const add = (role: MessageEntry["role"], content: Block[]): void => {
      n++;
      const e: MessageEntry = {
        type: "message",
        id: asEntryId(`m${n}`),
        sessionId: asSessionId("ab"),
        parentId: path.at(-1)?.id ?? null,
        createdAt: n,
        role,
        content,
        status: "complete",
      };
      path = [...path, e];
    };

    let folds = 0;
    for (let turn = 0; folds < FOLDS; turn++) {
      if (turn % 3 === 0) {
        const fact = `FACT-${turn}: always deploy service ${turn} to eu-west-${(turn % 3) + 1}, never on Fridays.`;
        facts.push(fact);
        add("user", [{ type: "text", text: fact }]);
      } else {
        add("user", [{ type: "text", text: `continue with step ${turn}` }]);
      }
      add("assistant", [
        { type: "text", text: `Working on step ${turn}.` },
        { type: "tool_call", id: `call-${turn}`, name: "bash", args: { cmd: `make step-${turn}` } },
      ]);
      add("tool", [{ type: "tool_result", callId: `call-${turn}`, text: "o".repeat(4_000), isError: false }]);
      add("assistant", [{ type: "text", text: `Step ${turn} done. Next: step ${turn + 1}.` }]);

      if (contextTokens(path, BUILD, count) <= threshold) continue;
      const prepared = prepareCompaction(
        path,
        options({ reason: "threshold", contextWindow: WINDOW, summarizerWindow: WINDOW }),
      );
      expect(prepared.kind).toBe("plan");
      if (prepared.kind !== "plan") return;
      const outcome = await runCompaction(prepared.plan, { summarize: junk.summarize, signal: signal() });
      if (outcome.kind !== "done") throw new Error(JSON.stringify(outcome));
      expect(outcome.tokensAfter).toBeLessThan(outcome.tokensBefore);
      expect(progressGuard(outcome.tokensAfter, threshold)).toBe(false);
      path = appendCompaction(path, outcome.entry, `fold-${folds}`);
      folds++;
    }

    const text = contextText(built(path));
    expect(facts.length).toBeGreaterThan(FOLDS);
    for (const fact of facts) expect(occurrences(text, fact)).toBe(1);
    expect(occurrences(text, FRAMING_FIRST_SENTENCE)).toBe(1);
    expect(occurrences(text, "<verbatim_tail>")).toBe(1);
    expect(contextTokens(path, BUILD, count)).toBeLessThan(WINDOW);
  });
});
