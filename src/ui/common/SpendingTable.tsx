import { describeTotal, NO_COST } from "../../core/cost/cost";
import { type MonthCost, monthOf } from "../../core/cost/monthly";
import "./spending-table.css";

/**
 * Spending per month as a table: chat replies, and apart from them compaction (summaries,
 * branch summaries, handoff documents). This month is always a row, "$0" when nothing was spent.
 */
export function SpendingTable({ months, label }: { months: readonly MonthCost[]; label: string }) {
  const thisMonth = monthOf(Date.now());
  const rows = months.some((m) => m.month === thisMonth)
    ? months
    : [{ month: thisMonth, replies: NO_COST, compaction: NO_COST }, ...months];
  return (
    <table className="spending" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Month</th>
          <th scope="col">Chat replies</th>
          <th scope="col">Compaction</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ month, replies, compaction }) => (
          <tr key={month}>
            <th scope="row">{month === thisMonth ? `This month (${month})` : month}</th>
            <td>{describeTotal(replies)}</td>
            <td>{describeTotal(compaction, "request")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
