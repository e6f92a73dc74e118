import { describe, expect, it } from "vitest";
import { mcpServersFrom, parseHeaders, serverNameFor, toolLoopFrom } from "./tool-settings";

describe("tool settings (issue 28)", () => {
  it("reads headers one a line; a bare token is a bearer token; a bad line is named", () => {
    expect(parseHeaders("Authorization: Bearer abc\nX-Team: 7\n")).toEqual({
      ok: true,
      headers: { Authorization: "Bearer abc", "X-Team": "7" },
    });
    expect(parseHeaders("tok123")).toEqual({ ok: true, headers: { Authorization: "Bearer tok123" } });
    expect(parseHeaders("not a header")).toEqual({ ok: false, line: "not a header" });
  });

  it("names a server by its host, uniquely", () => {
    expect(serverNameFor("https://mcp.github.com/x", [])).toBe("github");
    expect(serverNameFor("http://127.0.0.1:3000/mcp", [])).toBe("local");
    expect(serverNameFor("http://127.0.0.1:3001/mcp", ["local"])).toBe("local2");
  });

  it("stored values from another version fall back to safe defaults", () => {
    expect(mcpServersFrom([{ id: "a", url: "https://x" }, { url: "no id" }, null])).toEqual([
      { id: "a", name: "server", url: "https://x", headers: {}, providerConnects: false },
    ]);
    expect(toolLoopFrom({ maxSteps: 0, callTimeoutSeconds: "x" })).toEqual({
      maxSteps: 25,
      callTimeoutSeconds: 60,
      alwaysAllow: [],
      autoContinue: true,
    });
    expect(toolLoopFrom({ autoContinue: false }).autoContinue).toBe(false);
  });
});
