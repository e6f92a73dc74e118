/**
 * Runs one assistant reply: build the context, stream it, checkpoint the draft, and write the
 * finished entry (complete, stopped or error) in one transaction. The stream never throws
 * (providers' contract); every outcome ends here as an entry, so nothing the user saw is lost.
 */
import { CONTINUE_REPLY } from "../../core/prompts";
import { buildContext } from "../../core/session/build-context";
import type { LlmContext } from "../../core/session/context";
import type { MessageEntry, MessageError, MessageStatus } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { newEntryId } from "../../core/session/ids";
import { buildTreeIndex, pathToRoot } from "../../core/session/tree";
import { deleteDraft, finalizeDraft, saveDraft } from "../../db/drafts";
import { getEntries } from "../../db/entries";
import { getSession } from "../../db/sessions";
import { stream as defaultStream } from "../../providers/registry";
import type { AssistantPartial, StreamFn } from "../../providers/types";
import { createFrameBatcher } from "../frame-batcher";
import { thinkingFor } from "../settings-model";
import { useSettingsStore, useStreamStore } from "../stores";
import { type ChatTarget, chatTarget, isTargetError } from "./chat-target";
import { describeFailure } from "./describe-failure";
import { pageOwnerId } from "./owner";

/** What a finished reply was: the entry written, and the target and exact request it was sent with. */
export type ReplyResult =
  | { entry: MessageEntry; target: ChatTarget; context: LlmContext }
  /** It could not start (no key, unknown provider): an error entry was written, nothing was sent. */
  | { entry: MessageEntry; target: null; context: null };

/** The draft row is rewritten at this pace while a reply streams, never per token. */
export const DRAFT_CHECKPOINT_MS = 500;

export type ReplyDeps = { stream: StreamFn; now: () => number };
const defaultDeps: ReplyDeps = { stream: defaultStream, now: () => Date.now() };

const controllers = new Map<SessionId, AbortController>();

export function isReplying(sessionId: SessionId): boolean {
  return controllers.has(sessionId);
}

/** Stop the reply in flight for a session; what arrived is kept and marked "stopped". */
export function stopReply(sessionId: SessionId): void {
  controllers.get(sessionId)?.abort();
}

function copyPartial(p: AssistantPartial): AssistantPartial {
  return { ...p, content: p.content.map((b) => ({ ...b })), usage: p.usage ? { ...p.usage } : undefined };
}

/**
 * Streams a reply as a child of `parentId`. Resolves when the entry is written.
 * Only one reply per session per tab; a second call while one runs is ignored.
 */
export async function runReply(
  sessionId: SessionId,
  parentId: EntryId,
  opts: { continues?: EntryId } = {},
  deps: ReplyDeps = defaultDeps,
): Promise<ReplyResult | null> {
  if (controllers.has(sessionId)) return null;
  const controller = new AbortController();
  controllers.set(sessionId, controller);
  const draftId = newEntryId();
  try {
    const settings = useSettingsStore.getState().settings;
    const [session, entries] = await Promise.all([getSession(sessionId), getEntries(sessionId)]);
    const target = chatTarget(session, settings);
    const startedAt = deps.now();
    if (isTargetError(target)) {
      return {
        entry: await writeFailure(sessionId, parentId, draftId, target, startedAt),
        target: null,
        context: null,
      };
    }
    const { provider, modelId, model } = target;
    const path = pathToRoot(buildTreeIndex(entries), parentId);
    const built = buildContext(path, {
      systemPrompt: target.systemPrompt,
      targetApi: provider.api,
      targetProviderId: provider.id,
    });
    // Continue: ask for the rest of a reply cut off by the output limit (a request, not an entry).
    const context: LlmContext = opts.continues
      ? {
          ...built,
          messages: [...built.messages, { role: "user", content: [{ type: "text", text: CONTINUE_REPLY }] }],
        }
      : built;

    let partial: AssistantPartial = { content: [], providerId: provider.id, api: provider.api, model: modelId };
    let finalError: MessageError | undefined;
    let aborted = false;
    const publish = createFrameBatcher<AssistantPartial>((p) =>
      useStreamStore.setState((s) => {
        const current = s.replies[sessionId];
        return current ? { replies: { ...s.replies, [sessionId]: { ...current, partial: p } } } : s;
      }),
    );
    useStreamStore.setState((s) => ({
      replies: { ...s.replies, [sessionId]: { sessionId, draftId, parentId, partial, retry: null } },
    }));

    const draftRow = () => ({
      id: draftId,
      sessionId,
      parentId,
      ownerId: pageOwnerId(),
      content: partial.content,
      provider: provider.id,
      api: provider.api,
      model: modelId,
      usage: partial.usage,
      startedAt,
      updatedAt: deps.now(),
    });
    await saveDraft(draftRow());
    let dirty = false;
    // A failed checkpoint (quota) must not kill the stream: the final write reports it.
    const checkpoint = setInterval(() => {
      if (!dirty) return;
      dirty = false;
      saveDraft(draftRow()).catch(() => {});
    }, DRAFT_CHECKPOINT_MS);

    try {
      for await (const event of deps.stream({
        provider,
        model: modelId,
        context,
        maxOutputTokens: model.info.maxOutput,
        thinking: thinkingFor(settings, modelId),
        signal: controller.signal,
      })) {
        partial = copyPartial(event.partial);
        switch (event.type) {
          case "start":
          case "text_delta":
          case "thinking_delta":
            dirty = true;
            publish.push(partial);
            break;
          case "retry_wait":
            useStreamStore.setState((s) => {
              const current = s.replies[sessionId];
              if (!current) return s;
              const retry = {
                attempt: event.attempt,
                maxAttempts: event.maxAttempts,
                until: deps.now() + event.delayMs,
                message: describeFailure(event.error),
              };
              return { replies: { ...s.replies, [sessionId]: { ...current, retry } } };
            });
            break;
          case "done":
            break;
          case "error":
            if (event.error.kind === "aborted") aborted = true;
            else finalError = event.error;
            break;
          default: {
            const never: never = event;
            throw new Error(`Unknown stream event ${JSON.stringify(never)}`);
          }
        }
      }
    } finally {
      clearInterval(checkpoint);
      publish.flush();
    }

    const status: MessageStatus = aborted ? "stopped" : finalError ? "error" : "complete";
    const entry: MessageEntry = {
      id: draftId,
      sessionId,
      parentId,
      createdAt: deps.now(),
      type: "message",
      role: "assistant",
      content: partial.content,
      status,
      ...(finalError ? { error: finalError } : {}),
      provider: provider.id,
      api: provider.api,
      model: modelId,
      ...(partial.usage ? { usage: partial.usage } : {}),
      stopReason: aborted ? "aborted" : finalError ? "error" : (partial.stopReason ?? "end"),
      ...(opts.continues ? { continues: opts.continues } : {}),
    };
    try {
      await finalizeDraft(draftId, entry, { kind: "move-if-leaf-is", expected: parentId, to: draftId });
      return { entry, target, context };
    } catch (e) {
      // The entry could not be written (e.g. storage full). Keep the whole reply in its draft, not
      // just the last checkpoint, so recovery brings back everything the user saw (best effort).
      await saveDraft(draftRow()).catch(() => {});
      throw e;
    }
  } finally {
    controllers.delete(sessionId);
    useStreamStore.setState((s) => {
      const { [sessionId]: _gone, ...rest } = s.replies;
      return { replies: rest };
    });
  }
}

/** A reply that could not even start (no key, unknown provider): an error entry with Retry. */
async function writeFailure(
  sessionId: SessionId,
  parentId: EntryId,
  id: EntryId,
  error: MessageError,
  now: number,
): Promise<MessageEntry> {
  const entry: MessageEntry = {
    id,
    sessionId,
    parentId,
    createdAt: now,
    type: "message",
    role: "assistant",
    content: [],
    status: "error",
    error,
    stopReason: "error",
  };
  await saveDraft({ id, sessionId, parentId, ownerId: pageOwnerId(), content: [], startedAt: now, updatedAt: now });
  try {
    await finalizeDraft(id, entry, { kind: "move-if-leaf-is", expected: parentId, to: id });
    return entry;
  } catch (e) {
    await deleteDraft(id).catch(() => {});
    throw e;
  }
}
