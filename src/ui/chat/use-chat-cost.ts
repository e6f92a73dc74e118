import { useMemo } from "react";
import { describeTotal, totalCost } from "../../core/cost/cost";
import type { SessionView } from "../hooks";

/** What the chat's replies cost, every branch included ("$0.42", "cost unknown"), or "" before any usage. */
export function useChatCost(view: SessionView): string {
  return useMemo(() => {
    const total = totalCost(view.index.byId.values());
    return total.priced + total.unknown === 0 ? "" : describeTotal(total);
  }, [view.index]);
}
