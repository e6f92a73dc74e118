/**
 * One handoff document in the worker (DESIGN §5): the live context plus the handoff message
 * (core/handoff `prepareHandoff`) to the chat model, with the chat's thinking setting. Never throws
 * for a provider failure: it resolves `failed` with the message, or `cancelled` after an abort.
 */
import { finishHandoff } from "../core/handoff/finish";
import { prepareHandoff } from "../core/handoff/prepare";
import { asMessageError } from "../providers/classify-error";
import type { HandoffDocumentProgress, HandoffJob, HandoffJobOutcome } from "./api";
import { scaledCount } from "./counting";
import type { JobContext } from "./deps";
import { notify } from "./notify";
import { streamText } from "./stream-text";

export async function handoffJob(
  { deps, countFor }: JobContext,
  job: HandoffJob,
  onProgress: (p: HandoffDocumentProgress) => void,
  signal: AbortSignal,
): Promise<HandoffJobOutcome> {
  const progress = (p: HandoffDocumentProgress) => notify(onProgress, p);
  try {
    progress({ phase: "preparing" });
    const count = scaledCount(await countFor(job.encoding), job.countScale);
    const prepared = prepareHandoff(job.path, {
      ...(job.prompt !== undefined ? { prompt: job.prompt } : {}),
      systemPrompt: job.systemPrompt,
      targetApi: job.provider.api,
      focus: job.focus,
      contextWindow: job.contextWindow,
      maxOutput: job.maxOutput,
      reserveTokens: job.reserveTokens,
      countTokens: count,
    });
    if (prepared.kind === "nothing_to_hand_off") return prepared;
    if (prepared.kind === "too_long") return { kind: "too_long", reason: prepared.reason };
    if (signal.aborted) return { kind: "cancelled" };
    const { plan } = prepared;
    progress({ phase: "writing", text: "" });
    const text = await streamText(
      deps,
      {
        provider: job.provider,
        model: job.model,
        context: plan.request.context,
        maxOutputTokens: plan.request.maxOutputTokens,
        thinking: job.thinking,
        signal,
      },
      (t) => progress({ phase: "writing", text: t }),
    );
    if (signal.aborted) return { kind: "cancelled" };
    const finished = finishHandoff(text);
    return finished.kind === "document"
      ? { kind: "document", document: finished.document, fromEntryId: plan.fromEntryId }
      : { kind: "empty", fromEntryId: plan.fromEntryId };
  } catch (e) {
    const error = asMessageError(e, job.provider.api);
    if (signal.aborted || error.kind === "aborted") return { kind: "cancelled" };
    return { kind: "failed", error: error.message };
  }
}
