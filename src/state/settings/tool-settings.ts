/**
 * Settings › Tools as data (issue 28): the MCP servers the user added, and how the tool loop runs
 * (step limit, per-call timeout, the tools allowed everywhere). Server headers are credentials: like
 * API keys they live in the settings table only, which is never exported or synced (DESIGN §2).
 */
import { DEFAULT_MAX_STEPS } from "../../core/agent/defaults";

/** An MCP server as added in Settings › Tools. */
export type McpServerSetting = {
  /** Grove's id for it (what a chat's tool choice names). */
  readonly id: string;
  /** A short name: the model sees it in tool names (`<name>__<tool>`), the user in the menus. */
  readonly name: string;
  readonly url: string;
  /** Sent to this server only (e.g. `Authorization: Bearer …`): a credential. */
  readonly headers: Readonly<Record<string, string>>;
  /** "Let the provider connect": the provider calls the server (a public https server without CORS). */
  readonly providerConnects: boolean;
};

export type ToolLoopSettings = {
  /** Model calls per turn before Grove stops and offers "Continue". */
  readonly maxSteps: number;
  /** How long one MCP tool call may take. */
  readonly callTimeoutSeconds: number;
  /** Tools allowed in every chat ("Always allow"): `toolKey`s (core/session/chat-tools.ts). */
  readonly alwaysAllow: readonly string[];
  /** After a threshold compaction between two steps the loop goes on by itself (else it offers "Continue"). */
  readonly autoContinue: boolean;
};

export const DEFAULT_TOOL_LOOP: ToolLoopSettings = {
  maxSteps: DEFAULT_MAX_STEPS,
  callTimeoutSeconds: 60,
  alwaysAllow: [],
  autoContinue: true,
};

const isRecordOfStrings = (v: unknown): v is Record<string, string> =>
  typeof v === "object" && v !== null && Object.values(v).every((x) => typeof x === "string");

export function mcpServersFrom(value: unknown): McpServerSetting[] {
  if (!Array.isArray(value)) return [];
  const out: McpServerSetting[] = [];
  for (const v of value as Array<Partial<McpServerSetting> | null>) {
    if (typeof v?.id !== "string" || typeof v.url !== "string") continue;
    out.push({
      id: v.id,
      name: typeof v.name === "string" && v.name !== "" ? v.name : "server",
      url: v.url,
      headers: isRecordOfStrings(v.headers) ? { ...v.headers } : {},
      providerConnects: v.providerConnects === true,
    });
  }
  return out;
}

const positive = (v: unknown, fallback: number): number =>
  typeof v === "number" && Number.isFinite(v) && v >= 1 ? Math.floor(v) : fallback;

export function toolLoopFrom(value: unknown): ToolLoopSettings {
  const v = (typeof value === "object" && value !== null ? value : {}) as Partial<ToolLoopSettings>;
  return {
    maxSteps: positive(v.maxSteps, DEFAULT_TOOL_LOOP.maxSteps),
    callTimeoutSeconds: positive(v.callTimeoutSeconds, DEFAULT_TOOL_LOOP.callTimeoutSeconds),
    alwaysAllow: Array.isArray(v.alwaysAllow) ? v.alwaysAllow.filter((k) => typeof k === "string") : [],
    autoContinue: v.autoContinue !== false,
  };
}

/**
 * Headers as typed in the "Headers" field, one `Name: value` a line; a bare token is taken as a
 * bearer token (what most servers ask for). Returns the headers, or the line that is not one.
 */
export function parseHeaders(
  text: string,
): { ok: true; headers: Record<string, string> } | { ok: false; line: string } {
  const headers: Record<string, string> = {};
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    const colon = line.indexOf(":");
    if (colon <= 0) {
      if (/\s/.test(line)) return { ok: false, line };
      headers.Authorization = `Bearer ${line}`;
      continue;
    }
    const name = line.slice(0, colon).trim();
    if (!/^[A-Za-z0-9-]+$/.test(name)) return { ok: false, line };
    headers[name] = line.slice(colon + 1).trim();
  }
  return { ok: true, headers };
}

/** A short name for a server from its URL (its host's first label), unique among `taken`. */
export function serverNameFor(url: string, taken: readonly string[]): string {
  let base = "server";
  try {
    const host = new URL(url).hostname;
    const label = host.split(".").find((p) => p !== "www" && p !== "mcp" && p !== "api") ?? host;
    base = /^\d+$/.test(label) || label === "127" ? "local" : label.replace(/[^a-zA-Z0-9_-]/g, "");
  } catch {
    // not a URL: the caller refuses it before naming it
  }
  let name = base || "server";
  for (let i = 2; taken.includes(name); i++) name = `${base}${i}`;
  return name;
}
