/**
 * Builders for the pi session files (JSONL, version 3) the end-to-end tests import: one line per
 * entry, each message stamped at `sec` seconds after 2025-12-01 10:00 UTC.
 */

/** The ISO timestamp `sec` seconds into the test sessions' day. */
export const piTime = (sec: number): string => new Date(Date.UTC(2025, 11, 1, 10, 0, sec)).toISOString();

export const PI_USAGE = {
  input: 10,
  output: 5,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 15,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** The header line. */
export const piHeader = (id: string, cwd = "/work") => ({ type: "session", version: 3, id, timestamp: piTime(0), cwd });

/** The fields every entry line has. */
export const piBase = (id: string, parentId: string | null, sec: number) => ({ id, parentId, timestamp: piTime(sec) });

/** A `message` entry line. */
export const piMessage = (id: string, parentId: string | null, sec: number, message: object) => ({
  type: "message",
  ...piBase(id, parentId, sec),
  message: { timestamp: sec, ...message },
});

/** An assistant message from Claude Sonnet 4.5 over the Anthropic API. */
export const piAssistant = (content: object[], stopReason: string, usage: object = PI_USAGE) => ({
  role: "assistant",
  content,
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage,
  stopReason,
});

export const piToolCall = (id: string, name: string, args: object) => ({ type: "toolCall", id, name, arguments: args });

export const piToolResult = (callId: string, toolName: string, text: string) => ({
  role: "toolResult",
  toolCallId: callId,
  toolName,
  content: [{ type: "text", text }],
  isError: false,
});

/** The file's text: one JSON line per entry. */
export const piJsonl = (lines: readonly object[]): string => lines.map((l) => JSON.stringify(l)).join("\n");
