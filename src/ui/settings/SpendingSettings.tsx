import { useEffect, useState } from "react";
import type { MonthCost } from "../../core/cost/monthly";
import { PRICES_AS_OF } from "../../core/cost/prices";
import { recentSpending } from "../../state/data/spending";
import { SpendingTable } from "../common/SpendingTable";

/** Settings › Spending: what replies, compaction and memory checks cost per month, from the providers' reported usage. */
export function SpendingSettings() {
  const [months, setMonths] = useState<MonthCost[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    recentSpending().then(
      (m) => live && setMonths(m),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);
  return (
    <section aria-labelledby="spending-title">
      <h3 id="spending-title">Spending</h3>
      <p className="muted small">
        From the usage each provider reported, at published prices ({PRICES_AS_OF}). Compaction is what the summaries,
        branch summaries and handoff documents cost; memory checks, what "Check memory" on compaction cards cost. Models
        without a published price count as "unknown cost", never as a guess. Generated chat titles are not included.
      </p>
      {failed ? (
        <p className="muted small">The spending could not be read.</p>
      ) : months === null ? (
        <p className="muted small">Adding up…</p>
      ) : (
        <SpendingTable months={months} label="Spending by month" />
      )}
    </section>
  );
}
