/**
 * How each chat's last tool loop ended on this page (issue 28), for the "Continue" offer's words: at
 * the step limit, stopped, failed. A reload forgets it; the offer then reads the tree alone.
 */
import type { SessionId } from "../../core/session/ids";
import { defineStore } from "../app/store-registry";

export type LoopEnd =
  | { readonly kind: "limit"; readonly steps: number }
  | { readonly kind: "stopped" }
  /** Compacted between two steps with auto-continue off. */
  | { readonly kind: "compacted" };

export const useToolLoopStore = defineStore<{ ended: Record<string, LoopEnd> }>(() => ({ ended: {} }));

export function setLoopEnd(sessionId: SessionId, end: LoopEnd | null): void {
  useToolLoopStore.setState((s) => {
    const { [sessionId]: _old, ...rest } = s.ended;
    return { ended: end ? { ...rest, [sessionId]: end } : rest };
  });
}
