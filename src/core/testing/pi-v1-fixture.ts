/**
 * TEST-ONLY: a minimal converter from pi coding-agent session files, format version 1 (linear, no
 * ids), to Grove entries, so the engine can be run over real sessions before the real importer
 * (core/export) exists. It keeps what the engine cares about and nothing more: user / assistant /
 * toolResult messages (text, thinking, tool calls and results), `bashExecution` as a user note,
 * and `compaction` lines (their `firstKeptEntryIndex` mapped to an entry id). Model and
 * thinking-level changes are skipped. Not the importer: no validation, no migrations, no images.
 * No I/O here: the test reads the file and passes its text.
 */
import type { Block, Entry, MessageEntry, MessageStatus, StopReason } from "../session/entries";
import { asEntryId, asSessionId, type EntryId } from "../session/ids";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const isObj = (v: Json | undefined): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: Json | undefined): string => (typeof v === "string" ? v : "");
const arr = (v: Json | undefined): Json[] => (Array.isArray(v) ? v : []);

const SESSION = asSessionId("pi-fixture");

function textOf(content: Json | undefined): string {
  if (typeof content === "string") return content;
  return arr(content)
    .filter(isObj)
    .filter((b) => b.type === "text")
    .map((b) => str(b.text))
    .join("\n");
}

function stopReason(r: string): StopReason {
  switch (r) {
    case "toolUse":
      return "tool_use";
    case "length":
      return "length";
    case "aborted":
      return "aborted";
    case "error":
      return "error";
    default:
      return "end";
  }
}

function assistantBlocks(content: Json | undefined): Block[] {
  const out: Block[] = [];
  for (const b of arr(content).filter(isObj)) {
    if (b.type === "text") out.push({ type: "text", text: str(b.text) });
    else if (b.type === "thinking") {
      const signature = str(b.thinkingSignature);
      out.push({
        type: "thinking",
        text: str(b.thinking),
        signedBy: "anthropic-messages",
        ...(signature ? { signature } : {}),
      });
    } else if (b.type === "toolCall") {
      out.push({ type: "tool_call", id: str(b.id), name: str(b.name), args: b.arguments ?? {} });
    }
  }
  return out;
}

/** The entries of a pi v1 session file, root first, each the child of the one before. */
export function piV1ToEntries(jsonl: string): Entry[] {
  const lines = jsonl.split("\n").filter((l) => l.trim() !== "");
  const out: Entry[] = [];
  /** Line index → id of the entry made from it (or of the next entry, for skipped lines). */
  const idAtLine = new Map<number, EntryId>();
  const pendingLines: number[] = [];
  const pendingCompactions: Array<{ at: number; firstKeptLine: number }> = [];

  const push = (line: number, make: (base: { id: EntryId; parentId: EntryId | null; createdAt: number }) => Entry) => {
    const id = asEntryId(`pi-${line}`);
    out.push(make({ id, parentId: out.at(-1)?.id ?? null, createdAt: line }));
    for (const l of pendingLines) idAtLine.set(l, id);
    pendingLines.length = 0;
    idAtLine.set(line, id);
  };
  const message = (line: number, role: MessageEntry["role"], content: Block[], extra: Partial<MessageEntry> = {}) =>
    push(line, (b) => ({ ...b, sessionId: SESSION, type: "message", role, content, status: "complete", ...extra }));

  for (const [i, raw] of lines.entries()) {
    const o = JSON.parse(raw) as Json;
    if (!isObj(o)) continue;
    if (o.type === "compaction") {
      pendingCompactions.push({
        at: out.length,
        firstKeptLine: typeof o.firstKeptEntryIndex === "number" ? o.firstKeptEntryIndex : -1,
      });
      const summary = str(o.summary);
      push(i, (b) => ({
        ...b,
        sessionId: SESSION,
        type: "compaction",
        summary,
        shortSummary: summary.split("\n")[0] ?? "",
        firstKeptEntryId: null,
        keptUserTurnIds: [],
        tokensBefore: typeof o.tokensBefore === "number" ? o.tokensBefore : 0,
        tokensAfter: 0,
        reason: "threshold",
        model: "pi",
      }));
      continue;
    }
    const m = o.message;
    if (o.type !== "message" || !isObj(m)) {
      pendingLines.push(i);
      continue;
    }
    switch (m.role) {
      case "user":
        message(i, "user", [{ type: "text", text: textOf(m.content) }]);
        break;
      case "assistant": {
        const reason = str(m.stopReason);
        const status: MessageStatus = reason === "aborted" ? "stopped" : reason === "error" ? "error" : "complete";
        message(i, "assistant", assistantBlocks(m.content), {
          status,
          api: "anthropic-messages",
          model: str(m.model),
          stopReason: stopReason(reason),
          ...(status === "error" ? { error: { kind: "unknown" as const, message: str(m.errorMessage) } } : {}),
        });
        break;
      }
      case "toolResult":
        message(i, "tool", [
          {
            type: "tool_result",
            callId: str(m.toolCallId),
            toolName: str(m.toolName),
            text: textOf(m.content),
            isError: m.isError === true,
          },
        ]);
        break;
      case "bashExecution":
        message(i, "user", [{ type: "text", text: `[bash] $ ${str(m.command)}\n${str(m.output)}` }]);
        break;
      default:
        pendingLines.push(i);
    }
  }
  for (const c of pendingCompactions) {
    const entry = out[c.at];
    const kept = idAtLine.get(c.firstKeptLine);
    if (entry?.type === "compaction" && kept !== undefined) out[c.at] = { ...entry, firstKeptEntryId: kept };
  }
  return out;
}
