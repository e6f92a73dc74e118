/**
 * The worker's branch-summary and handoff methods, called directly (no Worker, no comlink): a
 * scripted provider stream, the estimate counter, op-id cancellation.
 */
import * as Comlink from "comlink";
import { describe, expect, it } from "vitest";
import { BRANCH_SUMMARY_PREAMBLE, BRANCH_SUMMARY_SYSTEM } from "../core/prompts";
import { buildContext } from "../core/session/build-context";
import { a, linkPath, u } from "../core/testing/entries";
import { testProvider } from "../providers/testing/requests";
import type { BranchSummaryProgress, HandoffDocumentProgress, HandoffJob } from "./api";
import { branchSummaryJob } from "./testing/jobs";
import { type ScriptStep, scriptedWorker } from "./testing/streams";

const _branch = linkPath([u("q", "Try approach A"), a("r", "Approach A failed with a timeout.")]);

const path = linkPath([u("u1", "Build a CSV parser."), a("a1", "Parser done; quoting next.")]);

const handoffJob = (over: Partial<HandoffJob> = {}): HandoffJob => ({
  path,
  systemPrompt: "Be terse.",
  provider: testProvider("anthropic-messages"),
  model: "claude-sonnet-4-5",
  thinking: { kind: "anthropic-budget", budgetTokens: 2_048 },
  contextWindow: 200_000,
  maxOutput: 64_000,
  reserveTokens: 16_384,
  encoding: "claude",
  countScale: 1,
  ...over,
});

function recorder<P>() {
  const seen: P[] = [];
  return { seen, onProgress: Comlink.proxy((p: P) => void seen.push(p)) };
}

const SUMMARY = "## Goal\nFind a fast approach.\n\n## Progress\n- Blocked: approach A timed out.";

describe("branchSummary", () => {
  it("sends one summarizer request and returns the entry, preamble first", async () => {
    const { worker, requests } = scriptedWorker([
      { delta: SUMMARY.slice(0, 10) },
      { delta: SUMMARY.slice(10) },
      "done",
    ]);
    const { seen, onProgress } = recorder<BranchSummaryProgress>();
    const outcome = await worker.branchSummary(
      branchSummaryJob({ instructions: "Focus on errors" }),
      onProgress,
      "op-b1",
    );
    expect(outcome).toMatchObject({
      kind: "done",
      entry: {
        type: "branch_summary",
        fromId: "r",
        summary: `${BRANCH_SUMMARY_PREAMBLE}\n\n${SUMMARY}`,
        instructions: "Focus on errors",
        model: "claude-haiku-4-5",
      },
    });
    expect(requests).toHaveLength(1);
    const sent = requests[0]!;
    expect(sent.model).toBe("claude-haiku-4-5");
    expect(sent.thinking).toEqual({ kind: "off" });
    expect(sent.maxOutputTokens).toBe(2_048);
    expect(sent.context.system).toBe(BRANCH_SUMMARY_SYSTEM);
    expect(sent.context.messages).toHaveLength(1);
    expect(JSON.stringify(sent.context.messages[0])).toContain("Approach A failed with a timeout.");
    expect(seen[0]).toEqual({ phase: "preparing" });
    expect(seen.at(-1)).toEqual({ phase: "summarizing", text: SUMMARY });
  });

  it("fails, with no entry, on a provider error or an empty summary", async () => {
    const error: ScriptStep = { error: { kind: "overloaded", message: "Overloaded" } };
    expect(await scriptedWorker([error]).worker.branchSummary(branchSummaryJob(), recorder().onProgress)).toEqual({
      kind: "failed",
      error: "Overloaded",
    });
    expect(
      await scriptedWorker([{ delta: "  \n" }, "done"]).worker.branchSummary(branchSummaryJob(), recorder().onProgress),
    ).toMatchObject({
      kind: "failed",
    });
  });

  it("resolves cancelled when cancelled by op id, even if the provider never answers", async () => {
    const { worker } = scriptedWorker([{ delta: "partial" }, "hang"]);
    const pending = worker.branchSummary(branchSummaryJob(), recorder().onProgress, "op-b2");
    await new Promise((r) => setTimeout(r, 10));
    expect(await worker.cancel("op-b2")).toBe(true);
    expect(await pending).toEqual({ kind: "cancelled" });
  });

  it("has nothing to summarize for a branch the model never saw, and makes no request", async () => {
    const { worker, requests } = scriptedWorker(["done"]);
    const empty = linkPath([a("x", [], { status: "error", error: { kind: "network", message: "down" } })]);
    expect((await worker.branchSummary(branchSummaryJob({ abandoned: empty }), recorder().onProgress)).kind).toBe(
      "nothing_to_summarize",
    );
    expect(requests).toHaveLength(0);
  });
});

describe("handoffDocument", () => {
  it("sends the chat's context plus exactly one user message, with the chat's thinking, to the chat model", async () => {
    const { worker, requests } = scriptedWorker([{ thinking: "hmm" }, { delta: "## Goal\nShip it." }, "done"]);
    const { seen, onProgress } = recorder<HandoffDocumentProgress>();
    const outcome = await worker.handoffDocument(handoffJob({ focus: "tests next" }), onProgress, "op-h1");
    expect(outcome).toEqual({ kind: "document", document: "## Goal\nShip it.", fromEntryId: "a1" });
    const sent = requests[0]!;
    const built = buildContext(path, { systemPrompt: "Be terse.", targetApi: "anthropic-messages" });
    expect(sent.model).toBe("claude-sonnet-4-5");
    expect(sent.thinking).toEqual({ kind: "anthropic-budget", budgetTokens: 2_048 });
    expect(sent.context.system).toBe(built.system);
    expect(sent.context.messages.slice(0, -1)).toEqual(built.messages);
    expect(sent.context.messages).toHaveLength(built.messages.length + 1);
    expect(JSON.stringify(sent.context.messages.at(-1))).toContain("tests next");
    expect(seen.at(-1)).toEqual({ phase: "writing", text: "## Goal\nShip it." });
  });

  it("a tool call the model makes anyway adds nothing to the document", async () => {
    const { worker } = scriptedWorker([
      { delta: "## Goal\n" },
      { toolCall: "read_file" },
      { delta: "Ship it." },
      "done",
    ]);
    expect(await worker.handoffDocument(handoffJob(), recorder().onProgress)).toEqual({
      kind: "document",
      document: "## Goal\nShip it.",
      fromEntryId: "a1",
    });
  });

  it("reports an empty document (the caller falls back to compaction)", async () => {
    const { worker } = scriptedWorker([{ delta: "\n\n" }, "done"]);
    expect(await worker.handoffDocument(handoffJob(), recorder().onProgress)).toEqual({
      kind: "empty",
      fromEntryId: "a1",
    });
  });

  it("reports too_long without a request when the context leaves no room for the document", async () => {
    const { worker, requests } = scriptedWorker(["done"]);
    const outcome = await worker.handoffDocument(handoffJob({ contextWindow: 200 }), recorder().onProgress);
    expect(outcome.kind).toBe("too_long");
    expect(requests).toHaveLength(0);
  });

  it("fails on a provider error and resolves cancelled when cancelled", async () => {
    const failed = await scriptedWorker([{ error: { kind: "auth", message: "bad key" } }]).worker.handoffDocument(
      handoffJob(),
      recorder().onProgress,
    );
    expect(failed).toEqual({ kind: "failed", error: "bad key" });

    const { worker } = scriptedWorker(["hang"]);
    const pending = worker.handoffDocument(handoffJob(), recorder().onProgress, "op-h2");
    await new Promise((r) => setTimeout(r, 10));
    expect(await worker.cancel("op-h2")).toBe(true);
    expect(await pending).toEqual({ kind: "cancelled" });
  });
});

describe("what maintenance requests cost (sideUsage)", () => {
  it("a branch summary's entry records the usage its request reported", async () => {
    const { worker } = scriptedWorker([{ delta: SUMMARY }, { usage: { input: 900, output: 40 } }, "done"]);
    const outcome = await worker.branchSummary(branchSummaryJob(), recorder<BranchSummaryProgress>().onProgress);
    expect(outcome).toMatchObject({
      kind: "done",
      entry: { sideUsage: [{ model: "claude-haiku-4-5", usage: { input: 900, output: 40 } }] },
    });
  });

  it("a handoff document carries the usage of its request; none reported, none recorded", async () => {
    const doc = "## Goal\nShip the parser.\n\n## Next steps\n- Quoting.";
    const reported = await scriptedWorker([
      { delta: doc },
      { usage: { input: 300, output: 20 } },
      "done",
    ]).worker.handoffDocument(handoffJob(), recorder<HandoffDocumentProgress>().onProgress);
    expect(reported).toMatchObject({
      kind: "document",
      sideUsage: [{ model: "claude-sonnet-4-5", usage: { input: 300, output: 20 } }],
    });
    const silent = await scriptedWorker([{ delta: SUMMARY }, "done"]).worker.branchSummary(
      branchSummaryJob(),
      recorder<BranchSummaryProgress>().onProgress,
    );
    expect(silent.kind === "done" && "sideUsage" in silent.entry).toBe(false);
  });
});
