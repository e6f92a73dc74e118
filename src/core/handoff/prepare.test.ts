import { describe, expect, it } from "vitest";
import { HANDOFF_DOCUMENT } from "../prompts";
import { buildContext } from "../session/build-context";
import { countContextTokens } from "../session/context-tokens";
import type { Entry } from "../session/entries";
import { MERGE_DELIMITER } from "../session/normalize-messages";
import { a, branchSummary, compaction, linkPath, thinking, u } from "../testing/entries";
import { estimateTokens } from "../tokens/estimate";
import { type HandoffOptions, type HandoffPlan, type HandoffPrepareResult, prepareHandoff } from "./prepare";

const SYSTEM = "You are a careful engineer.";
const opts = (over: Partial<HandoffOptions> = {}): HandoffOptions => ({
  systemPrompt: SYSTEM,
  targetApi: "anthropic-messages",
  contextWindow: 200_000,
  maxOutput: 64_000,
  countTokens: estimateTokens,
  ...over,
});

function planOf(r: HandoffPrepareResult): HandoffPlan {
  if (r.kind !== "plan") throw new Error(`expected a plan, got ${JSON.stringify(r)}`);
  return r.plan;
}

const textOf = (m: { content: Array<{ type: string; text?: string }> }) =>
  m.content.map((b) => (b.type === "text" ? b.text : "")).join("");

const conversation: Entry[] = linkPath([
  u("u1", "Build a CSV parser in Rust."),
  a("a1", [
    thinking("Plan the parser.", { signature: "sig", signedBy: "anthropic-messages" }),
    { type: "text", text: "Done: src/csv.rs." },
  ]),
  u("u2", "Now handle quoted fields."),
  a("a2", "Quoted fields work; escaping is next."),
]);

describe("prepareHandoff: the request is the chat's context plus exactly one user message", () => {
  it("keeps the system prompt and every message of buildContext unchanged, then adds the handoff prompt", () => {
    const built = buildContext(conversation, { systemPrompt: SYSTEM, targetApi: "anthropic-messages" });
    const plan = planOf(prepareHandoff(conversation, opts()));
    const { context } = plan.request;
    expect(context.system).toBe(built.system);
    expect(context.messages).toHaveLength(built.messages.length + 1);
    expect(context.messages.slice(0, -1)).toEqual(built.messages);
    const last = context.messages.at(-1)!;
    expect(last.role).toBe("user");
    expect(textOf(last)).toBe(HANDOFF_DOCUMENT.replace(/\{\{focus\}\}\n\n/, ""));
    // Signed thinking goes back exactly as the chat sends it (the provider's cache sees the same prefix).
    expect(context.messages[1]?.content[0]).toMatchObject({ type: "thinking", signature: "sig" });
    expect(plan.fromEntryId).toBe("a2");
  });

  it("asks for every section of the handoff document", () => {
    const text = textOf(planOf(prepareHandoff(conversation, opts())).request.context.messages.at(-1)!);
    for (const heading of [
      "## Goal",
      "## Constraints & preferences",
      "## Progress",
      "### Done",
      "### In progress",
      "### Pending",
      "## Key decisions",
      "## Critical context",
      "## Next steps",
    ]) {
      expect(text).toContain(heading);
    }
    expect(text).not.toContain("{{");
  });

  it("carries the user's focus inside the one handoff message", () => {
    const plan = planOf(prepareHandoff(conversation, opts({ focus: "  next: write the tests " })));
    const last = plan.request.context.messages.at(-1)!;
    expect(textOf(last)).toContain("<focus>\nnext: write the tests\n</focus>");
    expect(plan.focus).toBe("next: write the tests");
    expect(plan.request.context.messages).toHaveLength(5);
  });

  it("joins the handoff prompt to a final user message as the chat would (no two user turns in a row)", () => {
    const unanswered = [
      ...conversation,
      ...linkPath([u("u3", "And dates?")]).map((e) => ({ ...e, parentId: conversation[3]!.id })),
    ];
    const built = buildContext(unanswered, { systemPrompt: SYSTEM, targetApi: "openai-chat" });
    const { context } = planOf(prepareHandoff(unanswered, opts({ targetApi: "openai-chat" }))).request;
    expect(context.messages).toHaveLength(built.messages.length);
    expect(context.messages.slice(0, -1)).toEqual(built.messages.slice(0, -1));
    expect(textOf(context.messages.at(-1)!)).toBe(
      `${textOf(built.messages.at(-1)!)}${MERGE_DELIMITER}${textOf(planOf(prepareHandoff(conversation, opts())).request.context.messages.at(-1)!)}`,
    );
  });

  it("hands off what the model sees: the compaction summary and branch summaries, not what they replaced", () => {
    const path = linkPath([
      u("old", "folded away"),
      a("old-a", "folded reply"),
      compaction("c", { summary: "## Goal\nParse CSV.", firstKept: null }),
      branchSummary("bs", "Tried approach B; it failed."),
      u("q", "continue"),
      a("r", "ok"),
    ]);
    const built = buildContext(path, { systemPrompt: SYSTEM, targetApi: "anthropic-messages" });
    const { context } = planOf(prepareHandoff(path, opts())).request;
    expect(context.messages.slice(0, -1)).toEqual(built.messages);
    expect(JSON.stringify(context)).not.toContain("folded away");
  });
});

describe("prepareHandoff: budgets", () => {
  it("asks for 0.8 × reserveTokens, capped by the model's output limit", () => {
    expect(planOf(prepareHandoff(conversation, opts())).request.maxOutputTokens).toBe(Math.floor(16_384 * 0.8));
    expect(planOf(prepareHandoff(conversation, opts({ maxOutput: 4_096 }))).request.maxOutputTokens).toBe(4_096);
  });

  it("shrinks the output to the room left in the window, and is too_long when there is none", () => {
    const big = linkPath([u("q", "x".repeat(4 * 30_000)), a("r", "ok")]);
    const built = buildContext(big, { systemPrompt: SYSTEM, targetApi: "anthropic-messages" });
    const tokens = countContextTokens(built, estimateTokens);
    const roomy = planOf(prepareHandoff(big, opts({ contextWindow: tokens + 6_000 })));
    expect(roomy.request.maxOutputTokens).toBeLessThan(6_000);
    expect(roomy.request.maxOutputTokens).toBeGreaterThan(1_024);
    expect(roomy.contextTokens).toBe(tokens);
    expect(prepareHandoff(big, opts({ contextWindow: tokens + 200 })).kind).toBe("too_long");
  });

  it("has nothing to hand off in an empty chat", () => {
    expect(prepareHandoff([], opts()).kind).toBe("nothing_to_hand_off");
    const failed = linkPath([a("x", [], { status: "error", error: { kind: "network", message: "down" } })]);
    expect(prepareHandoff(failed, opts()).kind).toBe("nothing_to_hand_off");
  });
});
