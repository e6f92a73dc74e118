import { describe, expect, it } from "vitest";
import type { Entry, Session } from "../session/entries";
import { asEntryId, asSessionId, type EntryId } from "../session/ids";
import {
  a,
  at,
  blobId,
  branchSummary,
  compaction,
  eid,
  handoff,
  linkPath,
  SESSION,
  text,
  thinking,
  tool,
  u,
} from "../testing/entries";
import { deepForkSession } from "../testing/export-sessions";
import type { ExportedSession } from "./grove-json";
import { escapeInline, exportMarkdown, fenced, quoted } from "./markdown";

/**
 *   u1 "Plan a trip to Lisbon"            (label "start")
 *   a1 thinking + "Here is a plan."
 *   ├── u2 "What about food?"            active path
 *   │   a2 tool call get_food
 *   │   t2 tool result
 *   │   a3 "Try pastéis de nata."
 *   │   c1 compaction
 *   │   u3 "Thanks!"                       leaf
 *   └── u2b "What about museums?"         branch 1
 *       ├── a2c "Nested alt answer"      (newest: continues branch 1)
 *       └── a2b "The Gulbenkian is great." branch 2, stopped
 */
function forkedSession(leaf = "u3"): ExportedSession {
  const entries: Entry[] = [
    at(u("u1", "Plan a trip to Lisbon"), null, 1),
    at(a("a1", [thinking("Let me think.\n\nAbout Lisbon."), text("Here is a plan.")], { model: "claude-x" }), "u1", 2),
    at(u("u2", "What about food?"), "a1", 3),
    at(
      a("a2", [{ type: "tool_call", id: "call-1", name: "get_food", args: { snippet: "`````" } }], {
        stopReason: "tool_use",
      }),
      "u2",
      4,
    ),
    at(
      tool("t2", [{ type: "tool_result", callId: "call-1", toolName: "get_food", text: "pastéis", isError: false }]),
      "a2",
      5,
    ),
    at(a("a3", "Try pastéis de nata."), "t2", 6),
    at(compaction("c1", { summary: "First line\n\nThird line", firstKept: "u3" }), "a3", 7),
    at(u("u3", "Thanks!"), "c1", 8),
    at(u("u2b", "What about museums?"), "a1", 9),
    at(a("a2b", "The Gulbenkian is great.", { status: "stopped" }), "u2b", 10),
    at(a("a2c", "Nested alt answer"), "u2b", 11),
  ];
  return {
    session: session({ leafId: eid(leaf) }),
    entries,
    labels: { [eid("u1")]: "start" } as Record<EntryId, string>,
  };
}

function session(over: Partial<Session> = {}): Session {
  return {
    id: SESSION,
    title: "Lisbon trip",
    titleSource: "user",
    createdAt: 1000,
    updatedAt: 2000,
    leafId: null,
    model: { providerId: "anthropic", modelId: "claude-x" },
    ...over,
  };
}

const headings = (md: string, level: string) => md.split("\n").filter((l) => l.startsWith(`${level} `));

/** The block-quote paragraph that starts with `first`, up to the next blank (unquoted) line. */
function quoteBlock(md: string, first: string): string[] {
  const lines = md.split("\n");
  const start = lines.findIndex((l) => l.startsWith(first));
  expect(start).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && l === "");
  return lines.slice(start, end === -1 ? undefined : end);
}

describe("exportMarkdown: the active path", () => {
  it("prints the title, a metadata line and the active path's messages in order", () => {
    const md = exportMarkdown(forkedSession(), { allBranches: false });
    const lines = md.split("\n");
    expect(lines[0]).toBe("# Lisbon trip");
    expect(lines[2]).toBe("Created 1970-01-01T00:00:01.000Z · Model claude-x · 2 other branches (not included)");
    expect(headings(md, "##")).toEqual([
      "## User · label: start",
      "## Assistant (claude-x)",
      "## User",
      "## Assistant",
      "## Tool result (get\\_food)",
      "## Assistant",
      "## User",
    ]);
    const order = ["Plan a trip to Lisbon", "Here is a plan.", "What about food?", "pastéis", "Try pastéis", "Thanks!"];
    const positions = order.map((t) => md.indexOf(t));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);
  });

  it("stops at the leaf: entries past it are not on the active path", () => {
    const md = exportMarkdown(forkedSession("a3"), { allBranches: false });
    expect(md).toContain("Try pastéis de nata.");
    expect(md).not.toContain("Thanks!");
    expect(md).not.toContain("**Compaction**");
    expect(md.split("\n")[2]).toContain("3 other branches (not included)");
  });

  it("quotes thinking and compaction summaries on every line, blank lines included", () => {
    const md = exportMarkdown(forkedSession(), { allBranches: false });
    expect(quoteBlock(md, "> **Thinking**")).toEqual([
      "> **Thinking**",
      ">",
      "> Let me think.",
      ">",
      "> About Lisbon.",
    ]);
    expect(quoteBlock(md, "> **Compaction**")).toEqual([
      "> **Compaction** (manual, 1,000 → 100 tokens)",
      ">",
      "> First line",
      ">",
      "> Third line",
    ]);
  });

  it('names thinking by its label (an imported reply\'s "Thought for 16s")', () => {
    const s: ExportedSession = {
      session: { id: SESSION, title: "t", titleSource: "user", createdAt: 0, updatedAt: 0, leafId: eid("a1") },
      entries: linkPath([u("u1", "q"), a("a1", [thinking("Weighed it.", { label: "Thought for 16s" }), text("Yes.")])]),
      labels: {},
    };
    expect(exportMarkdown(s, { allBranches: false })).toContain("> **Thinking** (Thought for 16s)\n>\n> Weighed it.");
  });

  it("fences tool calls with more backticks than any run inside", () => {
    const md = exportMarkdown(forkedSession(), { allBranches: false });
    expect(md).toContain('**Tool call: get\\_food**\n\n``````json\n{\n  "snippet": "`````"\n}\n``````');
    expect(md).toContain("```text\npastéis\n```");
  });

  it("prints branch summaries, handoffs, images, labels and unfinished replies", () => {
    const entries = linkPath([
      handoff("h1", "Goal: ship it.\n\nState: half done."),
      branchSummary("b1", "Tried X.\nIt failed."),
      u("u1", [text("Look:"), { type: "image", blobId: blobId("img"), mimeType: "image/png" }]),
      a("a1", "Partial", { status: "error", error: { kind: "rate_limit", message: "Too many\nrequests" } }),
      a("a2", "More", { status: "interrupted" }),
    ]);
    const labels = { [eid("b1")]: "why *not*" } as Record<EntryId, string>;
    const md = exportMarkdown({ session: session({ leafId: eid("a2") }), entries, labels }, { allBranches: true });
    expect(quoteBlock(md, "> **Handoff**")).toEqual([
      "> **Handoff**: handed off from session session-0",
      ">",
      "> Goal: ship it.",
      ">",
      "> State: half done.",
    ]);
    expect(quoteBlock(md, "> **Branch summary**")).toEqual([
      "> **Branch summary** (what happened on a branch that was left) · label: why \\*not\\*",
      ">",
      "> Tried X.",
      "> It failed.",
    ]);
    expect(md).toContain("Look:\n\n*[image: image/png]*");
    expect(md).toContain("Partial\n\n*Error (rate\\_limit): Too many requests*");
    expect(md).toContain("More\n\n*Interrupted: the reply did not finish.*");
    expect(md).not.toContain("Other branches");
  });

  it("escapes the title as plain text and closes a fence a stopped reply left open", () => {
    const entries = linkPath([
      u("u1", "Show code"),
      a("a1", "```js\nconst x = 1", { status: "stopped" }),
      u("u2", "next"),
    ]);
    const md = exportMarkdown(
      { session: session({ title: "My *bold* <b>title</b>", leafId: eid("u2") }), entries, labels: {} },
      { allBranches: false },
    );
    expect(md.startsWith("# My \\*bold\\* &lt;b\\>title&lt;/b\\>\n")).toBe(true);
    expect(md).toContain(
      "```js\nconst x = 1\n```\n\n*Stopped by the user before the reply finished.*\n\n## User\n\nnext",
    );
  });

  it("says so when the active path is empty", () => {
    const md = exportMarkdown({ session: session(), entries: [], labels: {} }, { allBranches: true });
    expect(md).toBe(
      "# Lisbon trip\n\nCreated 1970-01-01T00:00:01.000Z · Model claude-x\n\n*No messages on the active path.*\n",
    );
  });
});

describe("exportMarkdown: other branches", () => {
  it("lists every other branch, numbered, from its fork point, only with allBranches", () => {
    const all = exportMarkdown(forkedSession(), { allBranches: true });
    expect(all.split("\n")[2]).toContain("2 other branches (listed at the end)");
    expect(headings(all, "##")).toContain("## Other branches");
    expect(headings(all, "###")).toEqual([
      '### Branch 1: from message 2 ("Here is a plan.")',
      '### Branch 2: from branch 1, message 3 ("What about museums?")',
    ]);
    const section = all.slice(all.indexOf("## Other branches"));
    const b1 = section.indexOf("### Branch 1");
    const b2 = section.indexOf("### Branch 2");
    // Branch 1 follows the newest reply; the older one is branch 2, after it.
    expect(section.indexOf("What about museums?")).toBeGreaterThan(b1);
    expect(section.indexOf("Nested alt answer")).toBeGreaterThan(b1);
    expect(section.indexOf("Nested alt answer")).toBeLessThan(b2);
    expect(section.indexOf("The Gulbenkian is great.")).toBeGreaterThan(b2);
    expect(section).toContain("The Gulbenkian is great.\n\n*Stopped by the user before the reply finished.*");
    expect(headings(section, "####")).toEqual(["#### User", "#### Assistant", "#### Assistant"]);
    // Fork points are marked where they happen.
    expect(all).toContain("Here is a plan.\n\n*↳ Branch 1 forks here (see Other branches).*\n\n## User");
    expect(section).toContain("What about museums?\n\n*↳ Branch 2 forks here (see Other branches).*");

    const active = exportMarkdown(forkedSession(), { allBranches: false });
    for (const t of ["What about museums?", "The Gulbenkian", "Nested alt answer", "Other branches", "↳"]) {
      expect(active).not.toContain(t);
    }
  });

  it("lists a second root as a separate start", () => {
    const entries = [at(u("r1", "first start"), null, 1), at(u("r2", "second start"), null, 2)];
    const md = exportMarkdown({ session: session({ leafId: eid("r1") }), entries, labels: {} }, { allBranches: true });
    expect(headings(md, "###")).toEqual(["### Branch 1: a separate start"]);
    expect(md.indexOf("second start")).toBeGreaterThan(md.indexOf("### Branch 1"));
  });
});

describe("Markdown helpers", () => {
  it("quoted prefixes every line, CRLF and blank lines included", () => {
    expect(quoted("**H**", "a\r\n\r\nb\n")).toBe("> **H**\n>\n> a\n>\n> b");
  });

  it("fenced uses at least three backticks, and one more than the longest run", () => {
    expect(fenced("plain", "text")).toBe("```text\nplain\n```");
    expect(fenced("a ``` b ```` c", "")).toBe("`````\na ``` b ```` c\n`````");
  });

  it("escapeInline makes Markdown syntax literal", () => {
    expect(escapeInline("a_b *c* [d](e) <f> #g `h` ~i~ |j| &k; \\")).toBe(
      "a\\_b \\*c\\* \\[d\\](e) &lt;f\\> \\#g \\`h\\` \\~i\\~ \\|j\\| \\&k; \\\\",
    );
  });
});

describe("raw HTML in message text is made literal", () => {
  it("a message ending in an open comment no longer hides the next message of the export", () => {
    const md = exportMarkdown(
      {
        session: {
          id: asSessionId("s"),
          title: "T",
          titleSource: "user",
          createdAt: 0,
          updatedAt: 0,
          leafId: asEntryId("a"),
        },
        entries: [
          {
            type: "message",
            id: asEntryId("u"),
            sessionId: asSessionId("s"),
            parentId: null,
            createdAt: 0,
            role: "user",
            content: [{ type: "text", text: "note <!-- todo" }],
            status: "complete",
          },
          {
            type: "message",
            id: asEntryId("a"),
            sessionId: asSessionId("s"),
            parentId: asEntryId("u"),
            createdAt: 1,
            role: "assistant",
            content: [{ type: "text", text: "The answer." }],
            status: "complete",
          },
        ],
        labels: {},
      },
      { allBranches: false },
    );
    expect(md).not.toContain("<!--");
    expect(md).toContain("note &lt;!-- todo");
    expect(md.indexOf("The answer.")).toBeGreaterThan(md.indexOf("todo"));
  });
});

describe("deep trees", () => {
  it("a branch forking 6,000 levels deep: every entry listed once, no stack overflow", () => {
    const DEPTH = 6_000;
    const md = exportMarkdown(deepForkSession(DEPTH), { allBranches: true });
    expect(new Set(md.match(/step \d+/g)).size).toBe(DEPTH);
    expect(new Set(md.match(/side \d+/g)).size).toBe(DEPTH);
  });
});
