/**
 * The tool calls waiting for the user's answer (issue 28: "Allow tool call?"), first come first
 * asked: the loop asks one call at a time per chat, and chats may ask at once. Only the model's calls
 * are ever put here (core/agent); a tool's result never is.
 */
import type { SessionId } from "../../core/session/ids";
import { defineStore } from "../app/store-registry";

export type ApprovalAnswer = "once" | "chat" | "always" | "deny";

export type ApprovalRequest = {
  readonly id: number;
  readonly sessionId: SessionId;
  /** The server's name as the user knows it (Settings › Tools). */
  readonly server: string;
  /** The tool's own name on that server. */
  readonly tool: string;
  readonly args: unknown;
};

export const useApprovalStore = defineStore<{ queue: readonly ApprovalRequest[] }>(() => ({ queue: [] }));

const waiting = new Map<number, (answer: ApprovalAnswer) => void>();
let nextId = 1;

/** Asks the user about one call; Stop (the signal) takes the question away and answers "deny". */
export function askApproval(request: Omit<ApprovalRequest, "id">, signal: AbortSignal): Promise<ApprovalAnswer> {
  const id = nextId++;
  return new Promise((resolve) => {
    const done = (answer: ApprovalAnswer) => {
      waiting.delete(id);
      signal.removeEventListener("abort", onAbort);
      useApprovalStore.setState((s) => ({ queue: s.queue.filter((r) => r.id !== id) }));
      resolve(answer);
    };
    const onAbort = () => done("deny");
    if (signal.aborted) return resolve("deny");
    signal.addEventListener("abort", onAbort);
    waiting.set(id, done);
    useApprovalStore.setState((s) => ({ queue: [...s.queue, { ...request, id }] }));
  });
}

/** The user's answer to request `id` (the dialog's buttons). */
export function answerApproval(id: number, answer: ApprovalAnswer): void {
  waiting.get(id)?.(answer);
}
