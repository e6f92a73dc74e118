import { type CSSProperties, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { buildGraphModel, type GraphModel, withSearch } from "../../core/graph/model";
import { GRAPH_FILTERS, type GraphFilter } from "../../core/graph/node";
import type { SessionId } from "../../core/session/ids";
import { useUiStore } from "../../state/app/ui-store";
import type { SessionView } from "../hooks";
import { GraphView, type GraphViewHandle } from "./GraphView";
import { LineageView } from "./LineageView";
import { count } from "./names";
import { type GraphData, useGraphData } from "./use-graph-data";
import "./graph.css";

/** Panel width limits and default, px. */
const MIN_WIDTH = 300;
const DEFAULT_WIDTH = 480;
/** Room the chat keeps beside a resized panel, px. */
const CHAT_MIN_WIDTH = 380;
const KEY_RESIZE_STEP = 24;

const FILTER_NAME: Readonly<Record<GraphFilter, string>> = {
  all: "Everything",
  "no-summaries": "No summaries",
  "user-only": "Your messages",
  labelled: "Labelled only",
};

/** Marks for the bench (bench/graph.mjs reads `grove:graph-model`). */
const MEASURE = "grove:graph-model";

function useModel(
  data: GraphData,
  filter: GraphFilter,
  collapsed: ReadonlySet<string>,
  expandedRuns: ReadonlySet<string>,
  search: string,
): GraphModel {
  const { view, labels, childSessions, parentSession } = data;
  const leafId = view.session?.leafId ?? null;
  const base = useMemo(() => {
    const t0 = performance.now();
    const model = buildGraphModel(view.index.byId.values(), {
      index: view.index,
      leafId,
      labels,
      filter,
      collapsed,
      expandedRuns,
      childSessions,
      parentSession,
    });
    performance.clearMeasures(MEASURE);
    performance.measure(MEASURE, { start: t0, detail: { nodes: model.nodes.length } });
    return model;
  }, [view.index, leafId, labels, filter, collapsed, expandedRuns, childSessions, parentSession]);
  return useMemo(() => (search.trim() ? withSearch(base, search) : base), [base, search]);
}

function maxWidth(): number {
  return Math.max(MIN_WIDTH, window.innerWidth - CHAT_MIN_WIDTH - 272);
}

/**
 * The history graph panel (DESIGN §6): a region beside the chat, resizable from its left edge,
 * with a full-screen mode. Its toolbar searches and filters the graph, and switches between the
 * session's tree and the "Session lineage" of chats linked by handoff.
 */
export function HistoryGraph({ view }: { view: SessionView }) {
  const sessionId = useUiStore((s) => s.sessionId);
  const [fullScreen, setFullScreen] = useState(false);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  const [mode, setMode] = useState<"tree" | "lineage">("tree");
  const close = () => useUiStore.setState({ graphOpen: false });

  return (
    <section
      className={`graph-panel${fullScreen ? " full" : ""}`}
      aria-label="History graph"
      style={{ "--graph-width": `${width}px` } as CSSProperties}
      onKeyDown={(e) => {
        if (e.key === "Escape" && fullScreen && !e.defaultPrevented) {
          e.preventDefault();
          setFullScreen(false);
        }
      }}
    >
      {!fullScreen && <ResizeHandle width={width} onWidth={setWidth} />}
      <header className="graph-head">
        <h2 className="graph-title">History</h2>
        <fieldset className="graph-modes">
          <legend className="sr-only">View</legend>
          <button type="button" aria-pressed={mode === "tree"} onClick={() => setMode("tree")}>
            Tree
          </button>
          <button type="button" aria-pressed={mode === "lineage"} onClick={() => setMode("lineage")}>
            Session lineage
          </button>
        </fieldset>
        <button
          type="button"
          className="icon-button graph-head-button push-left"
          aria-pressed={fullScreen}
          title={fullScreen ? "Back beside the chat (Esc)" : "Full screen"}
          onClick={() => setFullScreen((f) => !f)}
        >
          <span aria-hidden="true">{fullScreen ? "⤡" : "⤢"}</span>
          <span className="sr-only">Full screen</span>
        </button>
        <button
          type="button"
          className="icon-button graph-head-button"
          aria-label="Close history graph"
          title="Close"
          onClick={close}
        >
          ×
        </button>
      </header>
      {sessionId === null ? (
        <p className="graph-empty">Start a chat: its history grows here as a tree, one node per message.</p>
      ) : mode === "lineage" ? (
        <LineageView sessionId={sessionId} />
      ) : (
        <SessionGraph key={sessionId} sessionId={sessionId} view={view} />
      )}
    </section>
  );
}

function SessionGraph({ sessionId, view }: { sessionId: SessionId; view: SessionView }) {
  const data = useGraphData(sessionId, view);
  const [filter, setFilter] = useState<GraphFilter>("all");
  const [search, setSearch] = useState("");
  const deferredSearch = useDeferredValue(search);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const [expandedRuns, setExpandedRuns] = useState<ReadonlySet<string>>(() => new Set());
  const model = useModel(data, filter, collapsed, expandedRuns, deferredSearch);
  const graph = useRef<GraphViewHandle>(null);
  const [cursor, setCursor] = useState(-1);

  // A new search (or filter) starts again from its first match.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the query or the filter changes
  useEffect(() => setCursor(-1), [deferredSearch, filter]);

  const toggleCollapse = useCallback((key: string) => {
    // A collapsed run is folded by the graph itself: "toggling" it expands it.
    (key.startsWith("run:") ? setExpandedRuns : setCollapsed)((set) => {
      const next = new Set(set);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }, []);

  const goToMatch = (step: 1 | -1) => {
    const n = model.matches.length;
    if (n === 0) return;
    const next = cursor < 0 ? (step === 1 ? 0 : n - 1) : (cursor + step + n) % n;
    setCursor(next);
    const i = model.matches[next]!;
    graph.current?.select(model.nodes[i]!.key);
  };

  const searching = deferredSearch.trim() !== "";
  const matchText = !searching
    ? ""
    : model.matches.length === 0
      ? "No matches"
      : cursor >= 0
        ? `${cursor + 1} of ${count(model.matches.length)}`
        : `${count(model.matches.length)} ${model.matches.length === 1 ? "match" : "matches"}`;

  // The graph is the whole tree: while the chat opens only the end of its path is read (hooks.ts).
  if (!data.view.loaded || !data.view.complete) {
    return (
      <p className="graph-loading muted" aria-busy="true">
        Reading the conversation…
      </p>
    );
  }
  if (!data.view.session) return <p className="graph-empty">This chat was not found.</p>;

  return (
    <>
      <div className="graph-tools">
        <div className="graph-search">
          <input
            type="search"
            aria-label="Search graph"
            placeholder="Search labels and messages"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                goToMatch(e.shiftKey ? -1 : 1);
              } else if (e.key === "Escape" && search) {
                e.preventDefault();
                setSearch("");
              }
            }}
          />
          {searching && (
            <>
              <output className="graph-match-count" aria-live="polite">
                {matchText}
              </output>
              <button
                type="button"
                className="icon-button"
                aria-label="Previous match"
                disabled={model.matches.length === 0}
                onClick={() => goToMatch(-1)}
              >
                ↑
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label="Next match"
                disabled={model.matches.length === 0}
                onClick={() => goToMatch(1)}
              >
                ↓
              </button>
            </>
          )}
        </div>
        <label className="graph-filter">
          <span className="sr-only">Filter</span>
          <select value={filter} onChange={(e) => setFilter(e.target.value as GraphFilter)} aria-label="Filter">
            {GRAPH_FILTERS.map((f) => (
              <option key={f} value={f}>
                {FILTER_NAME[f]}
              </option>
            ))}
          </select>
        </label>
        <span className="graph-count muted" title="Nodes shown">
          {count(model.nodes.length)} {model.nodes.length === 1 ? "node" : "nodes"}
        </span>
      </div>
      <GraphView
        ref={graph}
        model={model}
        index={data.view.index}
        sessionId={sessionId}
        onToggleCollapse={toggleCollapse}
      />
    </>
  );
}

/** The panel's left edge: drag (or Left/Right on it) to resize. */
function ResizeHandle({ width, onWidth }: { width: number; onWidth: (w: number) => void }) {
  const start = useRef<{ x: number; width: number } | null>(null);
  const clamp = (w: number) => Math.round(Math.min(maxWidth(), Math.max(MIN_WIDTH, w)));
  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable splitter (role=separator with a value) has no HTML element
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize history graph"
      aria-valuenow={width}
      aria-valuemin={MIN_WIDTH}
      aria-valuemax={maxWidth()}
      tabIndex={0}
      className="graph-resize"
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        start.current = { x: e.clientX, width };
      }}
      onPointerMove={(e) => {
        if (start.current) onWidth(clamp(start.current.width + start.current.x - e.clientX));
      }}
      onPointerUp={() => {
        start.current = null;
      }}
      onKeyDown={(e) => {
        if (e.key === "ArrowLeft") onWidth(clamp(width + KEY_RESIZE_STEP));
        else if (e.key === "ArrowRight") onWidth(clamp(width - KEY_RESIZE_STEP));
        else return;
        e.preventDefault();
      }}
    />
  );
}
