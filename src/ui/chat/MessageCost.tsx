import { entryCost, formatUsd } from "../../core/cost/cost";
import { PRICES_AS_OF } from "../../core/cost/prices";
import type { MessageEntry } from "../../core/session/entries";

/** " · $0.0042" after a reply's usage, or " · cost unknown" when its model has no price; nothing without usage. */
export function MessageCost({ entry }: { entry: MessageEntry }) {
  if (!entry.usage) return null;
  const cost = entryCost(entry);
  return (
    <span
      className="message-cost"
      title={
        cost === null
          ? `No published price for ${entry.model ?? "this model"} in Grove's price table (${PRICES_AS_OF})`
          : `From the provider's reported usage at the prices of ${PRICES_AS_OF}`
      }
    >
      {" · "}
      {cost === null ? "cost unknown" : formatUsd(cost)}
    </span>
  );
}
