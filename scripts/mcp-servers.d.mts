/** Types for mcp-servers.mjs (plain JavaScript so Node runs it without a build step). */

/** The files server's folder after start and after `reset()`: relative path → content. */
export declare const SEED_FILES: Readonly<Record<string, string>>;

export type EverythingServer = {
  /** The Streamable HTTP endpoint, e.g. http://127.0.0.1:PORT/mcp */
  url: string;
  close(): Promise<void>;
};

export type FilesServer = {
  /** The Streamable HTTP endpoint, e.g. http://127.0.0.1:PORT/mcp */
  url: string;
  /** The temporary folder the tools read and write. */
  dir: string;
  /** Require `Authorization: Bearer <token>` (null: no check). Others get 401. */
  setToken(token: string | null): void;
  /** The origin CORS allows: "*", one origin, or null (no CORS headers: the browser refuses). */
  setAllowedOrigin(origin: string | null): void;
  /** Back to the start options, the folder back to SEED_FILES. */
  reset(): Promise<void>;
  close(): Promise<void>;
};

export type McpServers = { everything: EverythingServer; files: FilesServer; close(): Promise<void> };

export declare function startMcpServers(options?: {
  /** The folder holding node_modules (default: the repo of the script). */
  root?: string;
  /** The files server's bearer token (default none). */
  token?: string | null;
  /** The files server's CORS origin (default "*"). */
  allowOrigin?: string | null;
}): Promise<McpServers>;

export declare function startEverything(
  root?: string,
  options?: { transport?: "streamableHttp" | "sse" },
): Promise<EverythingServer>;

export declare function startFilesServer(options?: {
  token?: string | null;
  allowOrigin?: string | null;
}): Promise<FilesServer>;
