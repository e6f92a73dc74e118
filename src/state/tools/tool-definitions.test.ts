import { afterEach, describe, expect, it } from "vitest";
import { toolDefinitionsText } from "../../core/agent/tool-spec";
import { makeSession } from "../../db/testing/database";
import { resetStores } from "../app/store-registry";
import { DEFAULT_SETTINGS, type Settings } from "../settings/settings-model";
import type { McpServerStatus } from "./mcp-store";
import { chatToolDefinitions } from "./tool-definitions";

const settings: Settings = {
  ...DEFAULT_SETTINGS,
  mcpServers: [
    { id: "s1", name: "local", url: "http://127.0.0.1:1/mcp", headers: {}, providerConnects: false },
    { id: "s2", name: "other", url: "http://127.0.0.1:2/mcp", headers: {}, providerConnects: false },
  ],
};
const echo = {
  name: "echo",
  description: "Echoes back the input",
  inputSchema: { type: "object", properties: { message: { type: "string" } } },
};
const connected: Record<string, McpServerStatus> = {
  s1: { kind: "connected", tools: [echo] },
  s2: { kind: "failed", failure: { kind: "unreachable", message: "down" } },
};

afterEach(() => resetStores());

describe("the tool definitions a chat's request carries (the meter's tool share)", () => {
  it("the chosen, connected servers' tools as the loop names them; nothing for a server not connected or not chosen", () => {
    const session = makeSession({ tools: { servers: ["s1", "s2"], provider: [] } });
    const specs = chatToolDefinitions(session, settings, connected);
    expect(specs).toEqual([
      { kind: "function", name: "local__echo", description: "Echoes back the input", parameters: echo.inputSchema },
    ]);
    expect(chatToolDefinitions(makeSession(), settings, connected)).toEqual([]);
    expect(chatToolDefinitions(undefined, settings, connected)).toEqual([]);
  });

  it("the text counted holds each tool's name, description and schema", () => {
    const text = toolDefinitionsText(
      chatToolDefinitions(makeSession({ tools: { servers: ["s1"], provider: [] } }), settings, connected),
    );
    expect(text).toContain("local__echo");
    expect(text).toContain("Echoes back the input");
    expect(text).toContain('"message":{"type":"string"}');
    expect(toolDefinitionsText([])).toBe("");
  });
});
