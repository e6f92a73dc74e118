/**
 * The worker's summary jobs with a remote summarizer set: the remote call writes the summary and
 * the provider gets no request; when it fails, the model writes it and the outcome carries the
 * notice; an abort cancels and never falls back. The remote call is injected (no network).
 */
import * as Comlink from "comlink";
import { describe, expect, it } from "vitest";
import { BRANCH_SUMMARY_PREAMBLE, BRANCH_SUMMARY_SYSTEM } from "../core/prompts";
import { type RemoteSummarizerConfig, RemoteSummarizerError } from "../providers/remote-summarizer";
import type { BranchSummaryProgress } from "./api";
import { branchSummaryJob } from "./testing/jobs";
import { estimateCounter, scriptedStream } from "./testing/streams";
import { createWorkerApi } from "./worker-api";

const REMOTE: RemoteSummarizerConfig = {
  url: "https://summarizer.example/api",
  token: "remote-tok",
  tokenOrigin: "https://summarizer.example",
};
const MODEL_SUMMARY = "## Goal\nWritten by the model.";
const REMOTE_SUMMARY = "## Goal\nWritten by the remote summarizer.";

const job = (remote?: RemoteSummarizerConfig) => branchSummaryJob({}, remote);

type Call = { config: RemoteSummarizerConfig; body: { systemPrompt: string; prompt: string } };

function setup(remote: (call: Call, signal: AbortSignal) => Promise<string>) {
  const { stream, requests } = scriptedStream([{ delta: MODEL_SUMMARY }, "done"]);
  const calls: Call[] = [];
  const worker = createWorkerApi({
    stream,
    counterFor: estimateCounter,
    progressIntervalMs: 0,
    remoteSummarize: (config, body, signal) => {
      const call = { config, body };
      calls.push(call);
      return remote(call, signal);
    },
  });
  return { worker, requests, calls };
}

const progress = () => Comlink.proxy((_p: BranchSummaryProgress) => {});

describe("remote summarizer in the worker", () => {
  it("writes the branch summary; the provider gets no summarizer request", async () => {
    const { worker, requests, calls } = setup(async () => REMOTE_SUMMARY);
    const outcome = await worker.branchSummary(job(REMOTE), progress());
    expect(outcome).toMatchObject({
      kind: "done",
      entry: { summary: `${BRANCH_SUMMARY_PREAMBLE}\n\n${REMOTE_SUMMARY}` },
    });
    expect(outcome.notices).toBeUndefined();
    // The card says who wrote it.
    expect(outcome).toMatchObject({ entry: { model: "remote summarizer (summarizer.example)" } });
    expect(requests).toHaveLength(0);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body.systemPrompt).toBe(BRANCH_SUMMARY_SYSTEM);
    expect(calls[0]?.body.prompt).toContain("Approach A failed with a timeout.");
  });

  it("is not called when no URL is set", async () => {
    const { worker, requests, calls } = setup(async () => REMOTE_SUMMARY);
    const outcome = await worker.branchSummary(job(), progress());
    expect(outcome).toMatchObject({
      kind: "done",
      entry: { summary: `${BRANCH_SUMMARY_PREAMBLE}\n\n${MODEL_SUMMARY}` },
    });
    expect(calls).toHaveLength(0);
    expect(requests).toHaveLength(1);
  });

  it("falls back to the model on failure, with a notice naming the reason and the model", async () => {
    const { worker, requests } = setup(async () => {
      throw new RemoteSummarizerError("The remote summarizer answered HTTP 500");
    });
    const outcome = await worker.branchSummary(job(REMOTE), progress());
    expect(outcome).toMatchObject({
      kind: "done",
      entry: { summary: `${BRANCH_SUMMARY_PREAMBLE}\n\n${MODEL_SUMMARY}` },
    });
    expect(outcome.notices).toEqual([
      "Remote summarizer failed: The remote summarizer answered HTTP 500; used claude-haiku-4-5 instead.",
    ]);
    expect(outcome).toMatchObject({ entry: { model: "claude-haiku-4-5" } });
    expect(requests).toHaveLength(1);
  });

  it("cancel aborts the remote call and does not fall back", async () => {
    let seenSignal: AbortSignal | undefined;
    const { worker, requests } = setup(
      (_call, signal) =>
        new Promise<string>((_, reject) => {
          seenSignal = signal;
          signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        }),
    );
    const pending = worker.branchSummary(job(REMOTE), progress(), "op-remote");
    await expect.poll(() => seenSignal).toBeDefined();
    expect(await worker.cancel("op-remote")).toBe(true);
    expect(await pending).toEqual({ kind: "cancelled" });
    expect(seenSignal?.aborted).toBe(true);
    expect(requests).toHaveLength(0);
  });
});
