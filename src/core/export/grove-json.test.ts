import { describe, expect, it } from "vitest";
import type { Entry, Session } from "../session/entries";
import { asEntryId, asSessionId, type BlobId } from "../session/ids";
import { type ExportedSession, exportGroveJson, parseGroveJson } from "./grove-json";

const S = asSessionId("s-1");
const e = asEntryId;

function sample(): ExportedSession[] {
  const session: Session = {
    id: S,
    title: "Trip planning",
    titleSource: "user",
    createdAt: 1000,
    updatedAt: 9000,
    leafId: e("a2"),
    systemPrompt: "Be brief.",
    model: { providerId: "anthropic", modelId: "claude-x" },
    params: { temperature: 0.3, maxOutputTokens: 900, thinking: { kind: "anthropic-adaptive", effort: "low" } },
  };
  const entries: Entry[] = [
    {
      type: "message",
      id: e("u1"),
      sessionId: S,
      parentId: null,
      createdAt: 1000,
      role: "user",
      status: "complete",
      content: [
        { type: "text", text: "hi" },
        { type: "image", blobId: "b1" as BlobId, mimeType: "image/png" },
      ],
    },
    {
      type: "message",
      id: e("a1"),
      sessionId: S,
      parentId: e("u1"),
      createdAt: 2000,
      role: "assistant",
      status: "complete",
      content: [
        { type: "thinking", text: "hmm", signature: "sig", signedBy: "anthropic-messages" },
        { type: "tool_call", id: "c1", name: "search", args: { q: "x", nested: { z: 1, a: [1, 2] } } },
      ],
      provider: "anthropic",
      api: "anthropic-messages",
      model: "claude-x",
      usage: { input: 10, output: 5, cacheRead: 2 },
      stopReason: "tool_use",
    },
    {
      type: "message",
      id: e("t1"),
      sessionId: S,
      parentId: e("a1"),
      createdAt: 3000,
      role: "tool",
      status: "complete",
      content: [{ type: "tool_result", callId: "c1", toolName: "search", text: "found", isError: false }],
    },
    {
      type: "message",
      id: e("a2"),
      sessionId: S,
      parentId: e("t1"),
      createdAt: 4000,
      role: "assistant",
      status: "error",
      content: [],
      error: { kind: "rate_limit", message: "slow down", status: 429, retryAfterMs: 1000 },
    },
    {
      type: "compaction",
      id: e("c1"),
      sessionId: S,
      parentId: e("a1"),
      createdAt: 5000,
      summary: "sum",
      shortSummary: "s",
      firstKeptEntryId: e("a1"),
      keptUserTurnIds: [e("u1")],
      tokensBefore: 100,
      tokensAfter: 10,
      reason: "manual",
      model: "m",
      details: { files: ["a"] },
      sideUsage: [{ model: "gpt-4o-mini", usage: { input: 1200, output: 80, cacheRead: 100 } }],
    },
    {
      type: "branch_summary",
      id: e("bs1"),
      sessionId: S,
      parentId: e("u1"),
      createdAt: 6000,
      fromId: e("a2"),
      summary: "branch",
      model: "m",
      sideUsage: [{ model: "m", usage: { input: 50, output: 5 } }],
    },
    {
      type: "handoff",
      id: e("h1"),
      sessionId: S,
      parentId: null,
      createdAt: 7000,
      document: "doc",
      fromSessionId: asSessionId("s-0"),
      fromEntryId: e("x9"),
    },
  ];
  return [{ session, entries, labels: { [e("a1")]: "good answer" } }];
}

/** Export a hand-edited object (for malformed-file tests). */
function mutated(
  edit: (file: {
    format: unknown;
    version: unknown;
    sessions: {
      session: Record<string, unknown>;
      entries: Record<string, unknown>[];
      labels: Record<string, string>;
    }[];
  }) => void,
): string {
  const file = JSON.parse(exportGroveJson(sample()));
  edit(file);
  return JSON.stringify(file);
}

function errorOf(text: string): string {
  const r = parseGroveJson(text);
  if (r.kind !== "error") throw new Error("expected an error");
  return r.message;
}

describe("grove-json", () => {
  it("round-trips: export -> parse -> export gives identical text", () => {
    const text = exportGroveJson(sample());
    const parsed = parseGroveJson(text);
    expect(parsed.kind).toBe("ok");
    if (parsed.kind !== "ok") return;
    expect(exportGroveJson(parsed.sessions)).toBe(text);
    expect(parsed.sessions[0]?.entries).toHaveLength(7);
    expect(parsed.sessions[0]?.session.leafId).toBe("a2");
    expect(parsed.sessions[0]?.labels[e("a1")]).toBe("good answer");
    // What compaction cost travels with the chat (the monthly spending reads it after an import).
    expect(parsed.sessions[0]?.entries.find((x) => x.type === "compaction")).toMatchObject({
      sideUsage: [{ model: "gpt-4o-mini", usage: { input: 1200, output: 80, cacheRead: 100 } }],
    });
    const file = JSON.parse(text);
    expect(file.format).toBe("grove-session-export");
    expect(file.version).toBe(1);
  });

  it("keeps a chat's tool choice (servers by id, provider and Grove tools, allowed tools), nothing more", () => {
    const [one] = sample();
    const tools = {
      servers: ["srv-1"],
      provider: ["web_search", "code_execution"] as const,
      grove: ["search_my_chats"] as const,
      allowed: ["srv-1/echo"],
    };
    const text = exportGroveJson([{ ...one!, session: { ...one!.session, tools } }]);
    const parsed = parseGroveJson(text);
    expect(parsed.kind === "ok" && parsed.sessions[0]?.session.tools).toEqual(tools);
    // An unknown provider tool is refused with the file, not half-read.
    const bad = text.replace('"code_execution"', '"run_anything"');
    expect(parseGroveJson(bad).kind).toBe("error");
  });

  it("contains no keys or settings, only format, version and sessions", () => {
    expect(Object.keys(JSON.parse(exportGroveJson(sample()))).sort()).toEqual(["format", "sessions", "version"]);
  });

  it("exports an empty list and parses it back", () => {
    const r = parseGroveJson(exportGroveJson([]));
    expect(r).toEqual({ kind: "ok", sessions: [] });
  });

  it("rejects text that is not JSON, or truncated, or empty", () => {
    expect(errorOf("hello")).toMatch(/not valid JSON/);
    const full = exportGroveJson(sample());
    expect(errorOf(full.slice(0, full.length / 2))).toMatch(/truncated/);
    expect(errorOf("   ")).toMatch(/empty/);
  });

  it("rejects an unknown format or version", () => {
    expect(errorOf('{"format":"other","version":1,"sessions":[]}')).toMatch(/Not a Grove export: format is "other"/);
    expect(errorOf("[]")).toMatch(/not a JSON object/);
    expect(errorOf('{"format":"grove-session-export","version":2,"sessions":[]}')).toMatch(
      /Unsupported Grove export version 2/,
    );
  });

  it("names the path of a schema problem", () => {
    const msg = errorOf(
      mutated((f) => {
        const en = f.sessions[0]?.entries[1];
        if (en) en.role = "wizard";
      }),
    );
    expect(msg).toMatch(/sessions\[0\]\.entries\[1\]\.role/);
    expect(
      errorOf(
        mutated((f) => {
          const en = f.sessions[0]?.entries[0];
          if (en) en.type = "mystery";
        }),
      ),
    ).toMatch(/sessions\[0\]\.entries\[0\]\.type/);
  });

  it("rejects a date no browser can show (1e300 once made a chat unopenable), naming where", () => {
    const msg = errorOf(
      mutated((f) => {
        const en = f.sessions[0]?.entries[1];
        if (en) en.createdAt = 1e300;
      }),
    );
    expect(msg).toMatch(/sessions\[0\]\.entries\[1\]\.createdAt/);
    expect(msg).toMatch(/date/);
    expect(
      errorOf(
        mutated((f) => {
          const s = f.sessions[0]?.session;
          if (s) s.updatedAt = 8.64e15 + 1;
        }),
      ),
    ).toMatch(/sessions\[0\]\.session\.updatedAt/);
  });

  it("rejects a dangling parentId", () => {
    const msg = errorOf(
      mutated((f) => {
        const en = f.sessions[0]?.entries[2];
        if (en) en.parentId = "nope";
      }),
    );
    expect(msg).toMatch(/entries\[2\]: entry t1 has parentId nope/);
  });

  it("rejects duplicate entry ids and duplicate session ids", () => {
    expect(
      errorOf(
        mutated((f) => {
          const en = f.sessions[0]?.entries[3];
          if (en) en.id = "u1";
        }),
      ),
    ).toMatch(/entries\[3\]: duplicate entry id u1/);
    const two = mutated((f) => {
      const s = f.sessions[0];
      if (s) f.sessions.push({ session: { ...s.session }, entries: [], labels: {} });
    });
    expect(errorOf(two)).toMatch(/sessions\[1\].*duplicate session id s-1/);
  });

  it("rejects cycles", () => {
    const msg = errorOf(
      mutated((f) => {
        const en = f.sessions[0]?.entries[0];
        if (en) en.parentId = "a2";
      }),
    );
    expect(msg).toMatch(/cycle/);
  });

  it("rejects a leafId that is not an entry, and labels for unknown entries", () => {
    expect(
      errorOf(
        mutated((f) => {
          const s = f.sessions[0];
          if (s) s.session.leafId = "ghost";
        }),
      ),
    ).toMatch(/sessions\[0\] \("Trip planning"\): leafId ghost/);
    expect(
      errorOf(
        mutated((f) => {
          const s = f.sessions[0];
          if (s) s.labels = { ghost: "x" };
        }),
      ),
    ).toMatch(/labels: label for ghost/);
  });

  it("rejects an entry whose sessionId is another session's", () => {
    expect(
      errorOf(
        mutated((f) => {
          const en = f.sessions[0]?.entries[0];
          if (en) en.sessionId = "s-9";
        }),
      ),
    ).toMatch(/belongs to session s-9/);
  });
});
