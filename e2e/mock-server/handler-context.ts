/** What the api handlers get from the server: the live config, the script queue and id sequence. */
import type { Exchange } from "./exchange";
import type { Api, MockConfig, RecordedRequest, ReplyScript } from "./types";

export type HandlerContext = {
  /** The config as of now (handlers read it per request, so `config()` applies to the next request). */
  config(): MockConfig;
  /** Remove and return the first queued script for `api` that matches the request. */
  takeScript(api: Api, req: Pick<RecordedRequest, "api" | "body">): ReplyScript | undefined;
  /** Park this response until `release()` (or until it closes, or the mock resets). */
  hold(api: Api, ex: Exchange): Promise<void>;
  /** A per-server sequence for message / request ids (restarts on reset). */
  nextId(): number;
  /** Flaky produced-file ids that already failed once (code-files.ts; cleared on reset). */
  flakyFiles: Set<string>;
};

/** The key a request carries: `x-api-key`, or `Authorization: Bearer …` (Anthropic SDK 1.x and OpenAI send Bearer). */
export function requestApiKey(headers: Record<string, string>): string | null {
  const direct = headers["x-api-key"];
  if (direct !== undefined && direct.trim() !== "") return direct.trim();
  const match = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? "");
  const bearer = match?.[1]?.trim();
  return bearer !== undefined && bearer !== "" ? bearer : null;
}

export type AuthResult = "ok" | "missing" | "invalid";

export function checkAuth(headers: Record<string, string>, config: MockConfig): AuthResult {
  const key = requestApiKey(headers);
  if (key === null) return "missing";
  if (config.apiKey !== null && key !== config.apiKey) return "invalid";
  return "ok";
}

/** `sk-abc…xyz`-style redaction, as OpenAI's "Incorrect API key provided" message does. */
export function redactKey(key: string): string {
  if (key.length <= 8) return "***";
  return `${key.slice(0, 4)}${"*".repeat(Math.min(20, key.length - 8))}${key.slice(-4)}`;
}

export function padId(n: number): string {
  return String(n).padStart(6, "0");
}
