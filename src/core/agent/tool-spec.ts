/**
 * The tools a request offers the model (issue 28): the app's own function tools (an MCP server's tools
 * connected from the browser, Grove's own), and the tools a provider runs itself, switched on per
 * request. Plain data: the adapters translate it to each wire format (providers/tool-params), the
 * meter counts it (`toolSpecsText`). No I/O here.
 */
import { argsJson } from "../session/entry-text";

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

export const isFunctionTool = (t: ToolSpec): t is FunctionToolSpec => t.kind === "function";

/**
 * The definitions as text, for counting what they cost in the context (a function's name,
 * description and schema; a provider tool's name): about what the providers put in the prompt.
 * Credentials are never part of it.
 */
export function toolSpecsText(tools: readonly ToolSpec[]): string {
  return tools
    .map((t) => {
      switch (t.kind) {
        case "function":
          return `${t.name}\n${t.description ?? ""}\n${argsJson(t.parameters)}`;
        case "mcp":
          return `mcp ${t.name}${t.allowedTools ? ` ${t.allowedTools.join(" ")}` : ""}`;
        default:
          return t.kind;
      }
    })
    .join("\n\n");
}
