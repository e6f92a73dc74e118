import { useEffect, useState } from "react";
import { formatUsd } from "../../core/cost/cost";
import type { CompactionEntry } from "../../core/session/entries";
import {
  type MemoryCheckEstimate,
  memoryCheckEstimateFor,
  runMemoryCheck,
  useMemoryCheckStore,
} from "../../state/maintenance/memory-check";
import { setPinned } from "../../state/sessions/pins";
import { scrollToEntry } from "./scroll-to-entry";
import "./memory-check.css";

const money = (usd: number | null): string => (usd === null ? "no price known" : `≈ ${formatUsd(usd)}`);

/**
 * "Check memory" on a compaction card (issue 29): the estimate first, the check only on "Run the
 * check", then "N of M recalled" and the "Memory check" table — question, answer, a link to the
 * folded source, "Keep this fact" (pins the source). Loaded as a chunk of its own.
 */
export function MemoryCheckPanel({ entry, onClose }: { entry: CompactionEntry; onClose: () => void }) {
  const state = useMemoryCheckStore((s) => s.checks[entry.id]);
  const [estimate, setEstimate] = useState<MemoryCheckEstimate | string | null>(null);
  const [kept, setKept] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    let live = true;
    memoryCheckEstimateFor(entry.sessionId, entry.id).then(
      (e) => live && setEstimate(e),
      (e: unknown) => live && setEstimate(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [entry.sessionId, entry.id]);

  const run = () => void runMemoryCheck(entry.sessionId, entry.id);
  return (
    <section className="memory-check" aria-label="Check memory">
      {typeof estimate === "string" ? (
        <p role="alert">{estimate}</p>
      ) : estimate === null ? (
        <p className="muted small">Estimating the cost…</p>
      ) : (
        <p className="small memory-estimate">
          Asks the summary model for up to 5 questions about what this compaction folded (replies and tool output), then
          the chat model answers each from the compacted context. At most {estimate.requests} requests, about{" "}
          {estimate.tokens.toLocaleString()} tokens — {money(estimate.usd)}. Nothing is added to the chat.
        </p>
      )}
      {state?.status === "running" && (
        <p role="status" className="small">
          {state.step}
        </p>
      )}
      {state?.status === "failed" && (
        <p role="alert" className="small">
          Memory check failed: {state.message}
        </p>
      )}
      {state?.status === "done" && (
        <>
          <p className="memory-score" role="status">
            <strong>
              {state.result.results.filter((r) => r.recalled).length} of {state.result.results.length} recalled
            </strong>{" "}
            <span className="muted small">
              · {state.result.requests} requests, {money(state.result.usd)}
            </span>
          </p>
          {state.result.unrecorded && (
            <p role="alert" className="small">
              {state.result.unrecorded}
            </p>
          )}
          <table className="memory-table" aria-label="Memory check">
            <thead>
              <tr>
                <th scope="col">Question</th>
                <th scope="col">Answer</th>
                <th scope="col">Source</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {state.result.results.map((r) => (
                <tr key={`${r.probe.source.entryId}-${r.probe.span}`} className={r.recalled ? "recalled" : "lost"}>
                  <td>{r.probe.question}</td>
                  <td>
                    <span className={`badge ${r.recalled ? "kept" : "folded"}`}>
                      {r.recalled ? "recalled" : "not recalled"}
                    </span>{" "}
                    {r.answer}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="link-button"
                      title="Show the folded message this fact is from"
                      onClick={() => scrollToEntry(r.probe.source.entryId)}
                    >
                      “{r.probe.span}”
                    </button>
                  </td>
                  <td>
                    {kept.has(r.probe.source.entryId) ? (
                      <span className="muted small">kept</span>
                    ) : (
                      <button
                        type="button"
                        title="Pin the source message: carried word for word into every later compaction"
                        onClick={() =>
                          void setPinned(entry.sessionId, r.probe.source.entryId, true).then((res) => {
                            if (res.kind === "done") setKept((k) => new Set([...k, r.probe.source.entryId]));
                          })
                        }
                      >
                        Keep this fact
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <div className="memory-actions">
        <button
          type="button"
          className="primary"
          disabled={state?.status === "running" || typeof estimate !== "object" || estimate === null}
          onClick={run}
        >
          {state?.status === "done" ? "Check again" : "Run the check"}
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </section>
  );
}
