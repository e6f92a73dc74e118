import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Entry, MessageEntry } from "../session/entries";
import { asEntryId, asSessionId } from "../session/ids";
import { parseChatGptExport } from "./chatgpt";
import { exportGroveJson, parseGroveJson } from "./grove-json";

const fixture = readFileSync(
  fileURLToPath(new URL("../../../../shared/fixtures/real-world/chatgpt-tree.json", import.meta.url)),
  "utf8",
);

function counter() {
  let n = 0;
  return {
    newEntryId: () => asEntryId(`e${++n}`),
    newSessionId: () => asSessionId("s1"),
    now: () => 42,
  };
}

const textOf = (e: Entry | undefined): string =>
  e?.type === "message"
    ? e.content.map((b) => (b.type === "text" ? b.text : b.type === "tool_result" ? b.text : "")).join("")
    : "";

function ok(text: string) {
  const r = parseChatGptExport(text, counter());
  if (r.kind !== "ok") throw new Error(r.message);
  return r.sessions;
}
function err(text: string): string {
  const r = parseChatGptExport(text, counter());
  if (r.kind !== "error") throw new Error("expected an error");
  return r.message;
}

describe("parseChatGptExport on the real-world tree", () => {
  const [imported, ...rest] = ok(fixture);
  if (!imported) throw new Error("no session");
  const { session, entries } = imported;
  const byId = new Map(entries.map((e) => [e.id, e]));
  const kids = (id: string) => entries.filter((e) => e.parentId === id);

  it("imports one session with the whole tree (null root and hidden system node skipped)", () => {
    expect(rest).toHaveLength(0);
    expect(session.title).toBe("Assist user with summary");
    expect(session.createdAt).toBe(Math.round(1714585031.148505 * 1000));
    expect(entries).toHaveLength(11);
    expect(entries.every((e) => e.sessionId === session.id)).toBe(true);
    const roots = entries.filter((e) => e.parentId === null);
    expect(roots).toHaveLength(1);
    expect(textOf(roots[0])).toBe("hi there"); // re-parented past the hidden system node
    expect(entries.some((e) => e.type === "message" && e.role === "tool")).toBe(false);
  });

  it("keeps both fork points", () => {
    const forks = entries.filter((e) => kids(e.id).length >= 2);
    expect(forks).toHaveLength(2);
    expect(forks.map(textOf)).toEqual(["Hello! How can I assist you today?", "tell me a joke"]);
    const first = forks[0];
    expect(first && kids(first.id).map(textOf)).toEqual(["so cool bro", "hi again"]);
  });

  it("sets the leaf to current_node's entry, on the 'hi again' branch", () => {
    const leaf = session.leafId ? byId.get(session.leafId) : undefined;
    expect(leaf).toBeDefined();
    expect(kids(leaf?.id ?? "")).toHaveLength(0);
    const path: string[] = [];
    for (let cur = leaf; cur; cur = cur.parentId ? byId.get(cur.parentId) : undefined) path.unshift(textOf(cur));
    expect(path.slice(0, 5)).toEqual([
      "hi there",
      "Hello! How can I assist you today?",
      "hi again",
      expect.stringContaining("Welcome back"),
      "tell me a joke",
    ]);
    expect(path).toHaveLength(6);
    // the leaf is the second of the two joke answers
    const jokeFork = entries.find((e) => textOf(e) === "tell me a joke");
    expect(kids(jokeFork?.id ?? "")[1]?.id).toBe(leaf?.id);
  });

  it("marks the in_progress answer interrupted, keeps model and ms timestamps", () => {
    const story = entries.find(
      (e): e is MessageEntry => e.type === "message" && textOf(e).startsWith("Sure! Here's a short story"),
    );
    expect(story?.status).toBe("interrupted");
    const messages = entries.filter((e): e is MessageEntry => e.type === "message");
    expect(messages.filter((m) => m.status === "interrupted")).toHaveLength(1);
    expect(messages.filter((m) => m.role === "assistant").every((m) => m.model === "text-davinci-002-render-sha")).toBe(
      true,
    );
    expect(messages.filter((m) => m.role === "user").every((m) => m.model === undefined)).toBe(true);
    expect(messages.find((m) => textOf(m) === "hi there")?.createdAt).toBe(Math.round(1714585031.150442 * 1000));
  });

  it("survives a Grove export round trip", () => {
    const text = exportGroveJson([imported]);
    const back = parseGroveJson(text);
    expect(back.kind).toBe("ok");
    if (back.kind === "ok") expect(exportGroveJson(back.sessions)).toBe(text);
  });

  it("uses real uuid ids by default", () => {
    const r = parseChatGptExport(fixture);
    expect(r.kind).toBe("ok");
    if (r.kind === "ok") expect(r.sessions[0]?.session.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

type Node = { id: string; parent: string | null; children: string[]; message: unknown };
const msg = (role: string, parts: unknown[], extra: Record<string, unknown> = {}) => ({
  author: { role, name: role === "tool" ? "python" : null },
  create_time: 10,
  content: { content_type: parts.some((p) => typeof p !== "string") ? "multimodal_text" : "text", parts },
  status: "finished_successfully",
  metadata: {},
  ...extra,
});
function conv(nodes: Node[], current?: string) {
  return {
    title: "small",
    create_time: 1,
    update_time: 2,
    current_node: current,
    mapping: Object.fromEntries(nodes.map((n) => [n.id, n])),
  };
}

describe("parseChatGptExport on small inputs", () => {
  it("accepts one conversation object, maps tool messages and names an image the file does not hold", () => {
    const text = JSON.stringify(
      conv(
        [
          { id: "r", parent: null, children: ["u"], message: null },
          {
            id: "u",
            parent: "r",
            children: ["a"],
            message: msg("user", ["look", { content_type: "image_asset_pointer", asset_pointer: "file-service://x" }]),
          },
          {
            id: "a",
            parent: "u",
            children: ["empty"],
            message: { ...msg("assistant", []), recipient: "python", content: { content_type: "code", text: "1+1" } },
          },
          { id: "empty", parent: "a", children: ["t"], message: msg("assistant", [""]) },
          { id: "t", parent: "empty", children: [], message: msg("tool", ["2"]) },
        ],
        "t",
      ),
    );
    const [s] = ok(text);
    const es = (s?.entries ?? []) as MessageEntry[];
    expect(es.map((e) => e.role)).toEqual(["user", "assistant", "tool"]);
    expect(es[0]?.content).toEqual([{ type: "text", text: "look\n\n[image: x — not in this export]" }]);
    expect(es[1]?.content).toEqual([{ type: "tool_call", id: "a", name: "python", args: { code: "1+1" } }]);
    expect(es[2]?.parentId).toBe(es[1]?.id); // the empty node was skipped, its child re-parented
    expect(es[2]?.content).toEqual([
      { type: "tool_result", callId: "a", toolName: "python", text: "2", isError: false },
    ]);
    expect(s?.session.leafId).toBe(es[2]?.id);
  });

  it("falls back to the newest leaf when current_node is missing", () => {
    const text = JSON.stringify([
      conv([
        { id: "u", parent: null, children: ["a1", "a2"], message: msg("user", ["q"]) },
        { id: "a1", parent: "u", children: [], message: msg("assistant", ["one"], { create_time: 20 }) },
        { id: "a2", parent: "u", children: [], message: msg("assistant", ["two"], { create_time: 30 }) },
      ]),
    ]);
    const [s] = ok(text);
    expect(textOf(s?.entries.find((e) => e.id === s.session.leafId))).toBe("two");
  });

  it("gives clear errors for files that are not an export at all", () => {
    expect(err("{ not json")).toMatch(/ChatGPT export file is not valid JSON/);
    expect(err(fixture.slice(0, 500))).toMatch(/truncated/);
    expect(err("42")).toMatch(/Not a ChatGPT export/);
  });

  it("skips a conversation it cannot read, with its title and why, and imports the others", () => {
    const good = conv([{ id: "u", parent: null, children: [], message: msg("user", ["q"]) }]);
    const cycle = {
      ...conv([
        { id: "x", parent: "y", children: ["y"], message: msg("user", ["q"]) },
        { id: "y", parent: "x", children: ["x"], message: msg("assistant", ["a"]) },
      ]),
      title: "Loop",
    };
    const r = parseChatGptExport(
      JSON.stringify([{ title: "No tree" }, good, 7, cycle, { ...conv([]), title: "" }]),
      counter(),
    );
    if (r.kind !== "ok") throw new Error(r.message);
    expect(r.sessions.map((x) => x.session.title)).toEqual(["small"]);
    expect(r.skipped).toEqual([
      { title: "No tree", reason: "no messages" },
      { title: "Untitled conversation 3", reason: "not a conversation" },
      { title: "Loop", reason: "its messages form a loop" },
      { title: "Untitled conversation 5", reason: "no messages" },
    ]);
  });

  it("reasoning the user spoke over stands alone as an unfinished reply; the next answer's thinking is its own", () => {
    const thoughts = (text: string) => ({
      ...msg("assistant", []),
      content: { content_type: "thoughts", thoughts: [{ summary: "", content: text }] },
    });
    const text = JSON.stringify(
      conv([
        { id: "u1", parent: null, children: ["t1"], message: msg("user", ["first"]) },
        { id: "t1", parent: "u1", children: ["u2"], message: thoughts("abandoned idea") },
        { id: "u2", parent: "t1", children: ["t2"], message: msg("user", ["never mind, second"]) },
        { id: "t2", parent: "u2", children: ["a2"], message: thoughts("fresh idea") },
        { id: "a2", parent: "t2", children: [], message: msg("assistant", ["answer"]) },
      ]),
    );
    const es = (ok(text)[0]?.entries ?? []) as MessageEntry[];
    expect(es.map((e) => [e.role, e.status, e.content.map((b) => b.type).join("+")])).toEqual([
      ["user", "complete", "text"],
      ["assistant", "interrupted", "thinking"],
      ["user", "complete", "text"],
      ["assistant", "complete", "thinking+text"],
    ]);
    expect(es[1]?.content[0]).toEqual({ type: "thinking", text: "abandoned idea" });
    expect(es[3]?.content[0]).toEqual({ type: "thinking", text: "fresh idea" });
    expect(es.map((e) => e.parentId)).toEqual([null, es[0]?.id, es[1]?.id, es[2]?.id]);
  });

  it("a node whose parent is not in the mapping starts a branch of its own; an unreadable node is passed over", () => {
    const text = JSON.stringify([
      conv([
        { id: "u", parent: "ghost", children: ["bad"], message: msg("user", ["q"]) },
        { id: "bad", parent: "u", children: ["a"], message: { author: {} } },
        { id: "a", parent: "bad", children: [], message: msg("assistant", ["a"]) },
      ]),
    ]);
    const [s] = ok(text);
    const [u, a] = s?.entries ?? [];
    expect(u?.parentId).toBeNull();
    expect(a?.parentId).toBe(u?.id);
  });
});
