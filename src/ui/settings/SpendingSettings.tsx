import { useEffect, useState } from "react";
import { describeTotal } from "../../core/cost/cost";
import type { MonthCost } from "../../core/cost/monthly";
import { monthOf } from "../../core/cost/monthly";
import { PRICES_AS_OF } from "../../core/cost/prices";
import { recentSpending } from "../../state/data/spending";

/** Settings › Spending: what replies cost per month, from the providers' reported usage. */
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
  const thisMonth = monthOf(Date.now());
  return (
    <section aria-labelledby="spending-title">
      <h3 id="spending-title">Spending</h3>
      <p className="muted small">
        From the usage each provider reported for its replies, at published prices ({PRICES_AS_OF}). Models without a
        published price count as "unknown cost", never as a guess. Side requests are not included: summaries made for
        compaction and generated chat titles.
      </p>
      {failed ? (
        <p className="muted small">The spending could not be read.</p>
      ) : months === null ? (
        <p className="muted small">Adding up…</p>
      ) : (
        <dl className="spending">
          {(months.some((m) => m.month === thisMonth) ? months : [{ month: thisMonth, total: null }, ...months]).map(
            ({ month, total }) => (
              <div key={month}>
                <dt>{month === thisMonth ? `This month (${month})` : month}</dt>
                <dd>{total ? describeTotal(total) : "$0"}</dd>
              </div>
            ),
          )}
        </dl>
      )}
    </section>
  );
}
