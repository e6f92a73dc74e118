import { type ReactNode, useDeferredValue, useEffect, useId, useState } from "react";
import { openSearchResult, searchChats } from "../../state/search/search";
import "./chat-search.css";
import { formatTime } from "../../core/time";
import type { ChatSearchAnswer, ChatSearchResult } from "../../db/search/search-types";
import { CHAT_SEARCH_ID } from "../dom-ids";

/** While the index is still being built, ask again this often (ms) so results fill in. */
const INDEXING_POLL_MS = 700;
/** While the saved index loads (a few seconds at most), ask again sooner. */
const LOADING_POLL_MS = 300;

/**
 * "Search chats": the search box and, while it holds a query, the "Search results" listbox in
 * place of the session list (`children`). Focus stays in the box: ArrowDown/ArrowUp move through
 * the results (aria-activedescendant), Enter opens the active one (or the first), Escape clears.
 * The search itself runs in the search worker; an answer to an older query is never shown.
 */
export function ChatSearch({ onNavigate, children }: { onNavigate: () => void; children: ReactNode }) {
  const [query, setQuery] = useState("");
  const deferred = useDeferredValue(query.trim());
  const answer = useSearchAnswer(deferred);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const results = answer?.query === deferred ? answer.results : [];
  // Other results start with nothing chosen; the same results asked again (while the index loads
  // or catches up) keep the choice the arrows made.
  const shownKeys = results.map(resultKey).join(" ");
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when what is listed changes
  useEffect(() => setActive(-1), [shownKeys]);

  const open = (r: ChatSearchResult) => {
    void openSearchResult(r.sessionId, r.entryId);
    onNavigate();
  };
  const optionId = (i: number) => `${listId}-option-${i}`;

  return (
    <>
      <input
        id={CHAT_SEARCH_ID}
        className="search"
        type="search"
        placeholder="Search chats"
        aria-label="Search chats"
        aria-controls={deferred ? listId : undefined}
        aria-activedescendant={deferred && active >= 0 ? optionId(active) : undefined}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            if (query) e.preventDefault();
            setQuery("");
          } else if (e.key === "ArrowDown" && results.length) {
            e.preventDefault();
            setActive((i) => Math.min(results.length - 1, i + 1));
          } else if (e.key === "ArrowUp" && results.length) {
            e.preventDefault();
            setActive((i) => Math.max(0, i - 1));
          } else if (e.key === "Enter") {
            const chosen = results[Math.max(0, active)];
            if (chosen) {
              e.preventDefault();
              open(chosen);
            }
          }
        }}
      />
      {deferred ? (
        <SearchResults
          id={listId}
          answer={answer?.query === deferred ? answer : null}
          active={active}
          optionId={optionId}
          onChoose={open}
        />
      ) : (
        children
      )}
    </>
  );
}

/** The latest answer for `query` (null until the first arrives); asked again while indexing. */
function useSearchAnswer(query: string): ChatSearchAnswer | null {
  const [answer, setAnswer] = useState<ChatSearchAnswer | null>(null);
  const [poll, setPoll] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `poll` asks again while indexing
  useEffect(() => {
    if (!query) {
      setAnswer(null);
      return;
    }
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    void searchChats(query).then((a) => {
      if (!live || !a) return;
      setAnswer(a);
      if (a.indexing || a.loading)
        timer = setTimeout(() => setPoll((n) => n + 1), a.loading ? LOADING_POLL_MS : INDEXING_POLL_MS);
    });
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query, poll]);
  return answer;
}

const resultKey = (r: ChatSearchResult) => r.entryId ?? `title-${r.sessionId}`;

const KIND_LABEL: Record<ChatSearchResult["kind"], string> = {
  message: "Message",
  compaction: "Compaction summary",
  branch_summary: "Branch summary",
  handoff: "Handoff",
  model_change: "Model change",
  thinking_level_change: "Thinking change",
  custom: "Extension data",
  context_note: "Context note",
  command: "Command",
  title: "Chat title",
};

function kindLabel(r: ChatSearchResult): string {
  if (r.kind !== "message") return KIND_LABEL[r.kind];
  return r.role === "user" ? "You" : r.role === "tool" ? "Tool" : "Assistant";
}

function SearchResults({
  id,
  answer,
  active,
  optionId,
  onChoose,
}: {
  id: string;
  answer: ChatSearchAnswer | null;
  active: number;
  optionId: (i: number) => string;
  onChoose: (r: ChatSearchResult) => void;
}) {
  const results = answer?.results ?? [];
  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView({ block: "nearest" });
  }, [active, optionId]);
  return (
    // data-query: which query the shown answer is for (the search bench waits on it).
    <div className="search-results" data-query={answer?.query}>
      {/* Seen: every step of the count and the loading. Heard: "Searching…", then the result once,
          not a new percentage every few hundred milliseconds. */}
      <p className="search-status muted">{searchStatus(answer)}</p>
      <p className="sr-only" aria-live="polite">
        {answer && !answer.loading && !answer.indexing ? searchStatus(answer) : "Searching…"}
      </p>
      <div className="session-scroll">
        <div id={id} role="listbox" aria-label="Search results" className="search-result-list">
          {results.map((r, i) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard drives the list from the search box (aria-activedescendant)
            <div
              key={resultKey(r)}
              id={optionId(i)}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              className={`search-result ${i === active ? "active" : ""}`}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => onChoose(r)}
            >
              <span className="search-result-head">
                <span className="session-title">{r.title}</span>
                <span className="session-date">{formatTime(r.at, "shortDate")}</span>
              </span>
              <span className="search-result-kind">{kindLabel(r)}</span>
              <span className="search-snippet">
                {r.snippet.map((part, j) =>
                  // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never reorder
                  part.hit ? <mark key={j}>{part.text}</mark> : <span key={j}>{part.text}</span>,
                )}
              </span>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

function searchStatus(answer: ChatSearchAnswer | null): string {
  if (!answer) return "Searching…";
  if (answer.failed) return answer.failed;
  const progress = answer.indexing;
  const loading = answer.loading;
  const indexing = loading
    ? ` Searching… (still loading ${loading.total ? Math.floor((100 * loading.done) / loading.total) : 0}%)`
    : !progress
      ? ""
      : progress.chatsTotal === 0
        ? " Indexing…"
        : ` Indexing ${progress.chatsDone.toLocaleString()} of ${progress.chatsTotal.toLocaleString()} chats…`;
  if (answer.total === 0) return progress || loading ? `Nothing found yet.${indexing}` : "No chats match.";
  const shown = answer.results.length < answer.total ? `, best ${answer.results.length} shown` : "";
  const soFar = loading ? " so far" : "";
  return `${answer.total.toLocaleString()} ${answer.total === 1 ? "match" : "matches"}${soFar}${shown}.${indexing}`;
}
