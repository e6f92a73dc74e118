/** The MCP client's pure parts: result normalization and text, failure reasons and redaction, tool names. */
import { describe, expect, it } from "vitest";
import { classifyMcpError, corsMessage, redact, serverSecrets } from "./mcp-failure";
import { callOutcomeText, contentText, normalizeToolResult, resultImages } from "./mcp-result";
import { mcpToolSpecs } from "./mcp-tool-specs";

describe("normalizeToolResult", () => {
  it("reads every content type, keeps unknown items visible, and the error flag", () => {
    const r = normalizeToolResult({
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "A" } },
        { type: "resource", resource: { uri: "file:///b.bin", blob: "AAEC" } },
        { type: "resource_link", uri: "https://e.com/x", name: "x" },
        { type: "hologram" },
      ],
      isError: true,
    });
    if (!r.ok) throw new Error(r.failure.message);
    expect(r.value.isError).toBe(true);
    expect(r.value.content.map(contentText)).toEqual([
      "hello",
      "[image: image/png]",
      "A",
      "[resource: file:///b.bin]",
      "[link: x https://e.com/x]",
      "[unreadable hologram]",
    ]);
    expect(resultImages(r.value)).toEqual([{ data: "AAAA", mimeType: "image/png" }]);
  });

  it("a result without a content list is malformed; structured output stands in for missing text", () => {
    expect(normalizeToolResult({ content: "nope" })).toMatchObject({ ok: false, failure: { kind: "malformed" } });
    const structured = normalizeToolResult({ content: [], structuredContent: { sum: 5 } });
    expect(callOutcomeText(structured)).toEqual({ text: '{"sum":5}', isError: false });
    expect(callOutcomeText({ ok: false, failure: { kind: "timeout", message: "too slow" } })).toEqual({
      text: "too slow",
      isError: true,
    });
  });
});

describe("failures", () => {
  const url = "https://user:pa55word@mcp.example.com/mcp?api_key=k3y-value&x=1";
  const secrets = serverSecrets(url, { Authorization: "Bearer tok-123456", "X-Other": "plain-secret" });

  it("knows a server's secrets: header values, a bearer's token, URL credentials and key parameters", () => {
    expect(secrets).toEqual(
      expect.arrayContaining(["Bearer tok-123456", "tok-123456", "plain-secret", "pa55word", "k3y-value"]),
    );
    expect(redact("sent Bearer tok-123456 and k3y-value to user:pa55word@", secrets)).toBe(
      "sent [redacted] and [redacted] to [redacted]:[redacted]@",
    );
  });

  it("classifies the SDK's errors: timeout, 401/403, other HTTP, JSON-RPC, schema, abort", () => {
    const ctx = { url, secrets, what: "Calling read_file", timeoutMs: 2_000 };
    expect(classifyMcpError(Object.assign(new Error("Request timed out"), { code: -32001 }), ctx)).toMatchObject({
      kind: "timeout",
      message: "https://mcp.example.com did not answer in time after 2 s (calling read_file).",
    });
    expect(classifyMcpError(Object.assign(new Error("x"), { code: 403 }), ctx)).toMatchObject({
      kind: "auth",
      status: 403,
    });
    const http = classifyMcpError(Object.assign(new Error("Error POSTing: tok-123456 bad"), { code: 500 }), ctx);
    expect(http).toMatchObject({ kind: "server", status: 500 });
    expect(http.message).not.toContain("tok-123456");
    expect(classifyMcpError(Object.assign(new Error("Tool nope not found"), { code: -32602 }), ctx).kind).toBe(
      "server",
    );
    expect(classifyMcpError(Object.assign(new Error("bad"), { name: "ZodError", issues: [] }), ctx).kind).toBe(
      "malformed",
    );
    const controller = new AbortController();
    controller.abort();
    expect(classifyMcpError(new Error("whatever"), { ...ctx, signal: controller.signal }).kind).toBe("aborted");
  });

  it("the CORS advice names the page's origin and the headers to allow", () => {
    const text = corsMessage("https://mcp.example.com/mcp", "https://grove.example");
    expect(text).toContain("Access-Control-Allow-Origin: https://grove.example");
    expect(text).toContain("mcp-session-id");
  });
});

describe("mcpToolSpecs", () => {
  it("gives each tool a name providers accept, unique across servers, routed back to its server", () => {
    const tool = (name: string) => ({ name, description: `does ${name}`, inputSchema: { type: "object" } });
    const { specs, routes } = mcpToolSpecs([
      { id: "s1", name: "My Files!", tools: [tool("read_file"), tool("weird name/with.dots")] },
      { id: "s2", name: "My Files", tools: [tool("read_file")] },
    ]);
    expect(specs.map((s) => s.name)).toEqual([
      "My_Files__read_file",
      "My_Files__weird_name_with_dots",
      "My_Files__read_file_2",
    ]);
    for (const s of specs) expect(s.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(routes.get("My_Files__read_file_2")).toEqual({ serverId: "s2", tool: "read_file" });
    expect(specs[0]).toMatchObject({ kind: "function", description: "does read_file", parameters: { type: "object" } });
  });
});
