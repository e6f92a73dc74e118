/**
 * Runs one assistant reply: build the context, stream it, checkpoint the checkpoint, and write the
 * finished entry (complete, stopped or error) in one transaction. The stream never throws
 * (providers' contract); every outcome ends here as an entry, so nothing the user saw is lost.
 *
 * The reply shows the moment the user sends (`showPendingReply`: a placeholder with Stop, before
 * the provider code or the preflight is awaited), and a reply the browser refuses to store (disk
 * full) stays on screen and in memory, saying so, until a later attempt saves it (`saveUnsaved`).
 */
import { CONTINUE_REPLY } from "../../core/prompts";
import { isQuotaError } from "../../core/quota-error";
import type { LlmContext } from "../../core/session/context";
import type { ApiKind, Entry, MessageEntry, MessageError, MessageStatus, Session } from "../../core/session/entries";
import type { EntryId, SessionId } from "../../core/session/ids";
import { newEntryId } from "../../core/session/ids";
import { getSessionPath, moveLeaf } from "../../db/entries";
import { deleteCheckpoint, finalizeCheckpoint, saveCheckpoint } from "../../db/reply-checkpoints";
import type { ReplyCheckpoint } from "../../db/rows";
import { stream as defaultStream, loadProvider } from "../../providers/registry";
import type { AssistantPartial, StreamFn } from "../../providers/types";
import { describeFailure } from "../app/describe-failure";
import { pageOwnerId } from "../app/owner";
import { pushNotice } from "../app/ui-store";
import { attachmentDataFor } from "../composer/attachments";
import { requestFor, type SendContext } from "../context/send-context";
import { keepServerCompaction, serverCompactionFor } from "../maintenance/server-compaction";
import { type ChatTarget, chatTarget, isTargetError, replyApi, requestParams } from "../models/chat-target";
import { useSettingsStore } from "../settings/settings-store";
import { checkpointPace } from "./checkpoint-pace";
import { createFrameBatcher } from "./frame-batcher";
import { controllers, setReply, takePendingController } from "./reply-lane";
import { useStreamStore } from "./stream-store";
import { STORAGE_FULL_TEXT, saveReply } from "./unsaved";

/** What a finished reply was: the entry written, and the target and exact request it was sent with. */
export type ReplyResult =
  | { entry: MessageEntry; target: ChatTarget; context: LlmContext }
  /** It could not start (no key, unknown provider): an error entry was written, nothing was sent. */
  | { entry: MessageEntry; target: null; context: null };

export type ReplyDeps = { stream: StreamFn; now: () => number };
const defaultDeps: ReplyDeps = { stream: defaultStream, now: () => Date.now() };

export type ReplyOptions = {
  /** The reply continues a partial cut off by the output limit (Continue). */
  continues?: EntryId;
  /** The session and the path to `parentId` as already read by the caller (saves reading them again). */
  read?: { session: Session; path: readonly Entry[] };
  /** The step's context (context/send-context.ts): its request is sent as built, when it is for this path and target. */
  built?: SendContext;
  /**
   * Retry of a reply that failed before any content: if this attempt fails before any content too,
   * nothing new is written (no pile of empty error versions); the failed reply stays the leaf and
   * the new reason is shown as a notice.
   */
  retryOf?: MessageEntry;
};

/** Loads the provider code for the chat's model ahead of the first send (composer focus, a key set). */
export function preloadReplyCode(session: Session | undefined): void {
  const api = replyApi(session, useSettingsStore.getState().settings);
  if (api) preloadApi(api);
}

/** Loads an api's provider code (once; a failed load is tried again next time). */
export function preloadApi(api: ApiKind): void {
  void loadProvider(api).catch(() => {});
}

function copyPartial(p: AssistantPartial): AssistantPartial {
  return { ...p, content: p.content.map((b) => ({ ...b })), usage: p.usage ? { ...p.usage } : undefined };
}

/**
 * Streams a reply as a child of `parentId`. Resolves when the entry is written (or, storage full,
 * when the reply is kept on screen to be saved later: then the result's entry is the unsaved one).
 * Only one reply per session per tab; a second call while one runs is ignored (null). Null too when
 * the user pressed Stop before the request went out (nothing is written).
 */
export async function runReply(
  sessionId: SessionId,
  parentId: EntryId,
  opts: ReplyOptions = {},
  deps: ReplyDeps = defaultDeps,
): Promise<ReplyResult | null> {
  if (controllers.has(sessionId)) return null;
  const pending = useStreamStore.getState().replies[sessionId];
  if (pending?.phase === "unsaved") return null;
  const controller = takePendingController(sessionId) ?? new AbortController();
  controllers.set(sessionId, controller);
  const checkpointId = pending?.phase === "preparing" ? pending.checkpointId : newEntryId();
  let keepOnScreen = false;
  try {
    if (controller.signal.aborted) return null;
    const settings = useSettingsStore.getState().settings;
    const read = opts.read ?? (await getSessionPath(sessionId, parentId));
    const target = chatTarget(read?.session, settings);
    const startedAt = deps.now();
    if (isTargetError(target)) {
      if (opts.retryOf)
        return { entry: await retryFailedAgain(sessionId, opts.retryOf, target), target: null, context: null };
      return {
        entry: await writeFailure(sessionId, parentId, checkpointId, target, startedAt),
        target: null,
        context: null,
      };
    }
    const { provider, modelId } = target;
    const built = requestFor(read?.path ?? [], target, opts.built);
    // Continue: ask for the rest of a reply cut off by the output limit (a request, not an entry).
    const context: LlmContext = opts.continues
      ? {
          ...built,
          messages: [...built.messages, { role: "user", content: [{ type: "text", text: CONTINUE_REPLY }] }],
        }
      : built;
    // The bytes of its images and PDFs, read here at the edge (core/ holds only references).
    const attachments = await attachmentDataFor(context, target);

    let partial: AssistantPartial = { content: [], providerId: provider.id, api: provider.api, model: modelId };
    let finalError: MessageError | undefined;
    let aborted = false;
    const publish = createFrameBatcher<AssistantPartial>((p) => setReply(sessionId, (r) => ({ ...r, partial: p })));
    useStreamStore.setState((s) => ({
      replies: {
        ...s.replies,
        [sessionId]: { sessionId, checkpointId, parentId, partial, retry: null, phase: "streaming", saveError: null },
      },
    }));

    const checkpointRow = (): ReplyCheckpoint => ({
      id: checkpointId,
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
    // A failed checkpoint (quota) must not kill the stream: the reply goes on in memory and on
    // screen, saying it is not saved; the next checkpoint tries again.
    const checkpoints = checkpointPace(() =>
      saveCheckpoint(checkpointRow()).then(
        () => setReply(sessionId, (r) => (r.saveError === null ? r : { ...r, saveError: null })),
        (e: unknown) => {
          if (isQuotaError(e)) setReply(sessionId, (r) => ({ ...r, saveError: STORAGE_FULL_TEXT }));
          throw e;
        },
      ),
    );
    await checkpoints.now();

    try {
      for await (const event of deps.stream({
        provider,
        model: modelId,
        context,
        ...requestParams(target, settings),
        signal: controller.signal,
        ...serverCompactionFor(target, settings),
        ...(attachments ? { attachments } : {}),
      })) {
        partial = copyPartial(event.partial);
        switch (event.type) {
          case "start":
          case "text_delta":
          case "thinking_delta":
          // The chat offers no tools yet (issue 28's loop will): a call a model makes anyway is content
          // of the reply like any other, kept in `partial`.
          case "toolcall_start":
          case "toolcall_delta":
          case "toolcall_end":
          case "server_tool":
            checkpoints.changed();
            publish.push(partial);
            break;
          case "retry_wait":
            setReply(sessionId, (r) => ({
              ...r,
              retry: {
                attempt: event.attempt,
                maxAttempts: event.maxAttempts,
                until: deps.now() + event.delayMs,
                message: describeFailure(event.error),
              },
            }));
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
      checkpoints.stop();
      publish.flush();
    }

    const status: MessageStatus = aborted ? "stopped" : finalError ? "error" : "complete";
    if (opts.retryOf && finalError && partial.content.length === 0) {
      await deleteCheckpoint(checkpointId).catch(() => {});
      return { entry: await retryFailedAgain(sessionId, opts.retryOf, finalError), target, context };
    }
    const entry: MessageEntry = {
      id: checkpointId,
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
    // Storage full: the reply stays on screen and in memory, saying so, and is saved when room returns.
    if ((await saveReply(entry, checkpointRow)) === "kept") {
      keepOnScreen = true;
      return { entry, target, context };
    }
    if (partial.compaction)
      await keepServerCompaction(sessionId, entry, partial.compaction, read?.path ?? [], deps.now());
    return { entry, target, context };
  } finally {
    controllers.delete(sessionId);
    if (!keepOnScreen) setReply(sessionId, (r) => (r.phase === "unsaved" ? r : null));
  }
}

/**
 * A Retry that failed before any content again: the failed reply stays the only version (the leaf
 * goes back to it) and the new reason is shown. Returns the failed reply with the new error.
 */
async function retryFailedAgain(
  sessionId: SessionId,
  failed: MessageEntry,
  error: MessageError,
): Promise<MessageEntry> {
  // Back to the failed reply, unless the user has moved on meanwhile.
  const now = await getSessionPath(sessionId, null);
  if (now?.session.leafId === failed.parentId) await moveLeaf(sessionId, failed.id);
  pushNotice("error", `Retry failed: ${describeFailure(error)}`);
  return { ...failed, error };
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
  await saveCheckpoint({
    id,
    sessionId,
    parentId,
    ownerId: pageOwnerId(),
    content: [],
    startedAt: now,
    updatedAt: now,
  });
  try {
    await finalizeCheckpoint(id, entry, { kind: "move-if-leaf-is", expected: parentId, to: id });
    return entry;
  } catch (e) {
    await deleteCheckpoint(id).catch(() => {});
    throw e;
  }
}
