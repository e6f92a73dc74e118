/**
 * Test support for the automatic triggers around a reply (state/maintenance/triggers.ts): a scripted
 * chat model, a chat with a question waiting for its reply, settings with a threshold the injected
 * measure decides, and the session's compactions. Shared by the trigger and promotion tests.
 */
import type { CompactionEntry, Entry, MessageError, ModelRef } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { getEntries } from "../../db/entries";
import { createSession } from "../../db/sessions";
import { assistantMessage, makeSession, userMessage } from "../../db/testing/database";
import type { StreamFn, StreamRequest } from "../../providers/types";
import { emptyPartial } from "../../worker/testing/streams";
import { DEFAULT_SETTINGS, type Settings } from "../settings/settings-model";
import { settingsWithKeys } from "./settings";

/** One scripted reply: text (ending normally or at the length limit), tool calls (a tool loop's step), or an error. */
export type Turn =
  | { text: string; stop?: "end" | "length" }
  | { calls: readonly { id: string; name: string; args?: Record<string, unknown> }[] }
  | { error: MessageError };

/** The chat model: plays one scripted turn per request, in order, and records the requests. */
export function chatModel(turns: Turn[]): { stream: StreamFn; requests: StreamRequest[] } {
  const requests: StreamRequest[] = [];
  const stream: StreamFn = async function* (req) {
    requests.push(req);
    const turn = turns.shift() ?? { text: "(no more turns)" };
    const partial = emptyPartial(req);
    yield { type: "start", partial };
    if ("error" in turn) {
      yield { type: "error", partial: { ...partial, stopReason: "error" }, error: turn.error };
      return;
    }
    if ("calls" in turn) {
      const content = turn.calls.map((c) => ({
        type: "tool_call" as const,
        id: c.id,
        name: c.name,
        args: c.args ?? {},
      }));
      yield { type: "done", partial: { ...partial, content, stopReason: "tool_use" } };
      return;
    }
    const done = { ...partial, content: [{ type: "text" as const, text: turn.text }], stopReason: turn.stop ?? "end" };
    yield { type: "text_delta", delta: turn.text, partial: done };
    yield { type: "done", partial: done };
  };
  return { stream, requests };
}

/**
 * Settings with keys for every provider, `model` as the default and a threshold of 40 tokens the
 * path's upper bound cannot clear, so the (injected) measure decides.
 */
export function thresholdSettings(
  model: ModelRef,
  patch: Partial<Settings> = {},
  compaction: Partial<Settings["compaction"]> = {},
): void {
  settingsWithKeys({
    defaultModel: model,
    compaction: { ...DEFAULT_SETTINGS.compaction, thresholdTokens: 40, keepRecentTokens: 30, ...compaction },
    ...patch,
  });
}

const WORDS = "word ".repeat(60);

/** Three exchanges and a new question (the leaf), ready for a reply, in a chat with `model`. */
export async function chatWithQuestion(model: ModelRef): Promise<{ sessionId: SessionId; question: Entry }> {
  const session = makeSession({ model: { ...model } });
  const entries: Entry[] = [];
  let parent: Entry | null = null;
  for (let i = 1; i <= 3; i++) {
    const u = userMessage(session.id, parent?.id ?? null, `(U${i}) ${WORDS}`, i * 10);
    const a = assistantMessage(session.id, u.id, `(A${i}) ${WORDS}`, i * 10 + 1);
    entries.push(u, a);
    parent = a;
  }
  const question = userMessage(session.id, parent?.id ?? null, "(Q) and now?", 100);
  entries.push(question);
  await createSession({ ...session, leafId: question.id }, entries);
  return { sessionId: session.id, question };
}

/** The session's compaction entries. */
export async function compactions(sessionId: SessionId): Promise<CompactionEntry[]> {
  return (await getEntries(sessionId)).filter((e): e is CompactionEntry => e.type === "compaction");
}
