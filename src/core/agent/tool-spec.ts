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

/**
 * The definitions a request carries for `tools`, as text to count (the context meter's tool share):
 * each function tool's name, description and argument schema as the adapters send them. A provider
 * tool's definition is the provider's own (not sent as text): its name stands in for it.
 */
export function toolDefinitionsText(tools: readonly ToolSpec[]): string {
  return tools
    .map((t) =>
      t.kind === "function"
        ? JSON.stringify({ name: t.name, description: t.description ?? "", parameters: t.parameters })
        : t.kind === "mcp"
          ? `mcp server ${t.name} ${t.url}`
          : t.kind,
    )
    .join("\n");
}
