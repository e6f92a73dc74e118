/**
 * pi sessions written by pi's own SessionManager (the real package), for the fidelity tests: one
 * with every entry kind pi writes, and helpers to compare pi's own context at every leaf.
 */
import {
  type FileEntry,
  migrateSessionEntries,
  type SessionEntry,
  SessionManager,
} from "@mariozechner/pi-coding-agent";

/** A 1×1 PNG. */
export const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const usage = (input: number, output: number) => ({
  input,
  output,
  cacheRead: 3,
  cacheWrite: 2,
  totalTokens: input + output + 5,
  cost: { input: 0.001, output: 0.002, cacheRead: 0.0001, cacheWrite: 0.0002, total: 0.0033 },
});

/** Every entry kind pi writes, with branches, via pi's SessionManager. */
export function everyKindSession(): string {
  const sm = SessionManager.inMemory("/home/user/project");
  let t = 1_760_000_000_000;
  const ts = () => (t += 1000);
  sm.appendThinkingLevelChange("high");
  sm.appendModelChange("anthropic", "claude-sonnet-4-5");
  const u1 = sm.appendMessage({
    role: "user",
    content: [
      { type: "text", text: "Look at this screenshot and fix the bug." },
      { type: "image", data: PNG_BASE64, mimeType: "image/png" },
    ],
    timestamp: ts(),
  });
  const a1 = sm.appendMessage({
    role: "assistant",
    content: [
      { type: "thinking", thinking: "The user wants a fix.", thinkingSignature: "sig-anthropic-1" },
      { type: "thinking", thinking: "", thinkingSignature: "redacted-payload", redacted: true },
      { type: "text", text: "Let me read the file." },
      { type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "src/app.ts" } },
    ],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: usage(100, 20),
    stopReason: "toolUse",
    timestamp: ts(),
    responseId: "msg_01",
  } as never);
  sm.appendMessage({
    role: "toolResult",
    toolCallId: "toolu_1",
    toolName: "read",
    content: [{ type: "text", text: "export const x = 1;" }],
    details: { lines: 1, truncation: null },
    isError: false,
    timestamp: ts(),
  });
  sm.appendMessage({
    role: "assistant",
    content: [{ type: "toolCall", id: "toolu_2", name: "read", arguments: { path: "shot.png" } }],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: usage(130, 10),
    stopReason: "toolUse",
    timestamp: ts(),
  });
  sm.appendMessage({
    role: "toolResult",
    toolCallId: "toolu_2",
    toolName: "read",
    content: [{ type: "image", data: PNG_BASE64, mimeType: "image/png" }],
    isError: false,
    timestamp: ts(),
  });
  sm.appendMessage({
    role: "toolResult",
    toolCallId: "toolu_3",
    toolName: "bash",
    content: [
      { type: "text", text: "first" },
      { type: "text", text: "second" },
    ],
    isError: true,
    timestamp: ts(),
  });
  sm.appendMessage({
    role: "bashExecution",
    command: "npm test",
    output: "1 failing",
    exitCode: 1,
    cancelled: false,
    truncated: true,
    fullOutputPath: "/tmp/pi-bash-1.log",
    timestamp: ts(),
  });
  sm.appendMessage({
    role: "bashExecution",
    command: "cat ~/.secret",
    output: "hidden",
    exitCode: 0,
    cancelled: false,
    truncated: false,
    excludeFromContext: true,
    timestamp: ts(),
  });
  sm.appendCustomMessageEntry("todo-reminder", "Remember the open todos.", true, { todos: 2 });
  sm.appendCustomMessageEntry("hidden-context", [{ type: "text", text: "Hidden context" }], false);
  sm.appendCustomEntry("todo-state", { items: ["a", "b"] });
  sm.appendMessage({
    role: "custom",
    customType: "hook-note",
    content: "A hook said this.",
    display: true,
    timestamp: ts(),
  } as never);
  sm.appendLabelChange(u1, "start here");
  sm.appendSessionInfo("Fixing the app");
  sm.appendThinkingLevelChange("medium");
  sm.appendModelChange("openai", "gpt-5");
  const u2 = sm.appendMessage({ role: "user", content: "Now with OpenAI.", timestamp: ts() });
  sm.appendMessage({
    role: "assistant",
    content: [
      {
        type: "thinking",
        thinking: "Reasoning summary",
        thinkingSignature: JSON.stringify({
          type: "reasoning",
          id: "rs_1",
          summary: [{ type: "summary_text", text: "Reasoning summary" }],
          encrypted_content: "gAAAA-encrypted",
        }),
      },
      { type: "text", text: "Done with Responses.", textSignature: JSON.stringify({ v: 1, id: "msg_resp_1" }) },
    ],
    api: "openai-responses",
    provider: "openai",
    model: "gpt-5",
    usage: usage(300, 40),
    stopReason: "stop",
    timestamp: ts(),
    responseId: "resp_1",
  } as never);
  sm.appendCompaction(
    "## Goal\nFix the app.\n\n## Done\nRead the file.",
    u2,
    12345,
    { readFiles: ["src/app.ts"], modifiedFiles: [] },
    false,
  );
  sm.appendMessage({ role: "user", content: [{ type: "text", text: "Continue after compaction." }], timestamp: ts() });
  sm.appendMessage({
    role: "assistant",
    content: [{ type: "text", text: "Partial" }],
    api: "openai-responses",
    provider: "openai",
    model: "gpt-5",
    usage: usage(50, 5),
    stopReason: "aborted",
    errorMessage: "Request was aborted",
    timestamp: ts(),
  });
  sm.appendMessage({
    role: "assistant",
    content: [],
    api: "openai-completions",
    provider: "openrouter",
    model: "x/y",
    usage: usage(0, 0),
    stopReason: "error",
    timestamp: ts(),
  });
  // A branch summary at the root, then one at an entry (from an extension), then a plain branch.
  sm.branchWithSummary(null, "Tried a different approach from scratch.", { readFiles: [] });
  sm.appendMessage({ role: "user", content: "Fresh start.", timestamp: ts() });
  sm.branchWithSummary(a1, "Explored reading another file.", undefined, true);
  sm.appendMessage({ role: "user", content: "Back at the first reply.", timestamp: ts() });
  sm.branch(u1);
  sm.appendMessage({ role: "user", content: "A plain branch.", timestamp: ts() });
  return toJsonl(sm);
}

function toJsonl(sm: SessionManager): string {
  const header = sm.getHeader();
  const lines: unknown[] = [header, ...sm.getEntries()];
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

/** pi's own reading of a file: its parser and migrations (v1 and v2 files get ids here). */
export function piEntries(text: string): SessionEntry[] {
  const all: FileEntry[] = [];
  for (const line of text.split("\n")) if (line.trim()) all.push(JSON.parse(line) as FileEntry);
  // pi's loader runs these migrations on every file it opens.
  migrateSessionEntries(all);
  return all.filter((e): e is SessionEntry => e.type !== "session");
}

/** The leaves of a pi tree (entries with no children). */
export function piLeaves(entries: readonly SessionEntry[]): SessionEntry[] {
  const parents = new Set(entries.map((e) => e.parentId));
  return entries.filter((e) => !parents.has(e.id));
}
