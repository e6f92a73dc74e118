import { useMemo } from "react";
import { describeTotal } from "../../core/cost/cost";
import type { SessionView } from "../hooks";

/**
 * What the chat's replies cost, every branch included ("$0.42", "cost unknown"), or "" before any
 * usage and while the chat opens (only the end of its path is read: a part would be a wrong sum).
 */
export function useChatCost(view: SessionView): string {
  const { complete, cost } = view;
  return useMemo(() => {
    if (!complete) return "";
    return cost.priced + cost.unknown === 0 ? "" : describeTotal(cost);
  }, [cost, complete]);
}
