/**
 * Every part of an exported chat that untrusted text can fill, one builder per part: the hostile
 * export tests (Markdown under three renderers, HTML) put each piece of a hostile corpus in each part.
 * Issue 30.1: an OpenAI reasoning summary reached the Markdown export raw; a part missing here is a
 * part no test guards, so it lists every field an entry can carry that an export writes.
 * Test support only.
 */
import type { Entry, Session } from "../../session/entries";
import { asSessionId, type EntryId } from "../../session/ids";
import {
  a,
  at,
  blobId,
  branchSummary,
  compaction,
  eid,
  handoff,
  SESSION,
  text,
  thinking,
  tool,
  u,
} from "../../testing/entries";
import type { ExportedSession } from "../grove-json";

/** Places the hostile text could come from, each filling one part of the export. */
export const HOSTILE_PARTS: Record<string, (h: string) => ExportedSession> = {
  "user message": (h) => chat([u("u1", h)]),
  "assistant message": (h) => chat([u("u1", "hi"), a("a1", [text("ok"), text(h)])]),
  thinking: (h) => chat([u("u1", "hi"), a("a1", [thinking(h), text("ok")])]),
  "thinking label": (h) => chat([u("u1", "hi"), a("a1", [thinking("considered", { label: h }), text("ok")])]),
  "compaction summary": (h) => chat([u("u1", "hi"), compaction("c1", { summary: h, firstKept: null })]),
  "compaction instructions": (h) =>
    chat([u("u1", "hi"), { ...compaction("c1", { summary: "s", firstKept: null }), instructions: h }]),
  "branch summary": (h) => chat([branchSummary("b1", h), u("u1", "hi")]),
  "handoff document": (h) => chat([handoff("h1", h), u("u1", "hi")]),
  "system prompt": (h) => chat([u("u1", "hi")], { systemPrompt: h }),
  title: (h) => chat([u("u1", "hi")], { title: h }),
  label: (h) => ({ ...chat([u("u1", "hi")]), labels: { [eid("u1")]: h } as Record<EntryId, string> }),
  "model name": (h) => chat([u("u1", "hi"), a("a1", "ok", { model: h })], { model: undefined }),
  "tool call": (h) =>
    chat([
      u("u1", "hi"),
      a("a1", [{ type: "tool_call", id: "c", name: h, args: { q: h } }], { stopReason: "tool_use" }),
    ]),
  "tool result": (h) =>
    chat([u("u1", "hi"), tool("t1", [{ type: "tool_result", callId: "c", toolName: h, text: h, isError: true }])]),
  "server tool": (h) =>
    chat([
      u("u1", "hi"),
      a("a1", [
        {
          type: "server_tool",
          api: "anthropic-messages",
          provider: "anthropic",
          tool: "mcp",
          name: h,
          server: h,
          part: "item",
          callId: "x",
          input: { query: h },
          output: h,
          sources: [{ url: h, title: h }],
          raw: { type: h },
        },
        { type: "text", text: "ok", citations: [{ url: h, title: h, citedText: h }] },
      ]),
    ]),
  "reasoning summary": (h) =>
    chat([
      u("u1", "hi"),
      a("a1", [
        { type: "reasoning", api: "openai-responses", provider: "openai", id: "rs_1", summary: [h, h] },
        text("ok"),
      ]),
    ]),
  "attachment names": (h) =>
    chat([
      u("u1", [
        { type: "image", blobId: blobId("b1"), mimeType: "image/png", name: h },
        { type: "image", blobId: blobId("b2"), mimeType: h },
        { type: "document", blobId: blobId("b3"), mimeType: "application/pdf", name: h, size: 1 },
        { type: "text_file", name: h, mimeType: "text/plain", text: "x" },
        text("see these"),
      ]),
    ]),
  "text file": (h) =>
    chat([u("u1", [{ type: "text_file", name: `${h}.md`, mimeType: "text/markdown", text: h }, text("read it")])]),
  "context note": (h) =>
    chat([
      u("u1", "hi"),
      { type: "context_note", id: eid("n1"), customType: h, content: [text(h)], display: true },
      a("a1", "ok"),
    ]),
  command: (h) =>
    chat([u("u1", "hi"), { type: "command", id: eid("x1"), command: h, output: h, exitCode: 1 }, a("a1", "ok")]),
  "model and thinking changes": (h) =>
    chat([
      u("u1", "hi"),
      { type: "model_change", id: eid("m1"), provider: h, modelId: h },
      { type: "thinking_level_change", id: eid("m2"), thinkingLevel: h },
      a("a1", "ok"),
    ]),
  "handoff origin": (h) => chat([{ ...handoff("h1", "doc"), fromSessionId: asSessionId(h) }, u("u1", "hi")]),
  "tool result name": (h) =>
    chat([u("u1", "hi"), tool("t1", [{ type: "tool_result", callId: h, toolName: h, text: "out", isError: false }])]),
  "error message": (h) =>
    chat([u("u1", "hi"), a("a1", "partial", { status: "error", error: { kind: "unknown", message: h } })]),
  "other branch": (h) => {
    const entries: Entry[] = [at(u("u1", "hi"), null, 1), at(a("a1", "ok"), "u1", 2), at(u("u2", h), "u1", 3)];
    return { session: session({ leafId: eid("a1") }), entries, labels: {} };
  },
};

export function chat(specs: Parameters<typeof at>[0][], over: Partial<Session> = {}): ExportedSession {
  const entries = specs.map((spec, i) => at(spec, i === 0 ? null : (specs[i - 1]?.id ?? null), i + 1));
  return { session: session({ leafId: entries.at(-1)?.id ?? null, ...over }), entries, labels: {} };
}

function session(over: Partial<Session>): Session {
  return {
    id: SESSION,
    title: "T",
    titleSource: "user",
    createdAt: 0,
    updatedAt: 0,
    leafId: null,
    model: { providerId: "anthropic", modelId: "m" },
    ...over,
  };
}
