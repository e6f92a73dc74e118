import { describe, expect, it } from "vitest";
import {
  BRANCH_SUMMARY_CONTEXT,
  COMPACTED_SYSTEM_NOTE,
  COMPACTION_KEPT_USER_TURNS,
  COMPACTION_SUMMARY_CONTEXT,
  fillTemplate,
  HANDOFF_CONTEXT,
} from "../prompts";
import {
  a,
  blobId,
  branchSummary,
  compaction,
  eid,
  handoff,
  linkPath,
  text,
  thinking,
  tool,
  u,
} from "../testing/entries";
import { type BuildContextOptions, buildContext } from "./build-context";
import { type ContextAttachment, type ContextMessage, contextBlockText } from "./context";
import type { TextBlock } from "./entries";
import { LEADING_USER_PLACEHOLDER, MERGE_DELIMITER } from "./normalize-messages";

const ANTHROPIC: BuildContextOptions = { systemPrompt: "Be brief.", targetApi: "anthropic-messages" };
const OPENAI: BuildContextOptions = { systemPrompt: "Be brief.", targetApi: "openai-chat" };

const userMsg = (t: string): ContextMessage => ({ role: "user", content: [{ type: "text", text: t }] });
const asstMsg = (t: string): ContextMessage => ({ role: "assistant", content: [{ type: "text", text: t }] });
const branchText = (summary: string) => fillTemplate(BRANCH_SUMMARY_CONTEXT, { summary });
const handoffText = (document: string) => fillTemplate(HANDOFF_CONTEXT, { document });
/** All the text the model sees, for "is it in there at all" checks. */
const allText = (messages: readonly ContextMessage[]) =>
  messages.flatMap((m) => m.content.map(contextBlockText)).join("\n");

describe("buildContext: plain chat", () => {
  it("sends the system prompt and the messages as they are", () => {
    const path = linkPath([u("u1", "Hi"), a("a1", "Hello!"), u("u2", "How are you?")]);
    expect(buildContext(path, ANTHROPIC)).toEqual({
      system: "Be brief.",
      messages: [userMsg("Hi"), asstMsg("Hello!"), userMsg("How are you?")],
    });
  });

  it("returns no messages for an empty path, and an empty system prompt stays empty", () => {
    expect(buildContext([], { systemPrompt: "", targetApi: "openai-chat" })).toEqual({ system: "", messages: [] });
  });

  it("does not mutate the path", () => {
    const path = linkPath([u("u1", "a"), a("a1", [thinking("t"), text("b")]), u("u2", "c"), u("u3", "d")]);
    const before = structuredClone(path);
    buildContext(path, ANTHROPIC);
    expect(path).toEqual(before);
  });
});

describe("buildContext: compaction", () => {
  // u1 a1 u2 a2 | C1 | u3 a3 u4 a4 u5 a5 | C2 | u6
  const path = linkPath([
    u("u1", "Always deploy to eu-west-3."),
    a("a1", "Noted."),
    u("u2", "Write the config."),
    a("a2", "Here it is."),
    compaction("c1", { summary: "OLD SUMMARY", firstKept: "u3", kept: ["u1", "u2"] }),
    u("u3", "Add logging."),
    a("a3", "Done."),
    u("u4", "Now tests."),
    a("a4", "Tests written."),
    u("u5", "Run them."),
    a("a5", "All green."),
    // kept ids out of order, one not on the path, one inside the kept region: order comes from the path
    compaction("c2", { summary: "NEW SUMMARY", firstKept: "a4", kept: ["u3", "missing", "u1", "u5", "u4"] }),
    u("u6", "Ship it."),
  ]);

  it("sends only the latest compaction, framed, with kept user turns verbatim in path order", () => {
    const ctx = buildContext(path, ANTHROPIC);
    const turns = [
      "<user_message>\nAlways deploy to eu-west-3.\n</user_message>",
      "<user_message>\nAdd logging.\n</user_message>",
      "<user_message>\nNow tests.\n</user_message>",
    ].join("\n\n");
    const keptUserTurns = fillTemplate(COMPACTION_KEPT_USER_TURNS, { turns });
    const summaryMessage = fillTemplate(COMPACTION_SUMMARY_CONTEXT, { keptUserTurns, summary: "NEW SUMMARY" });
    expect(ctx).toEqual({
      system: `Be brief.\n\n${COMPACTED_SYSTEM_NOTE}`,
      messages: [
        userMsg(summaryMessage),
        asstMsg("Tests written."),
        userMsg("Run them."),
        asstMsg("All green."),
        userMsg("Ship it."),
      ],
    });
  });

  it("sends nothing from before the kept region except the kept user turns", () => {
    const seen = allText(buildContext(path, ANTHROPIC).messages);
    for (const gone of ["OLD SUMMARY", "Noted.", "Write the config.", "Here it is.", "Done."]) {
      expect(seen).not.toContain(gone);
    }
    // "Run them." is in the kept region: sent there once, not again among the kept turns
    expect(seen.split("Run them.")).toHaveLength(2);
  });

  it("keeps what follows the compaction entry when firstKeptEntryId is null", () => {
    const p = linkPath([
      u("u1", "one"),
      a("a1", "two"),
      compaction("c", { summary: "S", firstKept: null, kept: ["u1"] }),
      u("u2", "three"),
    ]);
    const ctx = buildContext(p, OPENAI);
    expect(ctx.messages).toHaveLength(1);
    const first = ctx.messages[0]?.content[0];
    const only = first ? contextBlockText(first) : "";
    expect(only).toContain("<user_message>\none\n</user_message>");
    expect(only).toContain("S");
    expect(only.endsWith(`${MERGE_DELIMITER}three`)).toBe(true);
    expect(only).not.toContain("two");
  });

  it("keeps what follows the compaction entry when firstKeptEntryId is not on the path", () => {
    const p = linkPath([
      u("u1", "one"),
      a("a1", "two"),
      compaction("c", { summary: "S", firstKept: "elsewhere" }),
      u("u2", "x"),
    ]);
    expect(allText(buildContext(p, OPENAI).messages)).not.toContain("two");
  });

  it("leaves out the kept-turns section when there are none", () => {
    const p = linkPath([u("u1", "one"), a("a1", "two"), compaction("c", { summary: "S", firstKept: "a1" })]);
    const ctx = buildContext(p, OPENAI);
    const expected = fillTemplate(COMPACTION_SUMMARY_CONTEXT, { keptUserTurns: "", summary: "S" });
    expect(ctx.messages).toEqual([userMsg(expected), asstMsg("two")]);
    expect(expected).not.toContain("{{");
    expect(expected).not.toContain("\n\n\n");
  });

  it("appends the compacted note to an empty system prompt on its own", () => {
    const p = linkPath([u("u1", "one"), compaction("c", { summary: "S", firstKept: null })]);
    expect(buildContext(p, { systemPrompt: "", targetApi: "openai-chat" }).system).toBe(COMPACTED_SYSTEM_NOTE);
  });
});

describe("buildContext: branch summaries and handoffs", () => {
  it("sends a handoff and a branch summary as user-role context", () => {
    const p = linkPath([handoff("h", "GOAL: finish"), a("a1", "On it."), branchSummary("b", "Tried X; failed.")]);
    expect(buildContext(p, OPENAI).messages).toEqual([
      userMsg(handoffText("GOAL: finish")),
      asstMsg("On it."),
      userMsg(branchText("Tried X; failed.")),
    ]);
  });

  it("merges user, branch summary and user into one user message with delimiters", () => {
    const p = linkPath([u("u1", "first"), branchSummary("b", "BS"), u("u2", "second")]);
    expect(buildContext(p, OPENAI).messages).toEqual([
      userMsg(`first${MERGE_DELIMITER}${branchText("BS")}${MERGE_DELIMITER}second`),
    ]);
  });
});

describe("buildContext: message status", () => {
  it("skips an error reply with no content and merges the users around it", () => {
    const p = linkPath([
      u("u1", "q1"),
      a("a1", [], { status: "error", error: { kind: "network", message: "offline" } }),
      u("u2", "q2"),
    ]);
    expect(buildContext(p, OPENAI).messages).toEqual([userMsg(`q1${MERGE_DELIMITER}q2`)]);
  });

  it("sends an error reply's partial content, and stopped or interrupted replies as the user saw them", () => {
    const p = linkPath([
      u("u1", "q1"),
      a("a1", "partial before the error", { status: "error", error: { kind: "overloaded", message: "busy" } }),
      u("u2", "q2"),
      a("a2", "stopped mid-", { status: "stopped", stopReason: "aborted" }),
      u("u3", "q3"),
      a("a3", "cut off by a reload", { status: "interrupted" }),
    ]);
    expect(buildContext(p, OPENAI).messages).toEqual([
      userMsg("q1"),
      asstMsg("partial before the error"),
      userMsg("q2"),
      asstMsg("stopped mid-"),
      userMsg("q3"),
      asstMsg("cut off by a reload"),
    ]);
  });

  it("joins a Continue reply to the reply it extends with no delimiter", () => {
    const p = linkPath([
      u("u1", "Write a long story."),
      a("a1", "Once upon a ti", { stopReason: "length" }),
      a("a2", "me there was a tree.", { continues: eid("a1") }),
    ]);
    expect(buildContext(p, OPENAI).messages).toEqual([
      userMsg("Write a long story."),
      asstMsg("Once upon a time there was a tree."),
    ]);
  });

  it("merges two unrelated assistant messages in a row with the delimiter", () => {
    const p = linkPath([u("u1", "q"), a("a1", "one"), a("a2", "two")]);
    expect(buildContext(p, OPENAI).messages).toEqual([userMsg("q"), asstMsg(`one${MERGE_DELIMITER}two`)]);
  });
});

describe("buildContext: tool and image blocks become text", () => {
  it("writes tool calls and results as plain text, tool messages as user messages", () => {
    const p = linkPath([
      u("u1", "Find it."),
      a("a1", [text("Searching."), { type: "tool_call", id: "t1", name: "search", args: { q: "grove", n: 2 } }]),
      tool("t", [{ type: "tool_result", callId: "t1", toolName: "search", text: "2 hits", isError: false }]),
      a("a2", [{ type: "tool_call", id: "t2", name: "read", args: undefined }]),
      tool("t2r", [{ type: "tool_result", callId: "t2", text: "ENOENT", isError: true }]),
      a("a3", "Not found."),
    ]);
    expect(buildContext(p, OPENAI).messages).toEqual([
      userMsg("Find it."),
      {
        role: "assistant",
        content: [
          { type: "text", text: "Searching." },
          { type: "text", text: '[Tool call: search]\n{"q":"grove","n":2}' },
        ],
      },
      userMsg("[Tool result: search]\n2 hits"),
      asstMsg("[Tool call: read]\n{}"),
      userMsg("[Tool result] (error)\nENOENT"),
      asstMsg("Not found."),
    ]);
  });

  it("keeps images and PDFs in user messages as references, and sends text files as fenced text", () => {
    const image = { type: "image", blobId: blobId("b1"), mimeType: "image/png", name: "chart.png" } as const;
    const pdf = {
      type: "document",
      blobId: blobId("b2"),
      mimeType: "application/pdf",
      name: "t.pdf",
      size: 9,
    } as const;
    const note = {
      type: "text_file",
      name: "notes.md",
      mimeType: "text/markdown",
      text: "Use ```js``` fences",
    } as const;
    const p = linkPath([u("u1", [text("What is this?"), image, pdf, note])]);
    expect(buildContext(p, OPENAI).messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          image,
          pdf,
          { type: "text", text: "notes.md:\n````md\nUse ```js``` fences\n````" },
        ],
      },
    ]);
  });

  it("names images and PDFs in a kept user turn quoted into a compaction message", () => {
    const image = { type: "image", blobId: blobId("b1"), mimeType: "image/png", name: "chart.png" } as const;
    const p = linkPath([
      u("u1", [text("Look at this"), image]),
      a("a1", "A chart."),
      compaction("c1", { summary: "S", firstKept: null, kept: ["u1"] }),
      u("u2", "And now?"),
    ]);
    const first = buildContext(p, OPENAI).messages[0];
    expect(first?.content).toHaveLength(1);
    expect(contextBlockText(first?.content[0] as TextBlock | ContextAttachment)).toContain(
      "Look at this\n\n[image: chart.png]",
    );
  });
});

describe("buildContext: normalization", () => {
  it("opens with a placeholder user message when the path starts with the assistant", () => {
    const p = linkPath([a("a0", "Welcome back."), u("u1", "Thanks")]);
    expect(buildContext(p, OPENAI).messages).toEqual([
      userMsg(LEADING_USER_PLACEHOLDER),
      asstMsg("Welcome back."),
      userMsg("Thanks"),
    ]);
  });

  it("keeps thinking only for the api that signed it (Anthropic: only with a signature)", () => {
    const signed = thinking("reasoned", { signature: "sig", signedBy: "anthropic-messages" });
    const redacted = thinking("", { redactedData: "opaque", signedBy: "anthropic-messages" });
    const unsigned = thinking("no signature", { signedBy: "anthropic-messages" });
    const openaiThought = thinking("openai reasoning", { signedBy: "openai-chat" });
    const anonymous = thinking("who knows");
    const p = linkPath([u("u1", "q"), a("a1", [signed, redacted, unsigned, openaiThought, anonymous, text("answer")])]);

    expect(buildContext(p, ANTHROPIC).messages[1]).toEqual({
      role: "assistant",
      content: [signed, redacted, { type: "text", text: "answer" }],
    });
    expect(buildContext(p, OPENAI).messages[1]).toEqual({
      role: "assistant",
      content: [openaiThought, { type: "text", text: "answer" }],
    });
  });

  it("removes an assistant message left with only thinking, then merges the users around it", () => {
    const p = linkPath([
      u("u1", "q1"),
      a("a1", [thinking("thought", { signature: "s", signedBy: "anthropic-messages" })], { status: "stopped" }),
      u("u2", "q2"),
    ]);
    expect(buildContext(p, ANTHROPIC).messages).toEqual([userMsg(`q1${MERGE_DELIMITER}q2`)]);
  });

  it("drops blank messages and blank text blocks", () => {
    const p = linkPath([u("u1", "q"), a("a1", [text("  "), text("real")]), u("u2", "   \n"), a("a2", "more")]);
    expect(buildContext(p, OPENAI).messages).toEqual([userMsg("q"), asstMsg(`real${MERGE_DELIMITER}more`)]);
  });
});
