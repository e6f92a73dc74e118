import { useState } from "react";
import type { Citation, Entry, ServerToolBlock, ToolCallBlock } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { CodeFiles } from "./CodeFiles";
import type { ShownResult } from "./display-rows";
import { PrunedMark } from "./PrunedMark";
import { formatToolArgs, shownToolName } from "./tool-step-text";
import "./tool-steps.css";

/** Only web addresses become links: a source is the provider's data, never `javascript:`. */
function safeHref(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
}

function SourceLink({ source }: { source: Citation }) {
  const href = safeHref(source.url);
  const title = source.title?.trim() || source.url;
  return href ? (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {title}
    </a>
  ) : (
    <span>{title}</span>
  );
}

/** The sources a reply's text cites (web search), as links with their titles. */
export function Citations({ citations }: { citations: readonly Citation[] }) {
  const unique = citations.filter((c, i) => citations.findIndex((d) => d.url === c.url) === i);
  if (unique.length === 0) return null;
  return (
    <ul className="citations" aria-label="Sources">
      {unique.map((c) => (
        <li key={c.url}>
          <SourceLink source={c} />
        </li>
      ))}
    </ul>
  );
}

/**
 * One tool step: the model's call and the tool's answer, folded (a `group` named "Tool call: <tool>",
 * collapsed by default). Arguments and result are plain text, whatever they hold. A folded step's body
 * is not rendered: a loop that reads fifty 40 kB files kept 2 MB of hidden text in the page, which
 * every style pass, layout of a new row and DOM walk went through (issue 28's bench).
 */
export function ToolCallStep({
  call,
  result,
  running,
}: {
  call: ToolCallBlock;
  result: ShownResult | undefined;
  /** The loop is still going: a call without a result is waiting or running, not abandoned. */
  running: boolean;
}) {
  const name = shownToolName(call.name);
  const state = result ? (result.block.isError ? "error" : "done") : running ? "running…" : "no result";
  const [open, setOpen] = useState(false);
  return (
    <details
      className={`tool-step${result?.block.isError ? " tool-error" : ""}`}
      aria-label={`Tool call: ${name}`}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>
        <span className="tool-step-name">Tool call: {name}</span>
        <span className="tool-step-state muted">{state}</span>
        {result?.pruned !== undefined && <PrunedMark tokens={result.pruned} />}
      </summary>
      {open && (
        <div className="tool-step-body">
          <p className="tool-step-label">Arguments</p>
          <pre className="tool-step-args">{formatToolArgs(call.args)}</pre>
          <p className="tool-step-label">{result?.block.isError ? "Error" : "Result"}</p>
          {result ? (
            <pre className="tool-step-result">{result.block.text === "" ? "(no output)" : result.block.text}</pre>
          ) : (
            <p className="muted small">{running ? "Waiting for the tool…" : "No result was recorded."}</p>
          )}
          {result?.block.originalChars !== undefined && (
            <p className="muted small">
              Stored cut to {result.block.text.length.toLocaleString()} of {result.block.originalChars.toLocaleString()}{" "}
              characters.
            </p>
          )}
        </div>
      )}
    </details>
  );
}

/**
 * A provider-run tool (web search, code execution, an MCP server the provider called): use and result
 * together; under a code execution, the files it produced (`path` says which are stored).
 */
export function ServerToolStep({
  use,
  result,
  sessionId,
  path,
}: {
  use: ServerToolBlock;
  result: ServerToolBlock | undefined;
  sessionId: SessionId;
  path: readonly Entry[];
}) {
  const output = result?.output ?? (use.part === "item" ? use.output : undefined);
  const sources = result?.sources ?? use.sources ?? [];
  const isError = result?.isError ?? use.isError ?? false;
  const input = use.input;
  const code =
    use.tool === "code_execution" && typeof input === "object" && input !== null
      ? ((input as Record<string, unknown>).code ?? (input as Record<string, unknown>).command)
      : undefined;
  const query =
    use.tool === "web_search" && typeof input === "object" && input !== null
      ? (input as Record<string, unknown>).query
      : undefined;
  return (
    <>
      <details className={`tool-step server-tool${isError ? " tool-error" : ""}`} aria-label={`Tool call: ${use.name}`}>
        <summary>
          <span className="tool-step-name">Tool call: {use.name}</span>
          {use.server && <span className="muted"> on {use.server}</span>}
          <span className="tool-step-state muted">
            {isError ? "error" : output !== undefined || sources.length ? "done" : ""}
          </span>
        </summary>
        <div className="tool-step-body">
          {typeof query === "string" ? (
            <p>
              Searched for <q>{query}</q>
            </p>
          ) : typeof code === "string" ? (
            <>
              <p className="tool-step-label">Code</p>
              <pre className="tool-step-args">
                <code>{code}</code>
              </pre>
            </>
          ) : input !== undefined ? (
            <>
              <p className="tool-step-label">Arguments</p>
              <pre className="tool-step-args">{formatToolArgs(input)}</pre>
            </>
          ) : null}
          {sources.length > 0 && (
            <ul className="citations" aria-label="Search results">
              {sources.map((s, i) => (
                <li key={`${s.url}-${i.toString()}`}>
                  <SourceLink source={s} />
                </li>
              ))}
            </ul>
          )}
          {output !== undefined && output !== "" && (
            <>
              <p className="tool-step-label">
                {use.tool === "code_execution" ? "Output" : isError ? "Error" : "Result"}
              </p>
              <pre className="tool-step-result">{output}</pre>
            </>
          )}
        </div>
      </details>
      {use.tool === "code_execution" && (
        <CodeFiles sessionId={sessionId} blocks={result ? [use, result] : [use]} path={path} />
      )}
    </>
  );
}
