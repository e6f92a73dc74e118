import { describe, expect, it } from "vitest";
import type { CompactionOutcome } from "../core/compaction/compact";
import { DEFAULT_COMPACTION_SETTINGS } from "../core/compaction/settings";
import { a, eid, linkPath, u } from "../core/testing/entries";
import type { NativeCompactionRequest } from "../providers/native-compaction";
import { testProvider } from "../providers/testing/requests";
import type { CompactJob } from "./api";
import { withNativeCompaction } from "./native-step";

const provider = testProvider("openai-responses");
const path = linkPath([u("u1", "My cat is Miso."), a("a1", "Nice."), u("u2", "More"), a("a2", "Sure.")]);
const job: CompactJob = {
  path,
  reason: "manual",
  settings: DEFAULT_COMPACTION_SETTINGS,
  systemPrompt: "Be brief.",
  targetApi: "openai-responses",
  contextWindow: 100_000,
  encoding: "o200k_base",
  countScale: 1,
  summarizer: { provider, model: "gpt-5-mini", contextWindow: 100_000, maxOutput: 8000 },
  native: { method: "openai", provider, model: "gpt-5", maxOutput: 8000 },
};
const done: Extract<CompactionOutcome, { kind: "done" }> = {
  kind: "done",
  tokensBefore: 100,
  tokensAfter: 20,
  entry: {
    type: "compaction",
    summary: "GROVE",
    shortSummary: "g",
    firstKeptEntryId: eid("u2"),
    keptUserTurnIds: [eid("u1")],
    tokensBefore: 100,
    tokensAfter: 20,
    reason: "manual",
    model: "gpt-5-mini",
  },
};
const ITEMS = [{ type: "compaction", id: "cmp", encrypted_content: "X" }];

describe("the provider-native step of a compaction", () => {
  it("sends only the folded part and keeps the provider's items with Grove's summary", async () => {
    const seen: NativeCompactionRequest[] = [];
    const out = await withNativeCompaction(job, done, new AbortController().signal, async (req) => {
      seen.push(req);
      return {
        method: "openai",
        openaiRemoteCompaction: { api: provider.api, provider: provider.id, model: req.model, items: ITEMS },
      };
    });
    expect(seen[0]?.context.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(JSON.stringify(seen[0]?.context)).not.toContain("More");
    if (out.kind !== "done") throw new Error(out.kind);
    expect(out.entry.compactedBy).toBe("openai");
    expect(out.entry.summary).toBe("GROVE");
    expect(out.entry.preserveData?.openaiRemoteCompaction?.items).toBe(ITEMS);
  });

  it("falls back to Grove's summary, with the reason, when the provider's call fails", async () => {
    const out = await withNativeCompaction(job, done, new AbortController().signal, async () => {
      throw new Error("500 Internal Server Error");
    });
    if (out.kind !== "done") throw new Error(out.kind);
    expect(out.entry.compactedBy).toBe("grove");
    expect(out.entry.nativeFallback).toBe("500 Internal Server Error");
    expect(out.entry.preserveData).toBeUndefined();
    expect(out.entry.summary).toBe("GROVE");
  });

  it("is cancelled, not a fallback, when the user cancels during the provider's call", async () => {
    const controller = new AbortController();
    const out = await withNativeCompaction(job, done, controller.signal, async () => {
      controller.abort();
      throw new Error("aborted");
    });
    expect(out.kind).toBe("cancelled");
  });
});
