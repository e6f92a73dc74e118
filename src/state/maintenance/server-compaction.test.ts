import { describe, expect, it } from "vitest";
import type { MessageEntry } from "../../core/session/entries";
import { a, compaction, eid, linkPath, u } from "../../core/testing/entries";
import { applyCompactionEvent } from "../../providers/anthropic-compaction-events";
import type { AssistantPartial } from "../../providers/types";
import { serverCompactionEntry } from "./server-compaction";

const BLOCK = {
  type: "compaction",
  content: "Claude's summary. More.",
  encrypted_content: "ENC",
  signature: "SIG",
} as const;

describe("server-side compaction", () => {
  it("the stream's compaction block is kept on the partial verbatim, never as text", () => {
    const partial: AssistantPartial = { content: [], providerId: "anthropic", api: "anthropic-messages", model: "m" };
    expect(
      applyCompactionEvent(
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "compaction", content: null, encrypted_content: null, signature: "SIG" },
        },
        partial,
      ),
    ).toBe(true);
    expect(
      applyCompactionEvent(
        {
          type: "content_block_delta",
          index: 0,
          delta: { type: "compaction_delta", content: BLOCK.content, encrypted_content: "ENC" },
        },
        partial,
      ),
    ).toBe(true);
    expect(
      applyCompactionEvent(
        { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
        partial,
      ),
    ).toBe(false);
    expect(partial.compaction).toEqual(BLOCK);
    expect(partial.content).toEqual([]);
  });

  it("stores the block on a compaction entry after the reply, keeping the user's turns", () => {
    const path = linkPath([
      u("u1", "My cat is Miso."),
      a("a1", "Nice."),
      compaction("c0", { summary: "S", firstKept: "u2", kept: ["u1"] }),
      u("u2", "More"),
    ]);
    const reply = {
      ...linkPath([a("r", "Reply.")])[0],
      sessionId: path[0]?.sessionId,
      parentId: eid("u2"),
      provider: "anthropic",
      api: "anthropic-messages",
      model: "claude-x",
      usage: { input: 900, output: 5 },
    } as MessageEntry;
    const entry = serverCompactionEntry(reply, BLOCK, path, 42);
    expect(entry).toMatchObject({
      type: "compaction",
      parentId: eid("r"),
      firstKeptEntryId: eid("r"),
      summary: BLOCK.content,
      shortSummary: "Claude's summary.",
      compactedBy: "anthropic",
      tokensBefore: 900,
      preserveData: {
        anthropicCompaction: { api: "anthropic-messages", provider: "anthropic", model: "claude-x", block: BLOCK },
      },
    });
    expect(entry.keptUserTurnIds).toEqual([eid("u1"), eid("u2")]);
  });
});
