import { entryCost, formatUsd } from "../../core/cost/cost";
import { PRICES_AS_OF } from "../../core/cost/prices";
import type { MessageEntry } from "../../core/session/entries";

/**
 * " · $0.0042" after a reply's usage; nothing without usage or when its model has no price (issue 27:
 * "cost unknown" on every message said nothing new; the chat's total in the meter says it once).
 */
export function MessageCost({ entry }: { entry: MessageEntry }) {
  if (!entry.usage) return null;
  const cost = entryCost(entry);
  if (cost === null) return null;
  return (
    <span className="message-cost" title={`From the provider's reported usage at the prices of ${PRICES_AS_OF}`}>
      {" · "}
      {formatUsd(cost)}
    </span>
  );
}
