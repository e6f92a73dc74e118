/**
 * Runs one assistant reply: build the context, stream it, checkpoint the draft, and write the
 * finished entry (complete, stopped or error) in one transaction. The stream never throws
 * (providers' contract); every outcome ends here as an entry, so nothing the user saw is lost.
 */
import { buildContext } from "../../core/session/build-context";
import type { MessageEntry, MessageError, MessageStatus, Session } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { newEntryId } from "../../core/session/ids";
import { buildTreeIndex, pathToRoot } from "../../core/session/tree";
import { resolveModel } from "../../core/tokens/models";
import { deleteDraft, finalizeDraft, saveDraft } from "../../db/drafts";
import { getEntries } from "../../db/entries";
import { getSession } from "../../db/sessions";
import { stream as defaultStream } from "../../providers/registry";
import type { AssistantPartial, ProviderConfig, StreamFn } from "../../providers/types";
import { createFrameBatcher } from "../frame-batcher";
import { findProvider, type Settings, thinkingFor } from "../settings-model";
import { useSettingsStore, useStreamStore } from "../stores";
import { describeFailure } from "./describe-failure";
import { pageOwnerId } from "./owner";

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

type Target = { provider: ProviderConfig; modelId: string };

/** Which provider/model a session talks to, or why it can't. */
export function resolveTarget(session: Session | undefined, settings: Settings): Target | MessageError {
  const ref = session?.model ?? settings.defaultModel;
  const provider = findProvider(settings, ref.providerId);
  if (!provider) {
    return {
      kind: "invalid_request",
      message: `The provider "${ref.providerId}" is not configured. Pick another model.`,
    };
  }
  if (provider.builtIn && !provider.apiKey.trim()) {
    return {
      kind: "auth",
      message: `No ${provider.name} API key yet. Open Settings and paste your key, then press Retry.`,
    };
  }
  return { provider, modelId: ref.modelId };
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
): Promise<void> {
  if (controllers.has(sessionId)) return;
  const controller = new AbortController();
  controllers.set(sessionId, controller);
  const draftId = newEntryId();
  try {
    const settings = useSettingsStore.getState().settings;
    const [session, entries] = await Promise.all([getSession(sessionId), getEntries(sessionId)]);
    const target = resolveTarget(session, settings);
    const startedAt = deps.now();
    if ("kind" in target) {
      await writeFailure(sessionId, parentId, draftId, target, startedAt);
      return;
    }
    const { provider, modelId } = target;
    const model = resolveModel(modelId, settings.modelOverrides);
    const path = pathToRoot(buildTreeIndex(entries), parentId);
    const context = buildContext(path, {
      systemPrompt: session?.systemPrompt ?? settings.systemPrompt,
      targetApi: provider.api,
    });

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
): Promise<void> {
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
  } catch (e) {
    await deleteDraft(id).catch(() => {});
    throw e;
  }
}
