/**
 * The tools a request offers the model (issue 28): the app's own function tools (an MCP server's tools
 * connected from the browser, Grove's own), and the tools a provider runs itself, switched on per
 * request. Plain data: the adapters translate it to each wire format. No I/O here.
 */
/** A function the model may call: its name, what it does, the JSON Schema of its arguments. */
export type FunctionToolSpec = {
  kind: "function";
  name: string;
  description?: string;
  /** A JSON Schema object (`{type: "object", properties, required}`). */
  parameters: Readonly<Record<string, unknown>>;
};

/**
 * A tool the provider runs (paid with the user's key): web search, web fetch (Anthropic only), code
 * execution, or an MCP server the provider connects to itself (Anthropic's MCP connector, the Responses
 * `mcp` tool) — for a public https server the browser may not call (CORS).
 */
export type ServerToolSpec =
  | { kind: "web_search"; maxUses?: number }
  | { kind: "web_fetch"; maxUses?: number }
  | { kind: "code_execution" }
  | {
      kind: "mcp";
      /** The server's name in the request (Anthropic `mcp_servers[].name`, Responses `server_label`). */
      name: string;
      url: string;
      /** Sent to the provider, which sends it to the server: a credential, never logged or exported. */
      authorizationToken?: string;
      /** Only these of the server's tools; absent: all. */
      allowedTools?: readonly string[];
    };

export type ToolSpec = FunctionToolSpec | ServerToolSpec;
