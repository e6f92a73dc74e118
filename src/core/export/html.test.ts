// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import type { Entry, Session } from "../session/entries";
import type { EntryId } from "../session/ids";
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
import { escapeHtml, exportHtml } from "./html";
import { HOSTILE_PARTS } from "./testing/hostile-parts";

const HOSTILE_TITLE = "</title><script>alert(1)</script>";
const HOSTILE_MESSAGE = "<img src=x onerror=alert(1)>";
const NOW = Date.UTC(2024, 0, 2, 3, 4, 5);

/**
 *   u1 hostile text
 *   a1 thinking + "Here is a plan."
 *   ├── u2 "What about food?"            active path
 *   │   a2 tool call, t2 tool result
 *   │   c1 compaction
 *   │   u3 "javascript:alert(1)"           leaf
 *   └── u2b "What about museums?"
 *       ├── a2c "Nested alt answer"      (newest: continues that branch)
 *       └── a2b "The Gulbenkian is great."
 */
function forkedSession(over: Partial<Session> = {}): ExportedSession {
  const entries: Entry[] = [
    at(u("u1", HOSTILE_MESSAGE), null, 1),
    at(a("a1", [thinking("Let me think."), text("Here is a plan.\n\n  indented")], { model: "claude-x" }), "u1", 2),
    at(u("u2", "What about food?"), "a1", 3),
    at(a("a2", [{ type: "tool_call", id: "c-1", name: "get_food", args: { city: "Lisbon" } }]), "u2", 4),
    at(
      tool("t2", [
        { type: "tool_result", callId: "c-1", toolName: "get_food", text: "\nleading newline", isError: true },
      ]),
      "a2",
      5,
    ),
    at(compaction("c1", { summary: "Kept the plan.\n\nDropped the chatter.", firstKept: "u3" }), "t2", 6),
    at(u("u3", "javascript:alert(1)"), "c1", 7),
    at(u("u2b", "What about museums?"), "a1", 8),
    at(a("a2b", "The Gulbenkian is great."), "u2b", 9),
    at(a("a2c", "Nested alt answer"), "u2b", 10),
  ];
  return {
    session: {
      id: SESSION,
      title: "Lisbon",
      titleSource: "user",
      createdAt: 1000,
      updatedAt: 2000,
      leafId: eid("u3"),
      ...over,
    },
    entries,
    labels: { [eid("a1")]: "<b>keep</b>" } as Record<EntryId, string>,
  };
}

const parse = (html: string): Document => new DOMParser().parseFromString(html, "text/html");

/** The innermost element whose own text nodes contain `needle`. */
function elementWithText(doc: Document, needle: string): Element {
  const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.textContent?.includes(needle) && n.parentElement) return n.parentElement;
  }
  throw new Error(`no element with text ${JSON.stringify(needle)}`);
}

describe("exportHtml: a self-contained, inert document", () => {
  const html = exportHtml(forkedSession({ title: HOSTILE_TITLE }), { now: NOW });
  const doc = parse(html);

  it("starts <head> with a CSP that allows no requests, then charset and viewport", () => {
    const first = doc.head.firstElementChild;
    expect(first?.tagName).toBe("META");
    expect(first?.getAttribute("http-equiv")).toBe("Content-Security-Policy");
    expect(first?.getAttribute("content")).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    expect(doc.documentElement.getAttribute("lang")).toBe("en");
    expect(doc.querySelector("meta[charset]")?.getAttribute("charset")).toBe("utf-8");
    expect(doc.querySelector('meta[name="viewport"]')?.getAttribute("content")).toContain("width=device-width");
    expect(html.startsWith("<!doctype html>\n")).toBe(true);
  });

  it("has no script, no event handler and no src or href attribute anywhere", () => {
    expect(doc.querySelectorAll("script, img, a, iframe, object, embed, link, form").length).toBe(0);
    const attributes = [...doc.querySelectorAll("*")].flatMap((el) => [...el.attributes].map((attr) => attr.name));
    expect(attributes.filter((n) => n.startsWith("on") || n === "src" || n === "href" || n === "style")).toEqual([]);
    const css = [...doc.querySelectorAll("style")].map((s) => s.textContent ?? "").join("");
    expect(css.length).toBeGreaterThan(100);
    expect(css).not.toMatch(/url\(|@import/);
  });

  it("keeps a hostile title and hostile messages as text", () => {
    expect(doc.title).toBe(HOSTILE_TITLE);
    expect(doc.querySelector("h1")?.textContent).toBe(HOSTILE_TITLE);
    expect(elementWithText(doc, HOSTILE_MESSAGE).className).toBe("text");
    expect(doc.body.textContent).toContain("javascript:alert(1)");
    expect(doc.querySelector(".label")?.textContent).toBe("<b>keep</b>");
    expect(doc.querySelector("b")).toBeNull();
  });

  it("shows a reply's Markdown rendered, what the user typed as written, and tool output in <pre>, leading newline kept", () => {
    const plan = elementWithText(doc, "Here is a plan.").closest(".markdown");
    expect([...(plan?.querySelectorAll("p") ?? [])].map((p) => p.textContent)).toEqual(["Here is a plan.", "indented"]);
    expect(elementWithText(doc, "What about food?").className).toBe("text");
    expect(doc.querySelector(".thinking summary")?.textContent).toBe("Thinking");
    expect(doc.querySelector(".thinking .text")?.textContent).toBe("Let me think.");
    expect(doc.querySelector(".tool-call")?.textContent).toBe('Tool call: get_food{\n  "city": "Lisbon"\n}');
    expect(doc.querySelector(".tool-result.error pre")?.textContent).toBe("\nleading newline");
    const headings = [...doc.querySelectorAll(".line.active > .entry h2")].map((h) => h.textContent);
    expect(headings).toEqual([
      "User",
      "Assistant (claude-x)",
      "User",
      "Assistant",
      "Tool result (get_food)",
      "Compaction",
      "User",
    ]);
  });

  it("renders the compaction as a card with reason, tokens and summary", () => {
    const card = doc.querySelector("section.compaction");
    expect(card?.querySelector("h2")?.textContent).toBe("Compaction");
    expect(card?.querySelector(".meta")?.textContent).toBe("Reason: manual · 1,000 → 100 tokens · by test-model");
    expect(card?.querySelector("details[open] .text")?.textContent).toBe("Kept the plan.\n\nDropped the chatter.");
  });

  it("puts other branches in collapsed <details> at their fork point and marks the active continuation", () => {
    const museums = elementWithText(doc, "What about museums?");
    const branch = museums.closest("details.branch");
    expect(branch).not.toBeNull();
    expect(branch?.hasAttribute("open")).toBe(false);
    expect(branch?.querySelector("summary")?.textContent).toBe("Branch: What about museums? 2 messages");
    // The older reply in that branch is a branch of the branch.
    const nested = elementWithText(doc, "The Gulbenkian is great.").closest("details.branch");
    expect(nested?.parentElement?.closest("details.branch")).toBe(branch);
    expect(elementWithText(doc, "Nested alt answer").closest("details.branch")).toBe(branch);
    // The active path stays outside any <details>, in order, continuing after the fork.
    const food = elementWithText(doc, "What about food?");
    expect(food.closest("details")).toBeNull();
    const forks = branch?.parentElement;
    expect(forks?.className).toBe("forks");
    expect(forks?.previousElementSibling?.textContent).toContain("Here is a plan.");
    expect(forks?.nextElementSibling?.classList.contains("continues")).toBe(true);
    expect(forks?.nextElementSibling?.querySelector(".badge")?.textContent).toBe("active branch");
    expect(forks?.querySelector(".fork-note")?.textContent).toBe(
      "1 other branch from here; the active branch continues below",
    );
  });

  it("ends with the export date from `now`", () => {
    expect(doc.querySelector("footer")?.textContent).toBe("Exported from Grove on 2024-01-02T03:04:05.000Z");
    expect(exportHtml(forkedSession({ title: HOSTILE_TITLE }), { now: NOW })).toBe(html);
  });
});

describe("exportHtml: other entries", () => {
  it("renders handoff and branch summary cards, images and unfinished replies", () => {
    const entries = linkPath([
      handoff("h1", "Goal: ship it.\n<script>x</script>"),
      branchSummary("b1", "Tried X."),
      u("u1", [text("Look:"), { type: "image", blobId: blobId("img"), mimeType: "image/png" }]),
      a("a1", "Partial", { status: "error", error: { kind: "network", message: "socket hang up" } }),
    ]);
    const s: ExportedSession = {
      session: { id: SESSION, title: "", titleSource: "auto", createdAt: 0, updatedAt: 0, leafId: eid("a1") },
      entries,
      labels: {},
    };
    const doc = parse(exportHtml(s, { now: 0 }));
    expect(doc.title).toBe("Untitled chat");
    const handoffCard = doc.querySelector("section.handoff");
    expect(handoffCard?.querySelector("h2")?.textContent).toBe("Handoff");
    expect(handoffCard?.querySelector(".meta")?.textContent).toBe("Handed off from session session-0");
    expect(handoffCard?.querySelector(".text")?.textContent).toBe("Goal: ship it.\n<script>x</script>");
    expect(doc.querySelector("script")).toBeNull();
    expect(doc.querySelector("section.branch-summary .text")?.textContent).toBe("Tried X.");
    expect(doc.querySelector(".image")?.textContent).toBe("[image: image/png]");
    expect(doc.querySelector(".status.error")?.textContent).toBe("Error (network): socket hang up");
  });

  it("shows an empty active path with every root as a branch", () => {
    const entries = [at(u("r1", "first start"), null, 1), at(u("r2", "second start"), null, 2)];
    const s: ExportedSession = {
      session: { id: SESSION, title: "t", titleSource: "auto", createdAt: 0, updatedAt: 0, leafId: null },
      entries,
      labels: {},
    };
    const doc = parse(exportHtml(s, { now: 0 }));
    expect(doc.querySelector(".empty")?.textContent).toBe("No messages on the active path.");
    const summaries = [...doc.querySelectorAll("details.branch > summary")].map((el) => el.textContent);
    expect(summaries).toEqual(["Branch: first start 1 message", "Branch: second start 1 message"]);
  });
});

describe("exportHtml with hostile text in every part an entry can carry", () => {
  const HOSTILE = [
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    '"><svg onload=alert(1)>',
    "[x](javascript:alert(1))",
    "<a href=javascript:alert(1)>x</a>",
    "![x](https://evil.example/p.png)",
    "</title><iframe src=javascript:alert(1)>",
  ];
  const allowed = (url: string) => /^(https?:|mailto:|#|data:image\/(png|jpeg|gif|webp);base64,)/i.test(url.trim());

  for (const [part, build] of Object.entries(HOSTILE_PARTS)) {
    it(`${part}: no script, no handler, no frame or remote load, no script URL`, () => {
      for (const h of HOSTILE) {
        const doc = parse(exportHtml(build(h), { now: NOW }));
        expect(
          doc.querySelectorAll("script, iframe, object, embed, svg, link, form, base, meta[http-equiv=refresh]").length,
        ).toBe(0);
        for (const el of doc.querySelectorAll("*")) {
          for (const attr of el.getAttributeNames()) {
            expect(attr.startsWith("on"), `${part}: <${el.tagName}> ${attr}`).toBe(false);
            if (["href", "src", "action", "formaction", "srcset"].includes(attr))
              expect(allowed(el.getAttribute(attr) ?? ""), `${part}: ${attr}=${el.getAttribute(attr)}`).toBe(true);
          }
        }
        for (const img of doc.querySelectorAll("img")) expect(img.getAttribute("src")).toMatch(/^data:image\//);
      }
    });
  }
});

describe("escapeHtml", () => {
  it("escapes the five characters that matter in content and attributes", () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;",
    );
  });
});

describe("deep trees", () => {
  it("a branch forking 6,000 levels deep off the active path renders, every entry once, nested in <details>", () => {
    const DEPTH = 6_000;
    const html = exportHtml(deepForkSession(DEPTH), { now: NOW });
    // Every entry is there (a fork's summary repeats its first words, hence distinct matches).
    expect(new Set(html.match(/step \d+/g)).size).toBe(DEPTH);
    expect(new Set(html.match(/side \d+/g)).size).toBe(DEPTH);
    const count = (needle: string) => html.split(needle).length - 1;
    expect(count("<details")).toBe(count("</details>")); // balanced: each branch closed where it ends
    expect(count('<details class="branch">')).toBeGreaterThanOrEqual(DEPTH);
  });
});
