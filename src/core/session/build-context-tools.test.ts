/**
 * Tool steps in the request (issue 28): with `nativeTools`, a reply's calls and their results go as
 * the target's own tool blocks when the target made them; pairs are never split (a call without its
 * answer, or an answer without its call, goes as text); server tool blocks go back verbatim only to
 * their provider; a result larger than the model may see is cut with a note.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { a, compaction, linkPath, tool, u } from "../testing/entries";
import { type BuildContextOptions, buildContext } from "./build-context";
import type { ContextMessage } from "./context";
import type { Block, ServerToolBlock, ToolResultBlock } from "./entries";
import { toolResultModelText } from "./entry-text";
import { pairToolBlocks } from "./tool-pairs";

const ANTHROPIC: BuildContextOptions = {
  systemPrompt: "",
  targetApi: "anthropic-messages",
  targetProviderId: "anthropic",
  nativeTools: true,
};
const BY_CLAUDE = { api: "anthropic-messages" as const, provider: "anthropic" };

const call = (id: string, name = "read_file", args: unknown = { path: `${id}.txt` }): Block => ({
  type: "tool_call",
  id,
  name,
  args,
});
const result = (callId: string, text = `contents of ${callId}`, extra: Partial<ToolResultBlock> = {}): Block => ({
  type: "tool_result",
  callId,
  toolName: "read_file",
  text,
  isError: false,
  ...extra,
});
const types = (messages: readonly ContextMessage[]) => messages.map((m) => [m.role, m.content.map((b) => b.type)]);

describe("buildContext with native tools", () => {
  it("sends the target's own calls and their results as tool blocks, results first and in call order", () => {
    const path = linkPath([
      u("u1", "read both"),
      a("a1", [{ type: "text", text: "Reading." }, call("c1"), call("c2")], BY_CLAUDE),
      // Parallel calls can finish in any order: the results are sent in the calls' order.
      tool("t2", [result("c2")]),
      tool("t1", [result("c1")]),
      a("a2", "Both read.", BY_CLAUDE),
      u("u2", "thanks"),
    ]);
    const { messages } = buildContext(path, ANTHROPIC);
    expect(types(messages)).toEqual([
      ["user", ["text"]],
      ["assistant", ["text", "tool_call", "tool_call"]],
      ["user", ["tool_result", "tool_result"]],
      ["assistant", ["text"]],
      ["user", ["text"]],
    ]);
    expect(messages[2]?.content).toEqual([
      { type: "tool_result", callId: "c1", toolName: "read_file", text: "contents of c1", isError: false },
      { type: "tool_result", callId: "c2", toolName: "read_file", text: "contents of c2", isError: false },
    ]);
  });

  it("without nativeTools, or for another api or provider, tool steps go as text (today's chat request)", () => {
    const path = linkPath([u("u1", "go"), a("a1", [call("c1")], BY_CLAUDE), tool("t1", [result("c1")]), a("a2", "ok")]);
    const asText = [
      ["user", ["text"]],
      ["assistant", ["text"]],
      ["user", ["text"]],
      ["assistant", ["text"]],
    ];
    expect(types(buildContext(path, { ...ANTHROPIC, nativeTools: false }).messages)).toEqual(asText);
    expect(types(buildContext(path, { ...ANTHROPIC, targetProviderId: "other-claude" }).messages)).toEqual(asText);
    expect(types(buildContext(path, { ...ANTHROPIC, targetApi: "openai-chat" }).messages)).toEqual(asText);
    expect(types(buildContext(path, { ...ANTHROPIC, targetProviderId: undefined }).messages)).toEqual(asText);
    const text = buildContext(path, { ...ANTHROPIC, targetProviderId: "other" }).messages[1]?.content[0];
    expect(text).toEqual({ type: "text", text: '[Tool call: read_file]\n{"path":"c1.txt"}' });
  });

  it("never splits a pair: a call without its answer and an answer without its call go as text", () => {
    const path = linkPath([
      u("u1", "go"),
      // Stopped mid-step: c1 was answered, c2 never was.
      a("a1", [call("c1"), call("c2")], BY_CLAUDE),
      tool("t1", [result("c1")]),
      u("u2", "why did you stop?"),
      // A result whose call is not on this path (another branch's, or folded).
      tool("t9", [result("c9")]),
      a("a2", "Sorry.", BY_CLAUDE),
    ]);
    const { messages } = buildContext(path, ANTHROPIC);
    expect(types(messages)).toEqual([
      ["user", ["text"]],
      ["assistant", ["tool_call", "text"]],
      ["user", ["tool_result", "text"]],
      ["assistant", ["text"]],
    ]);
    expect(messages[1]?.content[1]).toEqual({ type: "text", text: '[Tool call: read_file]\n{"path":"c2.txt"}' });
    // The stray result is text, merged with the user's message it now touches.
    expect(messages[2]?.content[1]).toEqual({
      type: "text",
      text: "why did you stop?\n\n---\n\n[Tool result: read_file]\ncontents of c9",
    });
  });

  it("after a compaction folded the call, its kept result goes as text", () => {
    const path = linkPath([
      u("u1", "go"),
      a("a1", [call("c1")], BY_CLAUDE),
      tool("t1", [result("c1")]),
      compaction("k", { summary: "S", firstKept: "t1" }),
      a("a2", "Done.", BY_CLAUDE),
    ]);
    const { messages } = buildContext(path, ANTHROPIC);
    expect(messages.flatMap((m) => m.content.map((b) => b.type))).not.toContain("tool_result");
    expect(JSON.stringify(messages)).toContain("[Tool result: read_file]");
  });

  it("sends a result cut for the model as its start plus the note; the entry keeps it whole", () => {
    const big = "x".repeat(500);
    const stored = result("c1", big, { shownChars: 100 }) as ToolResultBlock;
    const path = linkPath([u("u1", "go"), a("a1", [call("c1")], BY_CLAUDE), tool("t1", [stored])]);
    const sent = buildContext(path, ANTHROPIC).messages[2]?.content[0];
    expect(sent).toEqual({
      type: "tool_result",
      callId: "c1",
      toolName: "read_file",
      text: `${"x".repeat(100)}\n\n[Output truncated: the model is shown the first 100 of 500 characters]`,
      isError: false,
    });
    expect(toolResultModelText(stored)).toBe((sent as ToolResultBlock).text);
    expect(stored.text).toHaveLength(500);
    // As text (another provider) the same cut text is sent.
    const asText = buildContext(path, { ...ANTHROPIC, nativeTools: false }).messages[2]?.content[0];
    expect(asText).toEqual({ type: "text", text: `[Tool result: read_file]\n${(sent as ToolResultBlock).text}` });
  });

  it("server tools go back verbatim to their own provider only, with their pair; citations never", () => {
    const server = (part: ServerToolBlock["part"], callId = "srv1", provider = "anthropic"): ServerToolBlock => ({
      type: "server_tool",
      api: "anthropic-messages",
      provider,
      tool: "web_search",
      name: "web_search",
      part,
      callId,
      ...(part === "use" ? { input: { query: "q" } } : { sources: [{ url: "https://e.com", title: "E" }] }),
      raw: { type: part === "use" ? "server_tool_use" : "web_search_tool_result" },
    });
    const path = linkPath([
      u("u1", "search"),
      a(
        "a1",
        [
          server("use"),
          server("result"),
          // A use whose result never came (the reply was stopped there).
          server("use", "srv2"),
          { type: "text", text: "Found E.", citations: [{ url: "https://e.com" }] },
        ],
        BY_CLAUDE,
      ),
      u("u2", "more"),
    ]);
    const { messages } = buildContext(path, ANTHROPIC);
    expect(messages[1]?.content.map((b) => (b.type === "server_tool" ? `${b.part}:${b.callId}` : b.type))).toEqual([
      "use:srv1",
      "result:srv1",
      "text",
      "text",
    ]);
    expect(messages[1]?.content[3]).toEqual({ type: "text", text: "Found E." });
    const other = buildContext(path, { ...ANTHROPIC, targetProviderId: "proxy" }).messages[1]?.content;
    expect(other?.every((b) => b.type === "text")).toBe(true);
    expect(other?.[1]).toEqual({ type: "text", text: "[Web search result]\n- E (https://e.com)" });
  });

  it("a message the user typed after the results is sent after them, in the same user turn", () => {
    const path = linkPath([
      u("u1", "go"),
      a("a1", [call("c1")], BY_CLAUDE),
      tool("t1", [result("c1")]),
      u("u2", "also look at b"),
    ]);
    const { messages } = buildContext(path, ANTHROPIC);
    expect(types(messages)).toEqual([
      ["user", ["text"]],
      ["assistant", ["tool_call"]],
      ["user", ["tool_result", "text"]],
    ]);
  });
});

describe("pairToolBlocks (property)", () => {
  const id = fc.constantFrom("a", "b", "c");
  const block = fc.oneof(
    id.map((i): ContextMessage["content"][number] => ({ type: "tool_call", id: i, name: "f", args: {} })),
    id.map((i): ContextMessage["content"][number] => ({ type: "tool_result", callId: i, text: "r", isError: false })),
    fc.constant<ContextMessage["content"][number]>({ type: "text", text: "t" }),
  );
  const message = fc
    .tuple(fc.constantFrom("user" as const, "assistant" as const), fc.array(block, { minLength: 1, maxLength: 4 }))
    .map(
      ([role, content]) =>
        ({
          role,
          content: content.filter((b) => (role === "user" ? b.type !== "tool_call" : b.type !== "tool_result")),
        }) as ContextMessage,
    );

  it("every call left is answered at the start of the next message, every result left answers the call before", () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), (messages) => {
        const out = pairToolBlocks(messages);
        out.forEach((m, i) => {
          if (m.role !== "assistant") return;
          const calls = m.content.flatMap((b) => (b.type === "tool_call" ? [b.id] : []));
          const next = out[i + 1];
          const lead = (next?.role === "user" ? next.content : []).slice(0, calls.length);
          expect(lead.map((b) => (b.type === "tool_result" ? b.callId : null))).toEqual(calls);
        });
        out.forEach((m, i) => {
          if (m.role !== "user") return;
          const prev = out[i - 1];
          const offered =
            prev?.role === "assistant" ? prev.content.flatMap((b) => (b.type === "tool_call" ? [b.id] : [])) : [];
          const answered = m.content.flatMap((b) => (b.type === "tool_result" ? [b.callId] : []));
          expect(answered).toEqual(offered);
        });
      }),
    );
  });
});
