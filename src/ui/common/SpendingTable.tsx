import { describeTotal } from "../../core/cost/cost";
import { emptyMonth, type MonthCost, monthOf } from "../../core/cost/monthly";
import "./spending-table.css";

/**
 * Spending per month as a table: chat replies, and apart from them compaction (summaries,
 * branch summaries, handoff documents) and memory checks ("Check memory" on compaction cards).
 * This month is always a row, "$0" when nothing was spent.
 */
export function SpendingTable({ months, label }: { months: readonly MonthCost[]; label: string }) {
  const thisMonth = monthOf(Date.now());
  const rows = months.some((m) => m.month === thisMonth) ? months : [emptyMonth(thisMonth), ...months];
  return (
    <table className="spending" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Month</th>
          <th scope="col">Chat replies</th>
          <th scope="col">Compaction</th>
          <th scope="col">Memory checks</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ month, replies, compaction, memoryChecks }) => (
          <tr key={month}>
            <th scope="row">{month === thisMonth ? `This month (${month})` : month}</th>
            <td>{describeTotal(replies)}</td>
            <td>{describeTotal(compaction, "request")}</td>
            <td>{describeTotal(memoryChecks, "request")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
