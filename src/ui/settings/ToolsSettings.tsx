import { type FormEvent, useEffect, useId, useState } from "react";
import { saveSettings } from "../../state/settings/settings-actions";
import { useSettingsStore } from "../../state/settings/settings-store";
import { type McpServerSetting, parseHeaders } from "../../state/settings/tool-settings";
import { addMcpServer, connectAllMcp, connectMcp, mcpUrlProblem, removeMcpServer } from "../../state/tools/mcp-servers";
import { type McpServerStatus, mcpStatusText, useMcpStore } from "../../state/tools/mcp-store";
import { CommitField } from "./CommitField";
import { SettingsSection } from "./SettingsSection";
import "./tools-settings.css";

const TOOLS_TERMS = [
  "Add MCP server",
  "Server URL",
  "Headers",
  "Let the provider connect",
  "MCP",
  "tools",
  "Step limit",
  "Tool call timeout",
  "Always allow",
  "Auto-continue",
  "compaction",
];

/**
 * Settings › Tools (issue 28): the MCP servers a chat may use, each with its live status ("Connected ·
 * 12 tools", or why not), the tools it lists (their descriptions shown as plain text: a server's words,
 * never markup), and the loop's limits. Headers are credentials: kept like API keys, shown masked.
 */
export function ToolsSettings() {
  const servers = useSettingsStore((s) => s.settings.mcpServers);
  const loop = useSettingsStore((s) => s.settings.toolLoop);
  useEffect(() => connectAllMcp(), []);
  return (
    <SettingsSection
      name="Tools"
      terms={TOOLS_TERMS}
      intro={
        <p className="muted small">
          MCP servers give the model tools. Grove connects to them from this browser; headers (a bearer token) are sent
          to that server only and never exported or synced. Choose which tools a chat may use with the Tools button
          beside the message box.
        </p>
      }
    >
      {servers.length > 0 && (
        <ul className="mcp-servers" aria-label="MCP servers">
          {servers.map((s) => (
            <ServerItem key={s.id} server={s} />
          ))}
        </ul>
      )}
      <AddServerForm />
      <div className="tool-loop-fields">
        <CommitField
          label="Step limit"
          type="number"
          value={String(loop.maxSteps)}
          hint="Model calls in one turn before Grove stops and offers Continue."
          onCommit={(v) => {
            const n = Number(v);
            if (Number.isFinite(n) && n >= 1) void saveSettings({ toolLoop: { ...loop, maxSteps: Math.floor(n) } });
          }}
        />
        <CommitField
          label="Tool call timeout (seconds)"
          type="number"
          value={String(loop.callTimeoutSeconds)}
          onCommit={(v) => {
            const n = Number(v);
            if (Number.isFinite(n) && n >= 1)
              void saveSettings({ toolLoop: { ...loop, callTimeoutSeconds: Math.floor(n) } });
          }}
        />
        <label className="check">
          <input
            type="checkbox"
            checked={loop.autoContinue}
            onChange={(e) => void saveSettings({ toolLoop: { ...loop, autoContinue: e.target.checked } })}
          />
          Auto-continue after compaction
        </label>
        <p className="muted small">
          When the context is compacted between two steps of a tool loop, the loop goes on by itself. Off: it stops
          there and offers Continue.
        </p>
        {loop.alwaysAllow.length > 0 && (
          <div className="field">
            <span>Always allowed: {loop.alwaysAllow.length}</span>
            <button type="button" onClick={() => void saveSettings({ toolLoop: { ...loop, alwaysAllow: [] } })}>
              Ask again for every tool
            </button>
          </div>
        )}
      </div>
    </SettingsSection>
  );
}

function statusClass(status: McpServerStatus | undefined): string {
  return status?.kind === "failed"
    ? "mcp-status failed"
    : status?.kind === "connected"
      ? "mcp-status ok"
      : "mcp-status";
}

function ServerItem({ server }: { server: McpServerSetting }) {
  const status = useMcpStore((s) => s.status[server.id]);
  const headerNames = Object.keys(server.headers);
  return (
    <li className="mcp-server" aria-label={`${server.name}: ${mcpStatusText(status)}`}>
      <div className="mcp-server-head">
        <strong>{server.name}</strong>
        <span className="muted mcp-url">{server.url}</span>
      </div>
      <p className={statusClass(status)} role="status">
        {mcpStatusText(status)}
      </p>
      {headerNames.length > 0 && (
        <p className="muted small">Headers: {headerNames.map((h) => `${h}: ••••`).join(", ")}</p>
      )}
      {status?.kind === "connected" && status.tools.length > 0 && (
        <details className="mcp-tools">
          <summary>Tools</summary>
          <ul>
            {status.tools.map((t) => (
              <li key={t.name}>
                <code>{t.name}</code>
                {t.description ? <span className="muted"> — {t.description}</span> : null}
              </li>
            ))}
          </ul>
        </details>
      )}
      <div className="row-actions">
        {!server.providerConnects && (
          <button type="button" onClick={() => void connectMcp(server.id)}>
            Reconnect
          </button>
        )}
        <button type="button" onClick={() => void removeMcpServer(server.id)}>
          Remove {server.name}
        </button>
      </div>
    </li>
  );
}

function AddServerForm() {
  const urlId = useId();
  const headersId = useId();
  const [url, setUrl] = useState("");
  const [headers, setHeaders] = useState("");
  const [byProvider, setByProvider] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const urlProblem = mcpUrlProblem(url.trim());
    if (urlProblem) return setProblem(urlProblem);
    const parsed = parseHeaders(headers);
    if (!parsed.ok)
      return setProblem(
        `Headers: one "Name: value" a line (or a bare token). Not a header: ${parsed.line.slice(0, 40)}`,
      );
    setProblem(null);
    void addMcpServer({ url: url.trim(), headers: parsed.headers, providerConnects: byProvider });
    setUrl("");
    setHeaders("");
    setByProvider(false);
  };
  return (
    <form className="mcp-add" onSubmit={submit}>
      <div className="field">
        <label htmlFor={urlId}>Server URL</label>
        <input
          id={urlId}
          type="url"
          value={url}
          placeholder="https://example.com/mcp"
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setUrl(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={headersId}>Headers</label>
        <textarea
          id={headersId}
          rows={2}
          value={headers}
          placeholder="optional, one a line: Authorization: Bearer …"
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setHeaders(e.target.value)}
        />
      </div>
      <label className="check">
        <input type="checkbox" checked={byProvider} onChange={(e) => setByProvider(e.target.checked)} />
        Let the provider connect
      </label>
      <small className="muted">
        For a public https server that does not allow this page (CORS): the provider (Anthropic, OpenAI) calls it
        instead of this browser, with these headers.
      </small>
      {problem && (
        <small className="field-problem" role="alert">
          {problem}
        </small>
      )}
      <div className="row-actions">
        <button type="submit" className="primary" disabled={url.trim() === ""}>
          Add MCP server
        </button>
      </div>
    </form>
  );
}
