import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { COMPACTED_SYSTEM_NOTE, HANDOFF_CONTEXT } from "../../prompts";
import { buildContext } from "../../session/build-context";
import type {
  BranchSummaryEntry,
  CompactionEntry,
  Entry,
  HandoffEntry,
  MessageEntry,
  Session,
} from "../../session/entries";
import { asEntryId, asSessionId, type BlobId, type EntryId } from "../../session/ids";
import { buildTreeIndex, childrenOf, pathToRoot } from "../../session/tree";
import { type ExportedSession, exportGroveJson, parseGroveJson } from "../grove-json";
import { exportPiJsonl } from "./export";
import { GROVE_HANDOFF_CUSTOM_TYPE } from "./format";
import { parsePiJsonl } from "./import";

const DIR = fileURLToPath(new URL("../../../../../shared/fixtures/real-world/", import.meta.url));
const LARGE = readFileSync(`${DIR}pi-session-v1-large.jsonl`, "utf8");
const WITH_COMPACTIONS = readFileSync(`${DIR}pi-session-v1-with-compactions.jsonl`, "utf8");

// ---- helpers ------------------------------------------------------------------------------------

/** Ids e1, e2, … (or with another prefix) in creation order, so tests can name entries. */
function counter(prefix = "e") {
  let n = 0;
  let images = 0;
  return {
    newEntryId: () => asEntryId(`${prefix}${++n}`),
    // The same for every prefix: two imports of the same file name their images alike.
    newBlobId: () => `blob-${++images}` as BlobId,
    newSessionId: () => asSessionId(`${prefix}-session`),
    now: () => 42,
  };
}

function ok(text: string, prefix = "e"): ExportedSession {
  const r = parsePiJsonl(text, counter(prefix));
  if (r.kind !== "ok") throw new Error(r.message);
  expect(r.sessions).toHaveLength(1);
  const [s] = r.sessions;
  if (!s) throw new Error("no session");
  return s;
}
function err(text: string): string {
  const r = parsePiJsonl(text, counter());
  if (r.kind !== "error") throw new Error("expected an error");
  return r.message;
}

const jsonl = (...lines: unknown[]): string => `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;

/** A pi line as the tests read it, independently of the importer. */
type PiLine = {
  type: string;
  id?: string;
  parentId?: string | null;
  firstKeptEntryIndex?: number;
  summary?: string;
  tokensBefore?: number;
  provider?: string;
  modelId?: string;
  message?: {
    role: string;
    content?: string | Array<{ type: string; text?: string; id?: string }>;
    stopReason?: string;
    errorMessage?: string;
    provider?: string;
    model?: string;
    toolCallId?: string;
    usage?: { input: number; output: number; cacheRead: number; cacheWrite: number };
  };
};
const piLines = (text: string): PiLine[] =>
  text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as PiLine);

/** The pi line types / roles the importer turns into entries (the rest are skipped or metadata). */
const CONVERTED_ROLES = new Set(["user", "assistant", "toolResult", "bashExecution", "custom", "hookMessage"]);
const isConverted = (l: PiLine): boolean =>
  (l.type === "message" && CONVERTED_ROLES.has(l.message?.role ?? "")) ||
  ["model_change", "thinking_level_change", "custom", "compaction", "branch_summary", "custom_message"].includes(
    l.type,
  );

/** Line index (header = 0) → the entry made from it: entries come out in file order. */
function madeFrom(lines: readonly PiLine[], entries: readonly Entry[]): Map<number, Entry> {
  const out = new Map<number, Entry>();
  let j = 0;
  for (const [i, l] of lines.entries()) {
    if (i > 0 && isConverted(l)) out.set(i, entries[j++] as Entry);
  }
  expect(j).toBe(entries.length);
  return out;
}

const messages = (s: ExportedSession): MessageEntry[] =>
  s.entries.filter((e): e is MessageEntry => e.type === "message");
const textOf = (e: Entry | undefined): string =>
  e?.type === "message"
    ? e.content.map((b) => (b.type === "text" ? b.text : b.type === "tool_result" ? b.text : "")).join("")
    : "";
const lineText = (l: PiLine | undefined): string => {
  const c = l?.message?.content;
  return typeof c === "string" ? c : (c ?? []).map((b) => b.text ?? "").join("");
};
const byId = (s: ExportedSession) => new Map(s.entries.map((e) => [e.id, e]));
const activePath = (s: ExportedSession): Entry[] =>
  s.session.leafId ? pathToRoot(buildTreeIndex(s.entries), s.session.leafId) : [];

/**
 * The session with ids replaced by their position in a depth-first walk (children oldest first),
 * so two imports of the same tree compare equal whatever ids they were given.
 */
function canonical(s: ExportedSession): unknown {
  const index = buildTreeIndex(s.entries);
  const order: Entry[] = [];
  const stack = [...index.roots].reverse();
  for (let e = stack.pop(); e; e = stack.pop()) {
    order.push(e);
    stack.push(...[...childrenOf(index, e.id)].reverse());
  }
  expect(order).toHaveLength(s.entries.length);
  const name = new Map<string, string>(order.map((e, i) => [e.id, `#${i}`]));
  const rename = (v: unknown): unknown => {
    if (typeof v === "string") return name.get(v) ?? v;
    if (Array.isArray(v)) return v.map(rename);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [name.get(k) ?? k, rename(x)]));
    }
    return v;
  };
  // importedFrom says which file a session came from; a round trip through a file changes it.
  const { id: _id, updatedAt: _updated, importedFrom: _from, ...session } = s.session;
  return rename({
    session,
    entries: order.map(({ sessionId: _s, ...rest }) => rest),
    labels: s.labels,
  });
}

// ---- the real v1 sessions -------------------------------------------------------------------------

describe("parsePiJsonl on the real v1 large session", () => {
  const lines = piLines(LARGE);
  const s = ok(LARGE);
  const from = madeFrom(lines, s.entries);

  it("imports every conversation line as one linear chain", () => {
    const expected = lines.filter((l, i) => i > 0 && isConverted(l)).length;
    expect(expected).toBe(1018); // 453 assistant + 373 toolResult + 88 user + 1 model change + 103 thinking-level changes
    expect(s.entries).toHaveLength(expected);
    expect(s.entries.every((e) => e.sessionId === s.session.id)).toBe(true);
    expect(s.entries[0]?.parentId).toBeNull();
    for (let i = 1; i < s.entries.length; i++) expect(s.entries[i]?.parentId).toBe(s.entries[i - 1]?.id);
    // The first user message is the slash command "/mode": the title skips it (core/session/title.ts).
    expect(s.session.title).toBe("read packages/coding-agent/docs/theme.md in full, then…");
    expect(s.session.titleSource).toBe("auto");
    expect(s.session.createdAt).toBe(Date.parse("2025-11-20T23:33:50.805Z"));
    expect(s.session.model).toEqual({ providerId: "anthropic", modelId: "claude-sonnet-4-5" });
  });

  it("sets the leaf to the entry made from the last line", () => {
    const lastIndex = lines.length - 1;
    expect(s.session.leafId).toBe(from.get(lastIndex)?.id);
    expect(s.session.leafId).toBe(s.entries.at(-1)?.id);
    expect(textOf(s.entries.at(-1))).toBe(lineText(lines[lastIndex]));
  });

  it("keeps every tool call and result, paired by id", () => {
    const piCalls = lines.flatMap((l) =>
      l.message?.role === "assistant" && Array.isArray(l.message.content)
        ? l.message.content.filter((b) => b.type === "toolCall")
        : [],
    );
    const calls = messages(s).flatMap((m) => m.content.filter((b) => b.type === "tool_call"));
    expect(calls).toHaveLength(piCalls.length);
    expect(calls.map((c) => c.id)).toEqual(piCalls.map((c) => c.id));
    const results = messages(s).filter((m) => m.role === "tool");
    expect(results).toHaveLength(373);
    const callIds = new Set(calls.map((c) => c.id));
    for (const r of results) {
      const block = r.content[0];
      expect(block?.type).toBe("tool_result");
      if (block?.type === "tool_result") expect(callIds.has(block.callId)).toBe(true);
    }
  });

  it("keeps the model change as a model_change entry and aborted replies as stopped", () => {
    expect(from.get(3)).toMatchObject({ type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" });

    const aborted = from.get(2);
    expect(aborted).toMatchObject({
      role: "assistant",
      status: "stopped",
      stopReason: "aborted",
      error: { kind: "aborted", message: "Request was aborted" },
      provider: "openai",
      model: "gpt-5.1-codex",
      content: [],
    });
    expect((aborted as MessageEntry).api).toBe("openai-responses"); // Grove's Responses adapter speaks it
    const abortedLines = lines.filter((l) => l.message?.stopReason === "aborted").length;
    expect(messages(s).filter((m) => m.status === "stopped")).toHaveLength(abortedLines);
    // A partial aborted reply keeps its text.
    expect(textOf(from.get(319))).toMatch(/^So `this.ui.invalidate\(\)` is called/);
  });

  it("maps usage (Grove input includes cache) and keeps thinking-level changes as entries", () => {
    const u = lines[319]?.message?.usage;
    expect(u).toBeDefined();
    expect((from.get(319) as MessageEntry).usage).toEqual({
      input: (u?.input ?? 0) + (u?.cacheRead ?? 0) + (u?.cacheWrite ?? 0),
      output: u?.output,
      cacheRead: u?.cacheRead,
      cacheWrite: u?.cacheWrite,
    });
    // Lines 215–229 are thinking-level changes, kept in the chain.
    expect(lines.slice(215, 230).every((l) => l.type === "thinking_level_change")).toBe(true);
    expect(from.get(215)).toMatchObject({ type: "thinking_level_change" });
    expect(from.get(230)?.parentId).toBe(from.get(229)?.id);
  });

  it("gives a context buildContext can send", () => {
    const ctx = buildContext(activePath(s), { systemPrompt: "sys", targetApi: "anthropic-messages" });
    expect(ctx.system).toBe("sys");
    const first = ctx.messages[0];
    expect(first?.role).toBe("user");
    // The empty aborted reply is not sent and the model change is metadata, so "/mode" and the
    // next user message are adjacent user turns, merged with delimiters (DESIGN §3).
    const text = first?.content.map((b) => (b.type === "text" ? b.text : "")).join("") ?? "";
    expect(text).toMatch(/^\/mode\n\n---\n\nread packages/);
    expect(ctx.messages[1]?.role).toBe("assistant");
    expect(ctx.messages.length).toBeGreaterThan(100);
  });
});

describe("parsePiJsonl on the real v1 session with compactions", () => {
  const lines = piLines(WITH_COMPACTIONS);
  const s = ok(WITH_COMPACTIONS);
  const from = madeFrom(lines, s.entries);
  const compactions = s.entries.filter((e): e is CompactionEntry => e.type === "compaction");

  it("imports the whole file", () => {
    const expected = lines.filter((l, i) => i > 0 && isConverted(l)).length;
    // 484 assistant + 448 toolResult + 55 user + 3 bash + 5 model changes + 5 thinking-level changes + 2 compactions
    expect(expected).toBe(1002);
    expect(s.entries).toHaveLength(expected);
    expect(s.entries.filter((e) => e.type === "model_change")).toHaveLength(5);
    expect(s.entries.filter((e) => e.type === "command")).toHaveLength(3);
  });

  it("maps both compactions, firstKeptEntryIndex to the entry made from that line", () => {
    expect(compactions).toHaveLength(2);
    const piCompactions = lines.flatMap((l, i) => (l.type === "compaction" ? [{ l, i }] : []));
    expect(piCompactions.map((c) => c.l.firstKeptEntryIndex)).toEqual([293, 551]);
    for (const [k, c] of compactions.entries()) {
      const pi = piCompactions[k];
      if (!pi) throw new Error("missing");
      const kept = pi.l.firstKeptEntryIndex ?? -1;
      expect(c.id).toBe(from.get(pi.i)?.id);
      expect(c.firstKeptEntryId).toBe(from.get(kept)?.id);
      expect(textOf(byId(s).get(c.firstKeptEntryId as EntryId))).toBe(lineText(lines[kept]));
      expect(c.summary).toBe(pi.l.summary);
      expect(c.tokensBefore).toBe(pi.l.tokensBefore);
      expect(c.tokensAfter).toBe(Math.ceil((pi.l.summary ?? "").length / 4));
      expect(c.shortSummary).toMatch(/^Refactor coding-agent to eliminate code duplication between three run modes/);
      expect(c.shortSummary.length).toBeLessThanOrEqual(120);
      expect(c.keptUserTurnIds).toEqual([]);
      expect(c.reason).toBe("manual");
      expect(c.model).toBe("claude-opus-4-5");
      expect(c.details).toBeUndefined();
    }
    expect(textOf(from.get(293))).toMatch(/^i reviwed what we have/);
  });

  it("ends at the last line (a thinking-level change)", () => {
    expect(lines.at(-1)?.type).toBe("thinking_level_change");
    expect(s.session.leafId).toBe(from.get(lines.length - 1)?.id);
    // pi's model rule: the last model change or assistant model on the path.
    const last = [...lines]
      .reverse()
      .find((l) => l.type === "model_change" || (l.message?.role === "assistant" && l.message.model));
    const expected =
      last?.type === "model_change"
        ? { providerId: last.provider, modelId: last.modelId }
        : { providerId: last?.message?.provider, modelId: last?.message?.model };
    expect(s.session.model).toEqual(expected);
  });

  it("builds a context that starts with the latest compaction summary", () => {
    const ctx = buildContext(activePath(s), { systemPrompt: "sys", targetApi: "anthropic-messages" });
    expect(ctx.system).toBe(`sys\n\n${COMPACTED_SYSTEM_NOTE}`);
    const first = ctx.messages[0];
    expect(first?.role).toBe("user");
    const text = first?.content.map((b) => (b.type === "text" ? b.text : "")).join("") ?? "";
    expect(text).toMatch(/^Earlier turns of this conversation were compacted/);
    expect(text).toContain(compactions[1]?.summary ?? "missing");
    // The kept region starts at line 551's user message, merged into the same user turn.
    expect(lineText(lines[551])).toBe("can leave it");
    expect(text).toMatch(/\n\n---\n\ncan leave it$/);
    expect(ctx.messages[1]?.role).toBe("assistant");
  });

  it("survives export to pi v3 and back", () => {
    const back = ok(exportPiJsonl(s), "b");
    expect(canonical(back)).toEqual(canonical(s));
  });

  it("is a valid Grove export", () => {
    const text = exportGroveJson([s]);
    const r = parseGroveJson(text);
    expect(r.kind).toBe("ok");
  });
});

// ---- handwritten v2 and v3 sessions ---------------------------------------------------------------

const T = (sec: number) => new Date(Date.UTC(2025, 11, 1, 10, 0, sec)).toISOString();
const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => ({
  input,
  output,
  cacheRead,
  cacheWrite,
  totalTokens: input + output + cacheRead + cacheWrite,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});
const assistant = (content: unknown[], extra: Record<string, unknown> = {}) => ({
  role: "assistant",
  content,
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage: usage(1, 2),
  stopReason: "stop",
  timestamp: 1,
  ...extra,
});
const msg = (id: string, parentId: string | null, sec: number, message: unknown) => ({
  type: "message",
  id,
  parentId,
  timestamp: T(sec),
  message,
});

/**
 * v2: a branch_summary fork, a hookMessage, a skipped thinking-level change and an unknown entry
 * type in the middle of a chain, a model change, a compaction and a label. The last line is on the
 * FIRST branch, so "leaf = last line" is not "leaf = newest branch".
 */
const V2 = jsonl(
  { type: "session", version: 2, id: "sess-v2", timestamp: T(0), cwd: "/tmp/p" },
  msg("u1", null, 1, { role: "user", content: "Fix the build", timestamp: 1 }),
  msg(
    "a1",
    "u1",
    2,
    assistant(
      [
        { type: "thinking", thinking: "Check the logs", thinkingSignature: "sig-1" },
        { type: "text", text: "Let me look." },
        { type: "toolCall", id: "call_1", name: "bash", arguments: { command: "npm run build" } },
      ],
      { stopReason: "toolUse", usage: usage(10, 20, 100, 5) },
    ),
  ),
  msg("t1", "a1", 3, {
    role: "toolResult",
    toolCallId: "call_1",
    toolName: "bash",
    content: [{ type: "text", text: "error TS2304" }],
    isError: true,
    timestamp: 3,
  }),
  { type: "thinking_level_change", id: "th1", parentId: "t1", timestamp: T(4), thinkingLevel: "high" },
  msg("a2", "th1", 5, assistant([{ type: "text", text: "Found it: a missing import." }])),
  msg("u2", "a2", 6, { role: "user", content: "Now add a test", timestamp: 6 }),
  msg("a3", "u2", 7, assistant([{ type: "text", text: "Added a test." }])),
  {
    type: "branch_summary",
    id: "b1",
    parentId: "a2",
    timestamp: T(8),
    fromId: "a2",
    summary: "The user asked for a test; one was added.",
    details: { readFiles: ["a.ts"], modifiedFiles: ["a.test.ts"] },
  },
  msg("h1", "b1", 9, {
    role: "hookMessage",
    customType: "reminder",
    content: "Remember: run lint",
    display: true,
    timestamp: 9,
  }),
  { type: "future_entry", id: "f1", parentId: "h1", timestamp: T(10), whatever: 1 },
  msg("u3", "f1", 11, { role: "user", content: [{ type: "text", text: "Ship it" }], timestamp: 11 }),
  { type: "model_change", id: "m1", parentId: "u3", timestamp: T(12), provider: "openai", modelId: "gpt-5" },
  {
    type: "compaction",
    id: "c1",
    parentId: "m1",
    timestamp: T(13),
    summary: "## Goal\nShip the fix.\n\n## Done\n- fixed the import",
    firstKeptEntryId: "u3",
    tokensBefore: 5000,
    details: { readFiles: ["b.ts"], modifiedFiles: [] },
  },
  msg(
    "a4",
    "c1",
    14,
    assistant([{ type: "text", text: "Shipped." }], {
      api: "openai-completions",
      provider: "openai",
      model: "gpt-5",
    }),
  ),
  { type: "label", id: "l1", parentId: "a4", timestamp: T(15), targetId: "u2", label: "test branch" },
  msg("u4", "a3", 16, { role: "user", content: "And docs?", timestamp: 16 }),
);

describe("parsePiJsonl on a handwritten v2 session", () => {
  const s = ok(V2);
  const get = (text: string) => s.entries.find((e) => textOf(e) === text);
  const ids = byId(s);

  it("keeps the whole tree and pi's ids, bridging skipped entries", () => {
    // f1 (unknown type) and l1 (a label) are not entries.
    const kept = ["u1", "a1", "t1", "th1", "a2", "u2", "a3", "b1", "h1", "u3", "m1", "c1", "a4", "u4"];
    expect(s.entries.map((e) => e.id)).toEqual(kept.map((id) => `sess-v2~${id}`));
    expect(get("Found it: a missing import.")?.parentId).toBe("sess-v2~th1");
    expect(get("Ship it")?.parentId).toBe("sess-v2~h1"); // over the unknown f1
    const a2 = get("Found it: a missing import.");
    const kids = s.entries.filter((e) => e.parentId === a2?.id);
    expect(kids.map((e) => e.type)).toEqual(["message", "branch_summary"]);
  });

  it("maps messages, tool blocks, thinking and usage", () => {
    const a1 = get("Let me look.") as MessageEntry;
    expect(a1).toMatchObject({
      role: "assistant",
      status: "complete",
      stopReason: "tool_use",
      provider: "anthropic",
      api: "anthropic-messages",
      model: "claude-sonnet-4-5",
      usage: { input: 115, output: 20, cacheRead: 100, cacheWrite: 5 },
      createdAt: Date.parse(T(2)),
    });
    expect(a1.content).toEqual([
      { type: "thinking", text: "Check the logs", signature: "sig-1", signedBy: "anthropic-messages" },
      { type: "text", text: "Let me look." },
      { type: "tool_call", id: "call_1", name: "bash", args: { command: "npm run build" } },
    ]);
    expect(get("error TS2304")).toMatchObject({
      role: "tool",
      content: [{ type: "tool_result", callId: "call_1", toolName: "bash", text: "error TS2304", isError: true }],
    });
    expect(ids.get(asEntryId("sess-v2~h1"))).toMatchObject({
      type: "context_note",
      customType: "reminder",
      display: true,
      asMessage: true,
      content: [{ type: "text", text: "Remember: run lint" }],
    });
    expect(ids.get(asEntryId("sess-v2~m1"))).toMatchObject({
      type: "model_change",
      provider: "openai",
      modelId: "gpt-5",
    });
    expect(get("Shipped.")).toMatchObject({
      api: "openai-chat",
      provider: "openai",
      model: "gpt-5",
      stopReason: "end",
    });
  });

  it("maps the branch summary and the compaction, details unchanged", () => {
    const b = s.entries.find((e): e is BranchSummaryEntry => e.type === "branch_summary");
    // pi's fromId is where the user went (a2); Grove's fromId is the branch left: the entry
    // written just before the summary (a3), since pi appends as the leaf moves.
    expect(b).toMatchObject({
      fromId: get("Added a test.")?.id,
      parentId: get("Found it: a missing import.")?.id,
      summary: "The user asked for a test; one was added.",
      details: { readFiles: ["a.ts"], modifiedFiles: ["a.test.ts"] },
      model: "claude-sonnet-4-5",
    });
    const c = s.entries.find((e): e is CompactionEntry => e.type === "compaction");
    expect(c).toMatchObject({
      firstKeptEntryId: get("Ship it")?.id,
      parentId: "sess-v2~m1",
      tokensBefore: 5000,
      tokensAfter: Math.ceil((c?.summary.length ?? 0) / 4),
      shortSummary: "Ship the fix.",
      model: "gpt-5", // the model in effect: the model change just before it
      details: { readFiles: ["b.ts"], modifiedFiles: [] },
    });
  });

  it("takes the leaf from the last line, labels from label entries, title from the first user message", () => {
    expect(s.session.leafId).toBe(get("And docs?")?.id);
    expect(ids.get(s.session.leafId as EntryId)?.parentId).toBe(get("Added a test.")?.id);
    expect(s.labels).toEqual({ [get("Now add a test")?.id ?? "?"]: "test branch" });
    expect(s.session.title).toBe("Fix the build");
    // pi's rule on the leaf's path: the last assistant model there (the gpt-5 change is on the other branch).
    expect(s.session.model).toEqual({ providerId: "anthropic", modelId: "claude-sonnet-4-5" });
    expect(s.session.createdAt).toBe(Date.parse(T(0)));
    expect(s.session.updatedAt).toBe(Date.parse(T(16)));
  });

  it("imports the v3 spelling (role custom) the same; in v3, hookMessage is an unknown role", () => {
    const v3 = V2.replace('"version":2', '"version":3').replace('"role":"hookMessage"', '"role":"custom"');
    expect(canonical(ok(v3))).toEqual(canonical(s));
    // In a v3 file hookMessage is no longer a known role: skipped, its child bridged.
    const stale = ok(V2.replace('"version":2', '"version":3'));
    expect(stale.entries).toHaveLength(13);
  });

  it("survives export to pi v3 and back", () => {
    const back = ok(exportPiJsonl(s), "b");
    expect(canonical(back)).toEqual(canonical(s));
  });
});

/** v3: custom role, custom_message, images, redacted thinking, an error reply, session_info. */
const V3 = jsonl(
  { type: "session", version: 3, id: "sess-v3", timestamp: T(0), cwd: "/w" },
  msg("u1", null, 1, {
    role: "user",
    content: [
      { type: "text", text: "What is in this screenshot?" },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
    ],
    timestamp: 1,
  }),
  msg(
    "a1",
    "u1",
    2,
    assistant([
      { type: "thinking", thinking: "", thinkingSignature: "opaque-redacted", redacted: true },
      { type: "toolCall", id: "call_9", name: "read", arguments: { path: "shot.png" } },
      { type: "citation", url: "https://example.com" },
    ]),
  ),
  msg("t1", "a1", 3, {
    role: "toolResult",
    toolCallId: "call_9",
    toolName: "read",
    content: [
      { type: "text", text: "Read image" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
    ],
    isError: false,
    timestamp: 3,
  }),
  msg("c1", "t1", 4, {
    role: "custom",
    customType: "todo",
    content: "TODO list: 1 item",
    display: false,
    timestamp: 4,
  }),
  { type: "thinking_level_change", id: "th1", parentId: "c1", timestamp: T(5), thinkingLevel: "low" },
  msg(
    "a2",
    "th1",
    6,
    assistant([], {
      stopReason: "error",
      errorMessage: '429 {"type":"error","error":{"type":"rate_limit_error"}}',
      usage: usage(0, 0),
    }),
  ),
  {
    type: "custom_message",
    id: "cm1",
    parentId: "a2",
    timestamp: T(7),
    customType: "plan",
    content: [{ type: "text", text: "Plan: retry later" }],
    display: true,
    details: { step: 2 },
  },
  {
    type: "compaction",
    id: "k1",
    parentId: "cm1",
    timestamp: T(8),
    summary: "Looked at a screenshot.",
    firstKeptEntryId: "th1",
    tokensBefore: 900,
  },
  { type: "custom", id: "x1", parentId: "k1", timestamp: T(9), customType: "ext-state", data: { n: 1 } },
  { type: "session_info", id: "si1", parentId: "x1", timestamp: T(10), name: "  Screenshot triage  " },
);

describe("parsePiJsonl on a handwritten v3 session", () => {
  const s = ok(V3);
  const ms = messages(s);

  it("keeps images as image blocks with their bytes, unknown blocks as visible notes, redacted thinking", () => {
    const [image] = ms[0]?.content.filter((b) => b.type === "image") ?? [];
    expect(ms[0]?.content).toEqual([
      { type: "text", text: "What is in this screenshot?" },
      { type: "image", blobId: image?.type === "image" ? image.blobId : "?", mimeType: "image/png" },
    ]);
    expect(image?.type === "image" && s.images?.get(image.blobId)).toEqual({
      data: "iVBORw0KGgo=",
      mimeType: "image/png",
    });
    expect(ms[1]?.content).toEqual([
      { type: "thinking", text: "", redactedData: "opaque-redacted", signedBy: "anthropic-messages" },
      { type: "tool_call", id: "call_9", name: "read", args: { path: "shot.png" } },
      { type: "text", text: "[citation omitted]" },
    ]);
    expect(ms[2]?.content).toMatchObject([
      { type: "tool_result", callId: "call_9", toolName: "read", text: "Read image", isError: false },
      { type: "image", mimeType: "image/png" },
    ]);
  });

  it("keeps the custom role and custom_message as context notes, the error reply as an error", () => {
    const ids = byId(s);
    expect(ids.get(asEntryId("sess-v3~c1"))).toMatchObject({
      type: "context_note",
      display: false,
      content: [{ type: "text", text: "TODO list: 1 item" }],
    });
    expect(ms[3]).toMatchObject({
      role: "assistant",
      status: "error",
      stopReason: "error",
      content: [],
      error: { kind: "unknown", message: '429 {"type":"error","error":{"type":"rate_limit_error"}}' },
    });
    expect(ms[3]?.parentId).toBe("sess-v3~th1");
    expect(ids.get(asEntryId("sess-v3~cm1"))).toMatchObject({
      type: "context_note",
      customType: "plan",
      display: true,
      details: { step: 2 },
    });
    expect(ids.get(asEntryId("sess-v3~x1"))).toMatchObject({ type: "custom", customType: "ext-state", data: { n: 1 } });
  });

  it("points the first kept entry at pi's entry (a thinking-level change is an entry now)", () => {
    const c = s.entries.find((e): e is CompactionEntry => e.type === "compaction");
    expect(c?.firstKeptEntryId).toBe("sess-v3~th1");
    expect(c?.shortSummary).toBe("Looked at a screenshot.");
    expect(c).not.toHaveProperty("details");
  });

  it("takes the title from session_info and the leaf past the trailing metadata lines", () => {
    expect(s.session.title).toBe("Screenshot triage");
    expect(s.session.titleSource).toBe("user");
    expect(s.session.leafId).toBe("sess-v3~x1");
    expect(s.entries).toHaveLength(9);
  });

  it("survives export to pi v3 and back", () => {
    const back = ok(exportPiJsonl(s), "b");
    expect(canonical(back)).toEqual(canonical(s));
  });
});

// ---- bad input -----------------------------------------------------------------------------------

const HEADER = { type: "session", version: 3, id: "s", timestamp: T(0), cwd: "" };
const user = (id: string, parentId: string | null, text = "hi") =>
  msg(id, parentId, 1, { role: "user", content: text, timestamp: 1 });

describe("parsePiJsonl rejects bad input with the line", () => {
  it("empty, not JSONL, not a session", () => {
    expect(err("")).toMatch(/empty/);
    expect(err(" \n\n")).toMatch(/empty/);
    expect(err(JSON.stringify({ format: "grove-session-export", sessions: [] }, null, 2))).toMatch(
      /Not a pi session file: this is one JSON document, not JSONL/,
    );
    expect(err("hello world\nmore")).toMatch(/Not a pi session file: line 1 is not JSON/);
    expect(err(jsonl(user("u1", null)))).toMatch(/Not a pi session file: line 1 should be the session header/);
    expect(err(jsonl([1, 2]))).toMatch(/line 1 should be the session header/);
  });

  it("unknown version", () => {
    expect(err(jsonl({ ...HEADER, version: 4 }, user("u1", null)))).toMatch(
      /Unsupported pi session version 4 \(line 1\): Grove reads versions 1 to 3/,
    );
    expect(err(jsonl({ ...HEADER, version: "3" }))).toMatch(/Unsupported pi session version "3" \(line 1\)/);
  });

  it("a truncated last line, or a broken line in the middle", () => {
    const full = jsonl(HEADER, user("u1", null), user("u2", "u1"));
    expect(err(full.slice(0, -20))).toMatch(/Line 3, the last line, is not complete JSON: the file looks truncated/);
    const lines = full.split("\n");
    lines[1] = "{oops";
    expect(err(lines.join("\n"))).toMatch(/Line 2 is not valid JSON/);
    expect(err(jsonl(HEADER, [1]))).toMatch(/Line 2 is not a pi session entry/);
    expect(err(jsonl(HEADER, user("u1", null), HEADER))).toMatch(/Line 3: a second session header/);
  });

  it("dangling parentId, duplicate ids, missing ids, cycles", () => {
    expect(err(jsonl(HEADER, user("u1", null), user("u2", "zzz")))).toMatch(
      /Line 3 \(message\): parentId "zzz" is not the id of any entry/,
    );
    expect(err(jsonl(HEADER, user("u1", null), user("u1", "u1")))).toMatch(
      /Line 3 \(message\): duplicate id "u1" \(already used on line 2\)/,
    );
    expect(err(jsonl({ ...HEADER, version: 2 }, { type: "message", message: { role: "user", content: "x" } }))).toMatch(
      /Line 2 \(message\): the entry has no "id"/,
    );
    expect(err(jsonl(HEADER, user("r", null), user("x", "y"), user("y", "x")))).toMatch(
      /Line 3 \(message\): entries form a cycle through parentId/,
    );
  });

  it("firstKeptEntryIndex out of range (v1), unknown firstKeptEntryId and fromId (v2+)", () => {
    const v1 = (index: unknown) =>
      jsonl(
        { type: "session", id: "s", timestamp: T(0) },
        { type: "message", timestamp: T(1), message: { role: "user", content: "a" } },
        { type: "compaction", timestamp: T(2), summary: "s", firstKeptEntryIndex: index, tokensBefore: 1 },
      );
    expect(ok(v1(1)).entries[1]).toMatchObject({ type: "compaction", firstKeptEntryId: "s~v1-1" });
    expect(err(v1(99))).toMatch(/Line 3 \(compaction\): firstKeptEntryIndex 99 is out of range/);
    expect(err(v1(0))).toMatch(/Line 3 \(compaction\): firstKeptEntryIndex 0 is out of range/);
    expect(err(v1(2))).toMatch(/firstKeptEntryIndex 2 is out of range/); // the compaction itself
    expect(err(v1("1"))).toMatch(/firstKeptEntryIndex "1" is out of range/);
    const compaction = { type: "compaction", id: "c", parentId: "u1", timestamp: T(2), summary: "s", tokensBefore: 1 };
    expect(err(jsonl(HEADER, user("u1", null), { ...compaction, firstKeptEntryId: "nope" }))).toMatch(
      /Line 3 \(compaction\): firstKeptEntryId "nope" is not the id of any entry/,
    );
    const summary = { type: "branch_summary", id: "b", parentId: "u1", timestamp: T(2), summary: "s" };
    expect(err(jsonl(HEADER, user("u1", null), { ...summary, fromId: "nope" }))).toMatch(
      /Line 3 \(branch_summary\): fromId "nope" is not the id of any entry/,
    );
  });

  it("fields of the wrong shape, naming the field", () => {
    const bad = msg("u1", null, 1, { role: "user", content: [{ type: "text", text: 5 }] });
    expect(err(jsonl(HEADER, bad))).toMatch(/Line 2 \(message, role user\): invalid at content\[0\]\.text: .*number/);
    const noSummary = { type: "compaction", id: "c", parentId: null, timestamp: T(1), tokensBefore: 1 };
    expect(err(jsonl(HEADER, noSummary))).toMatch(/Line 2 \(compaction\): invalid at summary/);
    const badTool = msg("t", null, 1, { role: "toolResult", content: [] });
    expect(err(jsonl(HEADER, badTool))).toMatch(/Line 2 \(message, role toolResult\): invalid at toolCallId/);
    expect(err(jsonl({ type: "session", version: 3 }))).toMatch(/Line 1 \(session header\): invalid at id/);
  });

  it("tolerates blank lines and CRLF; keeps pi's ids inside the session's own", () => {
    const text = `${JSON.stringify(HEADER)}\r\n\r\n${JSON.stringify(user("u1", null))}\r\n`;
    const r = parsePiJsonl(text);
    expect(r.kind).toBe("ok");
    if (r.kind === "ok") {
      expect(r.sessions[0]?.session.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.sessions[0]?.entries[0]?.id).toBe("s~u1");
    }
  });
});

// ---- export ---------------------------------------------------------------------------------------

describe("exportPiJsonl", () => {
  const s = ok(V2);
  const out = exportPiJsonl(s);
  const lines = piLines(out);

  it("writes a v3 header and parents before children, the leaf as the last entry", () => {
    expect(out.endsWith("\n")).toBe(true);
    expect(s.session.importedFrom).toBe("pi:sess-v2");
    expect(lines[0]).toEqual({
      type: "session",
      version: 3,
      id: "sess-v2", // a session from pi goes back under its pi id
      timestamp: new Date(s.session.createdAt).toISOString(),
      cwd: "/tmp/p", // pi's own
    });
    const seen = new Set<string>();
    for (const l of lines.slice(1)) {
      expect(typeof l.id).toBe("string");
      if (l.parentId !== null) expect(seen.has(l.parentId ?? "?")).toBe(true);
      seen.add(l.id ?? "?");
    }
    // The title is automatic (the first user message): not written as a pi name.
    const meta = lines.filter((l) => l.type === "label" || l.type === "session_info");
    expect(meta.map((l) => l.type)).toEqual(["label"]);
    const entriesOnly = lines.slice(1, lines.length - meta.length);
    expect(entriesOnly).toHaveLength(s.entries.length);
    expect(entriesOnly.at(-1)?.id).toBe("u4"); // pi's own id of Grove's leaf
    expect(s.session.leafId).toBe("sess-v2~u4");
    // pi's leaf is the last line; its path passes through Grove's leaf.
    expect(lines.at(-1)?.parentId).toBe("u4");
  });

  it("maps messages back to pi's shapes", () => {
    const find = (id: string | undefined) => lines.find((l) => l.id === id?.replace("sess-v2~", ""));
    const a1 = s.entries.find((e) => textOf(e) === "Let me look.");
    expect(find(a1?.id)?.message).toMatchObject({
      role: "assistant",
      api: "anthropic-messages",
      stopReason: "toolUse",
      usage: { input: 10, output: 20, cacheRead: 100, cacheWrite: 5, totalTokens: 135 },
      content: [
        { type: "thinking", thinking: "Check the logs", thinkingSignature: "sig-1" },
        { type: "text", text: "Let me look." },
        { type: "toolCall", id: "call_1", name: "bash", arguments: { command: "npm run build" } },
      ],
    });
    expect(find("m1")).toMatchObject({ type: "model_change", provider: "openai", modelId: "gpt-5" });
    const tool = s.entries.find((e) => textOf(e) === "error TS2304");
    expect(find(tool?.id)?.message).toMatchObject({ role: "toolResult", toolCallId: "call_1", toolName: "bash" });
    const c = s.entries.find((e) => e.type === "compaction");
    expect(find(c?.id)).toMatchObject({ type: "compaction", firstKeptEntryId: "u3" });
  });

  it("writes stopped and interrupted replies as aborted, with the error message", () => {
    const v1 = ok(LARGE);
    const aborted = piLines(exportPiJsonl(v1))[2]?.message;
    expect(aborted).toMatchObject({
      stopReason: "aborted",
      errorMessage: "Request was aborted",
      api: "openai-responses",
    });
  });

  it("round-trips Grove-only compaction and branch-summary fields and labels; a first-words title is not written", () => {
    const S = asSessionId("grove-s");
    const at = (id: string, parentId: string | null, createdAt: number) => ({
      id: asEntryId(id),
      sessionId: S,
      parentId: parentId === null ? null : asEntryId(parentId),
      createdAt,
    });
    const say = (id: string, parentId: string | null, t: number, role: "user" | "assistant", text: string): Entry => ({
      type: "message",
      ...at(id, parentId, t),
      role,
      content: [{ type: "text", text }],
      status: "complete",
      ...(role === "assistant"
        ? { api: "openai-chat" as const, provider: "openai", model: "gpt-x", stopReason: "end" as const }
        : {}),
      ...(role === "assistant" ? { usage: { input: 50, output: 5, cacheRead: 40 } } : {}),
    });
    const compaction: CompactionEntry = {
      type: "compaction",
      ...at("c", "a2", 5000),
      summary: "## Standing facts & constraints\n- use pnpm\n\n<verbatim_tail>\nDone.\n</verbatim_tail>",
      shortSummary: "Set up the repo",
      firstKeptEntryId: asEntryId("u2"),
      keptUserTurnIds: [asEntryId("u1")],
      tokensBefore: 9000,
      tokensAfter: 1234,
      reason: "threshold",
      instructions: "focus on tooling",
      model: "summarizer-1",
      details: { kind: "grove-compaction", version: 1, windows: 2 },
    };
    const branch: BranchSummaryEntry = {
      type: "branch_summary",
      ...at("b", "a1", 6000),
      fromId: asEntryId("a2"),
      summary: "Tried pnpm.",
      instructions: "be brief",
      model: "summarizer-2",
      details: { abandoned: 3 },
    };
    const entries: Entry[] = [
      say("u1", null, 1000, "user", "Set up the repo with pnpm"),
      say("a1", "u1", 2000, "assistant", "Done."),
      say("u2", "a1", 3000, "user", "Add lint"),
      say("a2", "u2", 4000, "assistant", "Added."),
      compaction,
      say("a3", "c", 5500, "assistant", "After the compaction."),
      branch,
      say("u3", "b", 7000, "user", "Try npm instead"),
    ];
    const session: Session = {
      id: S,
      title: "Repo setup",
      titleSource: "auto",
      createdAt: 1000,
      updatedAt: 7000,
      leafId: asEntryId("a3"),
      model: { providerId: "openai", modelId: "gpt-x" },
    };
    const generated: ExportedSession = { session, entries, labels: { [asEntryId("u2")]: "lint ask" } };
    // Titled by its first words, as Grove titles a chat at once.
    const original = { ...generated, session: { ...session, title: "Set up the repo with pnpm" } };
    const text = exportPiJsonl(original);
    const pi = piLines(text);
    expect(pi.some((l) => l.type === "session_info")).toBe(false);
    // The leaf's branch is written last, although the branch summary's branch is newer.
    expect(pi.filter((l) => l.type !== "label" && l.type !== "session_info").at(-1)?.id).toBe("a3");
    // pi's model sees the kept user turn inside the summary; Grove's re-import does not hold it twice.
    const summaryLine = pi.find((l) => l.type === "compaction");
    expect(summaryLine?.summary).toContain("<user_message>\nSet up the repo with pnpm\n</user_message>");
    expect(summaryLine?.summary?.endsWith(compaction.summary)).toBe(true);
    const back = ok(text, "b");
    expect(back.session.title).toBe("Set up the repo with pnpm");
    expect(canonical(back)).toEqual(canonical(original));

    // A generated title ("Generate chat titles") is not the first words: it goes as a name marked
    // automatic, and comes back automatic (a later rename is still the user's first).
    const withTitle = exportPiJsonl(generated);
    expect(piLines(withTitle).filter((l) => l.type === "session_info")).toMatchObject([
      { name: "Repo setup", grove: { titleSource: "auto" } },
    ]);
    const titled = ok(withTitle, "c");
    expect(titled.session).toMatchObject({ title: "Repo setup", titleSource: "auto" });
    expect(canonical(titled)).toEqual(canonical(generated));
  });

  it("round-trips a handoff entry through a custom_message, and a user title", () => {
    const S = asSessionId("grove-s");
    const session: Session = {
      id: S,
      title: "Continued work",
      titleSource: "user",
      createdAt: 1000,
      updatedAt: 3000,
      leafId: asEntryId("u1"),
    };
    const handoff: HandoffEntry = {
      type: "handoff",
      id: asEntryId("h"),
      sessionId: S,
      parentId: null,
      createdAt: 1000,
      document: "## Goal\nFinish the importer.",
      fromSessionId: asSessionId("old-s"),
      fromEntryId: asEntryId("old-leaf"),
    };
    const interrupted: MessageEntry = {
      type: "message",
      id: asEntryId("a0"),
      sessionId: S,
      parentId: asEntryId("h"),
      createdAt: 1500,
      role: "assistant",
      content: [{ type: "text", text: "Partial" }],
      status: "interrupted",
      api: "anthropic-messages",
      provider: "anthropic",
      model: "m",
    };
    const u1: MessageEntry = {
      type: "message",
      id: asEntryId("u1"),
      sessionId: S,
      parentId: asEntryId("a0"),
      createdAt: 2000,
      role: "user",
      content: [{ type: "text", text: "Go on" }],
      status: "complete",
    };
    const exported = exportPiJsonl({ session, entries: [u1, interrupted, handoff], labels: {} });
    // A chat made in Grove has no working directory: none is written (pi would print an empty one).
    expect(piLines(exported)[0]).not.toHaveProperty("cwd");
    const first = piLines(exported)[1] as PiLine & { customType?: string; content?: string };
    expect(first.type).toBe("custom_message");
    expect(first.customType).toBe(GROVE_HANDOFF_CUSTOM_TYPE);
    expect(first.content).toBe(HANDOFF_CONTEXT.replace("{{document}}", handoff.document));
    expect(piLines(exported)[2]?.message?.stopReason).toBe("aborted");
    const back = ok(exported, "b");
    // Grove's ids come back inside the pi session's (they are not UUIDs here).
    const { piExtra: _extra, ...handoffBack } = back.entries[0] as HandoffEntry;
    expect(handoffBack).toEqual({ ...handoff, id: "grove-s~h", sessionId: "b-session" });
    expect(back.entries[1]).toMatchObject({ status: "stopped", stopReason: "aborted" });
    expect(back.session).toMatchObject({
      title: "Continued work",
      titleSource: "user",
      leafId: "grove-s~u1",
      createdAt: 1000,
    });
  });
});

describe("importedFrom", () => {
  it("a pi file's session remembers its pi id; a Grove-made session is exported under its own id", () => {
    expect(ok(V2).session.importedFrom).toBe("pi:sess-v2");
    const grove = { ...ok(V2), session: { ...ok(V2).session, importedFrom: undefined } };
    expect(piLines(exportPiJsonl(grove))[0]?.id).toBe(grove.session.id);
  });
});
