/**
 * One job's summaries through the remote summarizer, when one is set (Settings › Compaction
 * "Remote summarizer URL"): `attempt` returns its summary, or null when the model must write it
 * (not set, or it failed: then the rest of the job uses the model too, and the user is told once).
 * An abort is rethrown, never a fallback.
 */
import { errorText } from "../core/session/message-error";
import { abortedError } from "../providers/classify-error";
import { remoteSummarizerSet } from "../providers/remote-summarizer";
import type { JobNotices, SummarizerSpec } from "./api";
import type { WorkerDeps } from "./deps";
import { notify } from "./notify";

export type RemoteSummaries = {
  attempt(
    r: { system: string; prompt: string },
    signal: AbortSignal,
    onText: ((text: string) => void) | undefined,
  ): Promise<string | null>;
  /** The outcome with the job's notices ("Remote summarizer failed: …; used <model> instead."). */
  withNotices<T extends object>(outcome: T): T & JobNotices;
  /**
   * The entry's `model` (who wrote it, shown on the card): the remote summarizer when it wrote
   * every summary of the job, else the model.
   */
  author(): string;
};

export function remoteSummaries(spec: SummarizerSpec, remoteSummarize: WorkerDeps["remoteSummarize"]): RemoteSummaries {
  const notices: string[] = [];
  let failed = false;
  let wrote = 0;
  return {
    async attempt(r, signal, onText) {
      if (!remoteSummarizerSet(spec.remote) || failed) return null;
      try {
        const summary = await remoteSummarize(spec.remote, { systemPrompt: r.system, prompt: r.prompt }, signal);
        if (onText) notify(onText, summary);
        wrote += 1;
        return summary;
      } catch (e) {
        if (signal.aborted) throw abortedError();
        failed = true;
        notices.push(`Remote summarizer failed: ${errorText(e).replace(/\.$/, "")}; used ${spec.model} instead.`);
        return null;
      }
    },
    withNotices(outcome) {
      return notices.length > 0 ? { ...outcome, notices: [...notices] } : outcome;
    },
    author() {
      if (wrote === 0 || failed || !spec.remote) return spec.model;
      return `remote summarizer (${new URL(spec.remote.url.trim()).host})`;
    },
  };
}
