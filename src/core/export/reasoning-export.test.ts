/**
 * OpenAI Responses reasoning blocks through every export: Grove JSON keeps them byte-identical,
 * Markdown and HTML show the summary like thinking (never the encrypted content), the pi export
 * writes pi's form (`api: "openai-responses"`, a thinking block signed with the item as JSON) and
 * the pi import turns that back into the same block.
 */
import { describe, expect, it } from "vitest";
import type { Entry, MessageEntry, ReasoningBlock, Session } from "../session/entries";
import { asEntryId, asSessionId } from "../session/ids";
import { type ExportedSession, exportGroveJson, parseGroveJson } from "./grove-json";
import { exportHtml } from "./html";
import { exportMarkdown } from "./markdown";
import { exportPiJsonl } from "./pi/export";
import { parsePiJsonl } from "./pi/import";

const S = asSessionId("s-reasoning");
const ENCRYPTED = "gAAAAABo-opaque+encrypted/blob==";

const REASONING: ReasoningBlock = {
  type: "reasoning",
  api: "openai-responses",
  provider: "openai",
  id: "rs_68a1",
  encryptedContent: ENCRYPTED,
  summary: ["**Comparing dates**\n\nThe user asks about Tuesday.", "Second part."],
};

function sample(): ExportedSession {
  const session: Session = {
    id: S,
    title: "Dates",
    titleSource: "user",
    createdAt: 1000,
    updatedAt: 3000,
    leafId: asEntryId("a1"),
    model: { providerId: "openai", modelId: "gpt-5" },
  };
  const entries: Entry[] = [
    {
      type: "message",
      id: asEntryId("u1"),
      sessionId: S,
      parentId: null,
      createdAt: 1000,
      role: "user",
      status: "complete",
      content: [{ type: "text", text: "What day is it?" }],
    },
    {
      type: "message",
      id: asEntryId("a1"),
      sessionId: S,
      parentId: asEntryId("u1"),
      createdAt: 2000,
      role: "assistant",
      status: "complete",
      provider: "openai",
      api: "openai-responses",
      model: "gpt-5",
      usage: { input: 10, output: 20 },
      stopReason: "end",
      content: [REASONING, { type: "text", text: "Tuesday." }],
    },
  ];
  return { session, entries, labels: {} };
}

describe("reasoning blocks in exports", () => {
  it("Grove JSON: export → import → export is byte-identical and keeps the block whole", () => {
    const text = exportGroveJson([sample()]);
    const back = parseGroveJson(text);
    if (back.kind !== "ok") throw new Error(back.message);
    expect(exportGroveJson(back.sessions)).toBe(text);
    const reply = back.sessions[0]?.entries[1] as MessageEntry;
    expect(reply.content[0]).toEqual(REASONING);
    expect(reply.api).toBe("openai-responses");
  });

  it("Grove JSON import rejects a malformed reasoning block", () => {
    const doc = JSON.parse(exportGroveJson([sample()])) as {
      sessions: Array<{ entries: Array<{ content?: Array<Record<string, unknown>> }> }>;
    };
    const block = doc.sessions[0]?.entries[1]?.content?.[0];
    if (!block) throw new Error("no reasoning block in the export");
    block.summary = "not a list";
    expect(parseGroveJson(JSON.stringify(doc)).kind).toBe("error");
  });

  it("Markdown and HTML show the summary like thinking, never the encrypted content", () => {
    const md = exportMarkdown(sample(), { allBranches: false });
    expect(md).toContain("**Thinking**");
    expect(md).toContain("Comparing dates");
    expect(md).not.toContain(ENCRYPTED);
    const html = exportHtml(sample(), { now: 0 });
    expect(html).toContain('<details class="thinking"><summary>Thinking</summary>');
    expect(html).toContain("Second part.");
    expect(html).not.toContain(ENCRYPTED);
  });

  it("pi: exported as api openai-responses with the item as the thinking signature, imported back as the same block", () => {
    const jsonl = exportPiJsonl(sample());
    const lines = jsonl
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; message?: { role: string; api?: string; content: unknown[] } });
    const reply = lines.find((l) => l.message?.role === "assistant")?.message;
    expect(reply?.api).toBe("openai-responses");
    const thinking = reply?.content[0] as { type: string; thinking: string; thinkingSignature: string };
    expect(thinking.type).toBe("thinking");
    expect(thinking.thinking).toBe(REASONING.summary.join("\n\n"));
    expect(JSON.parse(thinking.thinkingSignature)).toEqual({
      type: "reasoning",
      id: "rs_68a1",
      summary: REASONING.summary.map((text) => ({ type: "summary_text", text })),
      encrypted_content: ENCRYPTED,
    });

    const back = parsePiJsonl(jsonl);
    if (back.kind !== "ok") throw new Error(back.message);
    const imported = back.sessions[0]?.entries.find((e) => e.type === "message" && e.role === "assistant");
    expect(imported).toMatchObject({ api: "openai-responses", provider: "openai" });
    expect((imported as MessageEntry).content).toEqual([REASONING, { type: "text", text: "Tuesday." }]);
  });

  it("pi import: an openai-responses thinking block whose signature is not a reasoning item stays plain thinking", () => {
    const header = { type: "session", version: 3, id: "pi-1", timestamp: "2025-12-01T10:00:00.000Z", cwd: "/" };
    const user = {
      type: "message",
      id: "m1",
      parentId: null,
      timestamp: "2025-12-01T10:00:01.000Z",
      message: { role: "user", content: "hi", timestamp: 1 },
    };
    const reply = {
      type: "message",
      id: "m2",
      parentId: "m1",
      timestamp: "2025-12-01T10:00:02.000Z",
      message: {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hmm", thinkingSignature: "not json" },
          { type: "text", text: "hello" },
        ],
        api: "openai-responses",
        provider: "openai",
        model: "gpt-5",
        stopReason: "stop",
        timestamp: 2,
      },
    };
    const r = parsePiJsonl(`${[header, user, reply].map((l) => JSON.stringify(l)).join("\n")}\n`);
    if (r.kind !== "ok") throw new Error(r.message);
    const imported = r.sessions[0]?.entries[1] as MessageEntry;
    expect(imported.api).toBe("openai-responses");
    expect(imported.content[0]).toMatchObject({ type: "thinking", text: "hmm" });
  });
});
