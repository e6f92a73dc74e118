/**
 * HTML export of one session: a single self-contained file that opens offline in any browser and
 * shows the whole tree. Pure: session in, text out; no DOM APIs, no I/O.
 *
 * Safety, by construction rather than by sanitizing:
 * - No script at all, and a CSP meta tag (`default-src 'none'`) first in <head>, so the file can
 *   make no network request and run no code even if some text slipped through.
 * - Every piece of session text goes through `escapeHtml` and lands only in element content;
 *   no attribute carries session text, and no link, src or url is ever generated from it.
 * - Message text is shown as wrapped preformatted text, not parsed as Markdown.
 *
 * Layout: the active path in order. At every fork point the other branches follow as collapsed
 * `<details>` (each one the same layout again, recursively), then the active path continues, its
 * next entry marked. Off the active path each branch follows its newest child, as in the app.
 * Rendering recurses once per nested fork (not per entry), so depth is the branching depth.
 */
import { commandContextText, settingChangeText } from "../session/agent-entries";
import { assertNever, type Block, type Entry, type MessageEntry } from "../session/entries";
import { contextNoteText, serverToolLabel } from "../session/entry-text";
import type { BlobId, EntryId } from "../session/ids";
import {
  type BranchLine,
  buildBranchLines,
  entryPreview,
  type Fork,
  formatCount,
  isoDate,
  listOtherBranches,
  messageTitle,
  prettyJson,
  statusNote,
} from "./branches";
import type { ExportedSession } from "./grove-json";

export type HtmlExportOptions = {
  /** The export time printed in the footer (ms since epoch); tests pass a fixed one. */
  now?: number;
};

/** The first element of <head>: nothing may load or run; only the inline <style> applies. */
export const HTML_EXPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

type Context = {
  readonly labels: Readonly<Record<EntryId, string>>;
  /** Attachment data by blob id, as `data:` URLs (the page's CSP allows `img-src data:` only). */
  readonly dataUrls: ReadonlyMap<BlobId, string>;
};

export function exportHtml(s: ExportedSession, opts: HtmlExportOptions = {}): string {
  const now = opts.now ?? Date.now();
  const main = buildBranchLines(s.entries, s.session.leafId);
  const title = s.session.title.trim() || "Untitled chat";
  const ctx: Context = {
    labels: s.labels,
    dataUrls: new Map((s.blobs ?? []).map((b) => [b.id, `data:${b.mimeType};base64,${b.data}`])),
  };
  return `${[
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    `<meta http-equiv="Content-Security-Policy" content="${HTML_EXPORT_CSP}">`,
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    '<div class="page">',
    pageHeader(s, title, main),
    "<main>",
    main.entries.length === 0 ? '<p class="empty">No messages on the active path.</p>' : "",
    renderTree(main, ctx),
    "</main>",
    `<footer>Exported from Grove on ${escapeHtml(isoDate(now))}</footer>`,
    "</div>",
    "</body>",
    "</html>",
  ]
    .filter((part) => part !== "")
    .join("\n")}\n`;
}

function pageHeader(s: ExportedSession, title: string, main: BranchLine): string {
  const facts = [`Created ${isoDate(s.session.createdAt)}`];
  const model = s.session.model?.modelId ?? lastModel(main);
  if (model) facts.push(`Model ${model}`);
  const others = listOtherBranches(main).length;
  if (others > 0) facts.push(others === 1 ? "1 other branch" : `${others} other branches`);
  const system = s.session.systemPrompt?.trim()
    ? `<details class="card system"><summary>System prompt</summary>${textDiv(s.session.systemPrompt)}</details>`
    : "";
  return `<header class="page-head"><h1>${escapeHtml(title)}</h1><p class="meta">${escapeHtml(facts.join(" · "))}</p>${system}</header>`;
}

function lastModel(main: BranchLine): string | null {
  for (let i = main.entries.length - 1; i >= 0; i--) {
    const e = main.entries[i];
    if (e?.type === "message" && e.model) return e.model;
  }
  return null;
}

// ---- the tree ---------------------------------------------------------------------------------

/**
 * The active line, and after each fork point its other branches as collapsed <details>, each
 * branch a line of its own with forks of its own. Rendered with an explicit stack into one array:
 * a branch can fork thousands of levels deep (recursion overflowed the call stack there), and
 * joining each level's subtree again made deep trees quadratic.
 */
type Task =
  | { kind: "html"; html: string }
  | { kind: "line"; line: BranchLine; active: boolean }
  | { kind: "forks"; forks: readonly Fork[]; note: string; fromEntry: boolean };

function renderTree(main: BranchLine, ctx: Context): string {
  const out: string[] = [];
  const stack: Task[] = [{ kind: "line", line: main, active: true }];
  for (let task = stack.pop(); task !== undefined; task = stack.pop()) {
    if (task.kind === "html") {
      out.push(task.html);
      continue;
    }
    const next = task.kind === "line" ? lineTasks(task.line, ctx, task.active) : forkTasks(task);
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
  }
  return out.join("\n");
}

function lineTasks(line: BranchLine, ctx: Context, active: boolean): Task[] {
  const forksAt = groupForks(line.forks);
  const tasks: Task[] = [{ kind: "html", html: `<div class="line${active ? " active" : ""}">` }];
  const rootForks = forksAt.get(-1);
  if (rootForks) tasks.push({ kind: "forks", forks: rootForks, note: "Other starts of this chat", fromEntry: false });
  for (const [i, entry] of line.entries.entries()) {
    const continuesFork = i > 0 && forksAt.has(i - 1);
    const badge = continuesFork ? (active ? "active branch" : "this branch") : null;
    tasks.push({ kind: "html", html: renderEntry(entry, ctx, badge) });
    const forks = forksAt.get(i);
    if (forks) {
      const last = i === line.entries.length - 1;
      tasks.push({ kind: "forks", forks, note: forkNote(forks.length, active, last), fromEntry: true });
    }
  }
  tasks.push({ kind: "html", html: "</div>" });
  return tasks;
}

function forkTasks({ forks, note, fromEntry }: { forks: readonly Fork[]; note: string; fromEntry: boolean }): Task[] {
  const tasks: Task[] = [
    {
      kind: "html",
      html: `<div class="forks${fromEntry ? "" : " roots"}"><p class="fork-note">${escapeHtml(note)}</p>`,
    },
  ];
  for (const f of forks) {
    const first = f.line.entries[0];
    const preview = first ? entryPreview(first) : "";
    const count = f.line.entries.filter((e) => e.type === "message").length;
    const size = count === 1 ? "1 message" : `${count} messages`;
    tasks.push(
      {
        kind: "html",
        html: `<details class="branch"><summary>Branch: ${escapeHtml(preview)} <span class="count">${size}</span></summary>`,
      },
      { kind: "line", line: f.line, active: false },
      { kind: "html", html: "</details>" },
    );
  }
  tasks.push({ kind: "html", html: "</div>" });
  return tasks;
}

function groupForks(forks: readonly Fork[]): Map<number, Fork[]> {
  const out = new Map<number, Fork[]>();
  for (const f of forks) {
    const list = out.get(f.at);
    if (list) list.push(f);
    else out.set(f.at, [f]);
  }
  return out;
}

function forkNote(count: number, active: boolean, last: boolean): string {
  // At the end of a line no branch carries on in place, so none of the forks is "other".
  if (last) return count === 1 ? "1 branch continues from here" : `${count} branches continue from here`;
  const branches = count === 1 ? "1 other branch" : `${count} other branches`;
  return `${branches} from here; ${active ? "the active branch" : "this branch"} continues below`;
}

// ---- entries ----------------------------------------------------------------------------------

/** `continues`: the badge for the entry that carries on a line right after a fork point, if it is one. */
function renderEntry(e: Entry, ctx: Context, continues: string | null): string {
  const extra = headExtras(ctx.labels[e.id], continues);
  switch (e.type) {
    case "message":
      return renderMessage(e, extra, continues !== null, ctx);
    case "compaction": {
      const facts = `Reason: ${e.reason} · ${formatCount(e.tokensBefore)} → ${formatCount(e.tokensAfter)} tokens · by ${e.model}`;
      const instructions = e.instructions?.trim()
        ? `<p class="instructions">Instructions: ${escapeHtml(e.instructions)}</p>`
        : "";
      return card("compaction", "Compaction", extra, facts, `${instructions}${summaryDetails("Summary", e.summary)}`);
    }
    case "branch_summary":
      return card(
        "branch-summary",
        "Branch summary",
        extra,
        "What happened on a branch that was left",
        summaryDetails("Summary", e.summary),
      );
    case "handoff":
      return card(
        "handoff",
        "Handoff",
        extra,
        `Handed off from session ${e.fromSessionId}`,
        summaryDetails("Handoff document", e.document),
      );
    case "model_change":
    case "thinking_level_change":
      return card("setting", escapeHtml(settingChangeText(e)), extra, "", "");
    case "custom":
      return "";
    case "context_note":
      return e.display ? card("note", "Note", extra, e.customType, summaryDetails("Content", contextNoteText(e))) : "";
    case "command":
      return card("command", "Command", extra, e.command, summaryDetails("Output", commandContextText(e)));
    default:
      return assertNever(e, "entry");
  }
}

/** Label and "continues" badges for an entry's heading row, already escaped. */
function headExtras(label: string | undefined, continues: string | null): string {
  const parts: string[] = [];
  if (label?.trim()) parts.push(`<span class="label">${escapeHtml(label.trim())}</span>`);
  if (continues) parts.push(`<span class="badge">${escapeHtml(continues)}</span>`);
  return parts.join("");
}

/** A card for a non-message entry; `facts` is plain text, `bodyHtml` already escaped. */
function card(kind: string, heading: string, extra: string, facts: string, bodyHtml: string): string {
  return `<section class="entry card ${kind}"><header class="entry-head"><h2>${heading}</h2>${extra}</header><p class="meta">${escapeHtml(facts)}</p>${bodyHtml}</section>`;
}

function summaryDetails(summary: string, text: string): string {
  return `<details open><summary>${summary}</summary>${textDiv(text)}</details>`;
}

function renderMessage(m: MessageEntry, extra: string, continues: boolean, ctx: Context): string {
  const body = m.content.map((b) => renderBlock(b, ctx)).filter((b) => b !== "");
  const note = statusNote(m);
  if (note) body.push(`<p class="status ${m.status}">${escapeHtml(note)}</p>`);
  const classes = `entry message ${m.role}${continues ? " continues" : ""}`;
  return `<article class="${classes}"><header class="entry-head"><h2>${escapeHtml(messageTitle(m))}</h2>${extra}</header>${body.join("")}</article>`;
}

function renderBlock(b: Block, ctx: Context): string {
  switch (b.type) {
    case "text":
      return b.text.trim() === "" ? "" : textDiv(b.text.trimEnd());
    case "image": {
      // Inline, as a data: URL, when the export carries the bytes; else a note stands in for them.
      const url = ctx.dataUrls.get(b.blobId);
      const name = b.name ?? b.mimeType;
      if (url === undefined || !/^image\/(png|jpeg|gif|webp)$/.test(b.mimeType)) {
        return `<p class="image">[image: ${escapeHtml(name)}]</p>`;
      }
      return `<figure class="attachment"><img src="${escapeHtml(url)}" alt="${escapeHtml(name)}"><figcaption>${escapeHtml(name)}</figcaption></figure>`;
    }
    case "document":
      return `<p class="image">[PDF: ${escapeHtml(b.name)}]</p>`;
    case "text_file":
      return `<div class="text-file"><p class="tool-name">${escapeHtml(b.name)}</p>${pre(b.text)}</div>`;
    case "thinking":
      if (b.text.trim() !== "")
        return `<details class="thinking"><summary>Thinking</summary>${textDiv(b.text)}</details>`;
      return b.redactedData ? '<p class="thinking redacted">Thinking (redacted)</p>' : "";
    case "reasoning": {
      // The readable summary, like thinking; the encrypted content means nothing to a reader.
      const text = b.summary.join("\n\n");
      return text.trim() !== ""
        ? `<details class="thinking"><summary>Thinking</summary>${textDiv(text)}</details>`
        : "";
    }
    // Tool steps are folded (collapsed <details>), as the chat shows them.
    case "tool_call":
      return `<details class="tool-call"><summary class="tool-name">Tool call: ${escapeHtml(b.name)}</summary>${pre(prettyJson(b.args))}</details>`;
    case "tool_result": {
      const label = `${b.isError ? "Tool error" : "Tool result"}${b.toolName ? `: ${b.toolName}` : ""}`;
      const cut =
        b.originalChars !== undefined
          ? `<p class="status">Cut for storage: ${b.originalChars} characters at first.</p>`
          : "";
      return `<details class="tool-result${b.isError ? " error" : ""}"><summary class="tool-name">${escapeHtml(label)}</summary>${pre(b.text)}${cut}</details>`;
    }
    case "server_tool": {
      const label = `${serverToolLabel(b)}${b.part === "result" ? " result" : ""}${b.isError ? " (error)" : ""}`;
      const input = b.input !== undefined ? pre(prettyJson(b.input)) : "";
      // Sources as text, never links: the export has no href (a hostile URL stays inert).
      const sources =
        b.sources && b.sources.length > 0
          ? `<ul class="sources">${b.sources.map((s) => `<li>${escapeHtml(s.title ?? s.url)} <span class="url">${escapeHtml(s.url)}</span></li>`).join("")}</ul>`
          : "";
      const output = b.output ? pre(b.output) : "";
      return `<details class="server-tool${b.isError ? " error" : ""}"><summary class="tool-name">${escapeHtml(label)}</summary>${input}${sources}${output}</details>`;
    }
    default:
      return assertNever(b, "block");
  }
}

/** Text shown as written (white-space: pre-wrap). No whitespace around it: it would show. */
function textDiv(text: string): string {
  return `<div class="text">${escapeHtml(text)}</div>`;
}

/** The parser drops one newline right after <pre>; emitting one keeps a leading newline of `text`. */
function pre(text: string): string {
  return `<pre>\n${escapeHtml(text)}</pre>`;
}

/** The one escape for all session text: safe in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

// ---- style ------------------------------------------------------------------------------------

/** Quiet, system fonts only (no urls: the CSP would block them anyway), light and dark, phone width. */
const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--card:#f6f8fa;--user:#eef4ff;--accent:#0969da;--warn:#9a6700;--err:#cf222e;--ok:#1a7f37}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--card:#151b23;--user:#12213a;--accent:#4493f8;--warn:#d29922;--err:#f85149;--ok:#3fb950}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.page{max-width:48rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 .25rem;overflow-wrap:anywhere}
.meta{color:var(--muted);font-size:.875rem;margin:0 0 .5rem;overflow-wrap:anywhere}
.entry{margin:.75rem 0;padding:.75rem 1rem;border:1px solid var(--line);border-radius:.5rem;background:var(--bg)}
.entry.user{background:var(--user)}
.entry.continues{border-top:3px solid var(--ok)}
.entry-head{display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline;margin-bottom:.375rem}
.entry-head h2{font-size:.875rem;font-weight:600;color:var(--muted);margin:0;overflow-wrap:anywhere}
.label,.badge,.count{font-size:.75rem;border:1px solid var(--line);border-radius:1rem;padding:0 .5rem;color:var(--muted);overflow-wrap:anywhere}
.badge,.count{white-space:nowrap}
.badge{border-color:var(--ok);color:var(--ok)}
.text{white-space:pre-wrap;overflow-wrap:anywhere}
.entry>*+*,.card details>*+*{margin-top:.5rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--card);border:1px solid var(--line);padding:.5rem .75rem;border-radius:.375rem;margin:.25rem 0 0}
.tool-name{font-size:.8125rem;color:var(--muted);margin:0}
.tool-result.error pre{border-color:var(--err)}
.tool-result.error .tool-name,.status.error{color:var(--err)}
.status{font-style:italic;color:var(--warn);margin:0}
.image{font-style:italic;color:var(--muted);margin:0}
figure.attachment{margin:.5rem 0}figure.attachment img{max-width:100%;height:auto;border-radius:6px}figure.attachment figcaption{font-size:.85em;color:var(--muted)}
details>summary{cursor:pointer;color:var(--muted)}
.thinking .text{color:var(--muted);border-left:2px solid var(--line);padding-left:.75rem;margin-top:.25rem}
.card{background:var(--card);border-left:4px solid var(--accent)}
.card.compaction{border-left-color:var(--warn)}
.card.handoff{border-left-color:var(--ok)}
.card.system{padding:.5rem .75rem;border:1px solid var(--line);border-radius:.5rem;margin-top:.75rem}
.forks{margin:.5rem 0 .5rem 1rem;padding-left:.75rem;border-left:2px dashed var(--line)}
.fork-note{font-size:.8125rem;color:var(--muted);margin:.25rem 0}
details.branch{margin:.25rem 0}
details.branch>summary{padding:.25rem 0;overflow-wrap:anywhere}
details.branch[open]>summary{color:var(--fg)}
footer{margin-top:2rem;font-size:.8125rem;color:var(--muted)}
.empty{color:var(--muted);font-style:italic}
@media (max-width:32rem){.page{padding:1rem .5rem 2rem}.entry{padding:.5rem .625rem}.forks{margin-left:.25rem;padding-left:.5rem}}
`;
