/**
 * Markdown export of one session: the active path (root → leaf) as a readable document, and with
 * `allBranches` every other branch after it. Pure: session in, text out; no I/O, no DOM.
 *
 * Layout:
 *   # Title
 *   Created <ISO date> · Model <model> · <n> other branches
 *   ## User / ## Assistant (model) / ## Tool result (name)   one heading per message
 *   > **Compaction** …, > **Branch summary** …, > **Handoff** …  quoted cards
 *   ## Other branches                                           only with allBranches
 *   ### Branch 2: from message 3 ("first words…")               then that branch's entries
 *
 * Other branches are a flat, numbered list in document order (a branch, then the branches that
 * fork off it), each saying where it leaves the conversation: "message N" counts the messages from
 * the start of the chat along that branch's own path. Deeply nested Markdown outlines render
 * badly in most readers, so the nesting is in the numbers and the "from branch K" wording instead.
 * On the lines above, a note marks each point where listed branches fork off.
 *
 * What is Markdown already (user and assistant text, thinking, summaries, handoff documents, the
 * system prompt) stays Markdown but is made inert (inert-markdown.ts: no raw HTML, no unsafe link
 * scheme, no remote image), because people open exports in renderers with raw HTML on; what is
 * plain text (titles, labels, tool names, error messages) is escaped. Quoted text is prefixed
 * on every line, blank lines included, so a blank line in a summary can't end the quote early.
 */
import { fenceLanguage } from "../attachments/attachment-text";
import { fenceFor } from "../markdown-fence";
import { commandContextText, settingChangeText } from "../session/agent-entries";
import { assertNever, type Block, type Entry, type MessageEntry, type ServerToolBlock } from "../session/entries";
import { contextNoteText, serverToolKindLabel } from "../session/entry-text";
import type { EntryId } from "../session/ids";
import {
  type BranchLine,
  buildBranchLines,
  entryPreview,
  formatCount,
  isoDate,
  listOtherBranches,
  messageTitle,
  type OtherBranch,
  oneLine,
  prettyJson,
  statusNote,
} from "./branches";
import type { ExportedSession } from "./grove-json";
import { inertMarkdown } from "./inert-markdown";

export type MarkdownExportOptions = {
  /** Also list every branch that is not on the active path, after it. */
  allBranches: boolean;
};

type Context = {
  readonly labels: Readonly<Record<EntryId, string>>;
  /** Branch numbers forking off after each entry; empty when other branches are not printed. */
  readonly forksAfter: ReadonlyMap<EntryId, readonly number[]>;
};

const ACTIVE_HEADING_LEVEL = 2;
const BRANCH_HEADING_LEVEL = 4;

export function exportMarkdown(s: ExportedSession, opts: MarkdownExportOptions): string {
  const main = buildBranchLines(s.entries, s.session.leafId);
  const others = listOtherBranches(main);
  const ctx: Context = { labels: s.labels, forksAfter: opts.allBranches ? forkPoints(others) : new Map() };
  const blocks: string[] = [`# ${escapeInline(oneLine(s.session.title)) || "Untitled chat"}`];
  blocks.push(metadataLine(s, main, others.length, opts.allBranches));
  if (s.session.systemPrompt?.trim()) blocks.push(quoted("**System prompt**", inertMarkdown(s.session.systemPrompt)));
  if (main.entries.length === 0) blocks.push("*No messages on the active path.*");
  append(blocks, renderLine(main, ctx, ACTIVE_HEADING_LEVEL));
  if (opts.allBranches && others.length > 0) append(blocks, otherBranchesSection(others, ctx));
  return `${blocks.join("\n\n")}\n`;
}

function metadataLine(s: ExportedSession, main: BranchLine, otherCount: number, allBranches: boolean): string {
  const parts = [`Created ${isoDate(s.session.createdAt)}`];
  const model = sessionModel(s, main);
  if (model) parts.push(`Model ${escapeInline(model)}`);
  if (otherCount > 0) {
    const n = otherCount === 1 ? "1 other branch" : `${otherCount} other branches`;
    parts.push(allBranches ? `${n} (listed at the end)` : `${n} (not included)`);
  }
  return parts.join(" · ");
}

/** The session's chosen model, else the model of the last assistant reply on the active path. */
function sessionModel(s: ExportedSession, main: BranchLine): string | null {
  if (s.session.model) return s.session.model.modelId;
  for (let i = main.entries.length - 1; i >= 0; i--) {
    const e = main.entries[i];
    if (e?.type === "message" && e.model) return e.model;
  }
  return null;
}

/** Entry id → numbers of the listed branches that fork off right after it. */
function forkPoints(others: readonly OtherBranch[]): Map<EntryId, number[]> {
  const out = new Map<EntryId, number[]>();
  for (const b of others) {
    if (!b.from) continue;
    const list = out.get(b.from.id);
    if (list) list.push(b.number);
    else out.set(b.from.id, [b.number]);
  }
  return out;
}

function otherBranchesSection(others: readonly OtherBranch[], ctx: Context): string[] {
  const blocks = [
    "## Other branches",
    "Each branch starts where it leaves the conversation; “message N” counts messages from the start of the chat.",
  ];
  for (const b of others) {
    blocks.push(`### Branch ${b.number}: ${escapeInline(forkOrigin(b))}`);
    append(blocks, renderLine(b.line, ctx, BRANCH_HEADING_LEVEL));
  }
  return blocks;
}

/** `from message 3 ("first words…")`, `from branch 2, message 5 (…)`, or `a separate start`. */
function forkOrigin(b: OtherBranch): string {
  if (!b.from) return "a separate start";
  const where = b.fromBranch > 0 ? `from branch ${b.fromBranch}, ` : "from ";
  switch (b.from.type) {
    case "message":
      return `${where}message ${b.fromDepth} ("${entryPreview(b.from)}")`;
    case "compaction":
      return `${where}the compaction after message ${b.fromDepth}`;
    case "branch_summary":
      return `${where}the branch summary after message ${b.fromDepth}`;
    case "handoff":
      return `${where}the handoff document`;
    case "model_change":
    case "thinking_level_change":
    case "custom":
    case "context_note":
    case "command":
      return `${where}${entryPreview(b.from)} after message ${b.fromDepth}`;
    default:
      return assertNever(b.from, "entry");
  }
}

function renderLine(line: BranchLine, ctx: Context, level: number): string[] {
  const blocks: string[] = [];
  for (const e of line.entries) {
    append(blocks, renderEntry(e, ctx, level));
    const forks = ctx.forksAfter.get(e.id);
    if (forks) blocks.push(forkNote(forks));
  }
  return blocks;
}

function forkNote(numbers: readonly number[]): string {
  const list = numbers.map((n) => `${n}`);
  const names = list.length === 1 ? `Branch ${list[0]} forks` : `Branches ${list.join(", ")} fork`;
  return `*↳ ${names} here (see Other branches).*`;
}

function renderEntry(e: Entry, ctx: Context, level: number): string[] {
  const label = labelSuffix(ctx.labels[e.id]);
  switch (e.type) {
    case "message":
      return renderMessage(e, label, level);
    case "compaction": {
      const head = `**Compaction** (${e.reason}, ${formatCount(e.tokensBefore)} → ${formatCount(e.tokensAfter)} tokens)`;
      const instructions = e.instructions?.trim()
        ? `\n>\n> *Instructions:* ${escapeInline(oneLine(e.instructions))}`
        : "";
      return [`${quoted(head + label, inertMarkdown(e.summary))}${instructions}`];
    }
    case "branch_summary":
      return [quoted(`**Branch summary** (what happened on a branch that was left)${label}`, inertMarkdown(e.summary))];
    case "handoff":
      return [
        quoted(
          `**Handoff**: handed off from session ${escapeInline(e.fromSessionId)}${label}`,
          inertMarkdown(e.document),
        ),
      ];
    case "model_change":
    case "thinking_level_change":
      return [`*${escapeInline(settingChangeText(e))}*${label}`];
    case "custom":
      return [];
    case "context_note":
      return e.display
        ? [quoted(`**Note** (${escapeInline(e.customType)})${label}`, inertMarkdown(contextNoteText(e)))]
        : [];
    case "command":
      return [
        quoted(`**Command** \`${escapeInline(oneLine(e.command))}\`${label}`, inertMarkdown(commandContextText(e))),
      ];
    default:
      return assertNever(e, "entry");
  }
}

function renderMessage(m: MessageEntry, label: string, level: number): string[] {
  const blocks = [`${"#".repeat(level)} ${escapeInline(messageTitle(m))}${label}`];
  for (const b of m.content) {
    const out = renderBlock(b);
    if (out !== null) blocks.push(out);
  }
  const note = statusNote(m);
  if (note) blocks.push(`*${escapeInline(note)}*`);
  return blocks;
}

function renderBlock(b: Block): string | null {
  switch (b.type) {
    case "text": {
      const text = b.text.trimEnd();
      return text === "" ? null : inertMarkdown(text);
    }
    case "image":
      return `*[image: ${escapeInline(b.name ?? b.mimeType)}]*`;
    case "document":
      return `*[PDF: ${escapeInline(b.name)}]*`;
    case "text_file":
      return `**${escapeInline(oneLine(b.name))}**\n\n${fenced(b.text, fenceLanguage(b.name))}`;
    case "thinking":
      if (b.text.trim() !== "") {
        const label = b.label?.trim() ? ` (${escapeInline(oneLine(b.label))})` : "";
        return quoted(`**Thinking**${label}`, inertMarkdown(b.text));
      }
      return b.redactedData ? "> **Thinking** (redacted)" : null;
    case "reasoning": {
      // The readable summary, like thinking; the encrypted content means nothing to a reader.
      // Model text like any other: made inert (it was once written raw, and `<img onerror>` ran).
      const text = b.summary.join("\n\n");
      return text.trim() !== "" ? quoted("**Thinking**", inertMarkdown(text)) : null;
    }
    case "tool_call":
      return `**Tool call: ${escapeInline(oneLine(b.name))}**\n\n${fenced(prettyJson(b.args), "json")}`;
    case "tool_result":
      return `${b.isError ? "*Tool error:*\n\n" : ""}${fenced(b.text, "text")}${b.originalChars !== undefined ? `\n\n*(cut for storage: ${b.originalChars} characters at first)*` : ""}`;
    case "server_tool":
      return serverToolMarkdown(b);
    default:
      return assertNever(b, "block");
  }
}

/**
 * A provider-run tool: its label, its input, its sources as `title (url)` lines, its output fenced.
 * Not folded: the export holds no raw HTML (a `<details>` is one), so it reads as a labelled block.
 */
function serverToolMarkdown(b: ServerToolBlock): string {
  // The server's and the tool's names stand apart (space-separated): two untrusted strings touching
  // could let an autolink in the first swallow the escape of the second.
  const names = (b.tool === "mcp" ? [b.server ?? "", b.name] : b.tool === "other" ? [b.name] : [])
    .map((n) => escapeInline(oneLine(n)))
    .filter((n) => n !== "");
  const heading = `**${serverToolKindLabel(b.tool)}${b.part === "result" ? " result" : ""}**`;
  const parts = [`${heading}${names.length > 0 ? ` ${names.join(" · ")}` : ""}${b.isError ? " *(error)*" : ""}`];
  if (b.input !== undefined) parts.push(fenced(prettyJson(b.input), "json"));
  if (b.sources && b.sources.length > 0) {
    parts.push(
      b.sources.map((s) => `- ${escapeInline(oneLine(s.title ?? s.url))} (${escapeInline(oneLine(s.url))})`).join("\n"),
    );
  }
  if (b.output) parts.push(fenced(b.output, "text"));
  return parts.join("\n\n");
}

function labelSuffix(label: string | undefined): string {
  const text = label === undefined ? "" : oneLine(label);
  return text === "" ? "" : ` · label: ${escapeInline(text)}`;
}

// ---- Markdown text helpers ------------------------------------------------------------------

/**
 * A block quote: the heading line, a blank quoted line, then `body` quoted line by line. Blank
 * lines get a bare ">" too: an unquoted blank line would end the quote mid-summary.
 */
export function quoted(heading: string, body: string): string {
  const lines = body.trimEnd().split(/\r\n|\r|\n/);
  return [`> ${heading}`, ">", ...lines.map((l) => (l === "" ? ">" : `> ${l}`))].join("\n");
}

/** A fenced code block whose fence is longer than any backtick run inside, so nothing closes it early. */
export function fenced(body: string, lang: string): string {
  const fence = fenceFor(body);
  return `${fence}${lang}\n${body.replace(/\s+$/, "")}\n${fence}`;
}

/** push(...items) without the spread: a long chat's blocks outnumber the arguments a call can take. */
function append<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

/**
 * Plain text made literal in Markdown: every character a reader could take as syntax is escaped,
 * and `ftp://` loses the autolink GFM renderers would give it (only http(s)/mailto links go out).
 */
export function escapeInline(text: string): string {
  // `<` as the entity, never `\<`: marked's GFM bare-URL autolink swallows a backslash before it.
  return text
    .replace(/[\\`*_[\]>#~|&]/g, "\\$&")
    .replace(/</g, "&lt;")
    .replace(/(ftp):(?=\/\/)/gi, "$1\\:");
}
