/**
 * Settings › Tools: adding, removing and connecting MCP servers (issue 28). The MCP client (tools/,
 * the official SDK) is loaded on first use, never with the first screen. One connection per server
 * per page, opened when Settings shows the server or a chat's tool loop needs it; its status is the
 * store's (mcp-store.ts). Headers are credentials: sent only to their server (tools/ redacts them
 * from every message).
 */
import type { McpConnection } from "../../tools/mcp-client";
import { reportActionError } from "../app/report-error";
import { saveSettings } from "../settings/settings-actions";
import { useSettingsStore } from "../settings/settings-store";
import { type McpServerSetting, serverNameFor } from "../settings/tool-settings";
import { type McpServerStatus, useMcpStore } from "./mcp-store";

const connections = new Map<string, Promise<McpConnection | null>>();
const latest = new Map<string, object>();

const loadClient = () => import("../../tools/mcp-client");

function setStatus(id: string, status: McpServerStatus | null): void {
  useMcpStore.setState((s) => {
    const { [id]: _old, ...rest } = s.status;
    return { status: status ? { ...rest, [id]: status } : rest };
  });
}

/** Why `url` cannot be an MCP server's address, in a sentence; null when it can. */
export function mcpUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "Enter the server's full address, starting with https:// (or http:// on this machine).";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "The address must start with https://.";
  return null;
}

/** Adds a server and connects to it (unless the provider connects). Returns its id. */
export async function addMcpServer(input: {
  url: string;
  headers: Record<string, string>;
  providerConnects: boolean;
}): Promise<string> {
  const servers = useSettingsStore.getState().settings.mcpServers;
  const server: McpServerSetting = {
    id: `mcp-${crypto.randomUUID().slice(0, 8)}`,
    name: serverNameFor(
      input.url,
      servers.map((s) => s.name),
    ),
    url: input.url.trim(),
    headers: input.headers,
    providerConnects: input.providerConnects,
  };
  await saveSettings({ mcpServers: [...servers, server] });
  void connectMcp(server.id);
  return server.id;
}

export async function removeMcpServer(id: string): Promise<void> {
  const servers = useSettingsStore.getState().settings.mcpServers.filter((s) => s.id !== id);
  await saveSettings({ mcpServers: servers });
  await disconnect(id);
}

async function disconnect(id: string): Promise<void> {
  const open = connections.get(id);
  connections.delete(id);
  latest.delete(id);
  setStatus(id, null);
  const c = await open?.catch(() => null);
  await c?.close().catch(() => {});
}

/** Connects (again) to server `id`: the connection, or null with the reason in its status. */
export async function connectMcp(id: string): Promise<McpConnection | null> {
  await disconnect(id);
  const server = useSettingsStore.getState().settings.mcpServers.find((s) => s.id === id);
  if (!server) return null;
  if (server.providerConnects) {
    setStatus(id, { kind: "by-provider" });
    return null;
  }
  setStatus(id, { kind: "connecting" });
  // Whether this attempt is still the server's (a newer connect or a removal replaced it meanwhile).
  const token = {};
  latest.set(id, token);
  const opening = (async () => {
    try {
      const { connectMcpServer } = await loadClient();
      const outcome = await connectMcpServer({ url: server.url, headers: server.headers });
      if (latest.get(id) !== token) {
        if (outcome.ok) void outcome.value.close();
        return null;
      }
      if (!outcome.ok) {
        setStatus(id, { kind: "failed", failure: outcome.failure });
        return null;
      }
      setStatus(id, { kind: "connected", tools: outcome.value.tools });
      return outcome.value;
    } catch (e) {
      reportActionError("The MCP client could not be loaded", e);
      setStatus(id, {
        kind: "failed",
        failure: { kind: "unreachable", message: "the MCP client could not be loaded." },
      });
      return null;
    }
  })();
  connections.set(id, opening);
  return opening;
}

/** The open connection to server `id`, connecting first when there is none (or the last one failed). */
export async function mcpConnection(id: string): Promise<McpConnection | null> {
  const open = connections.get(id);
  if (open) {
    const c = await open;
    if (c) return c;
  }
  return connectMcp(id);
}

/** Connects every server that has no status yet (Settings › Tools opened, a chat's Tools menu). */
export function connectAllMcp(): void {
  const status = useMcpStore.getState().status;
  for (const s of useSettingsStore.getState().settings.mcpServers) {
    if (!status[s.id]) void connectMcp(s.id);
  }
}
