import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { MessageEntry } from "../session/entries";
import { asEntryId, asSessionId } from "../session/ids";
import type { ExportedSession } from "./grove-json";
import { isOpenWebUiShaped, parseOpenWebUiValue } from "./open-webui";

const sample: unknown = JSON.parse(
  readFileSync(fileURLToPath(new URL("./testing/fixtures/open-webui-export.json", import.meta.url)), "utf8"),
);

function ids() {
  let e = 0;
  let s = 0;
  return { newEntryId: () => asEntryId(`e${++e}`), newSessionId: () => asSessionId(`s${++s}`), now: () => 42 };
}
const messages = (s: ExportedSession | undefined) =>
  (s?.entries ?? []).filter((e): e is MessageEntry => e.type === "message");
const textOf = (m: MessageEntry | undefined) =>
  (m?.content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("");

describe("parseOpenWebUiValue on an Open WebUI export", () => {
  const r = parseOpenWebUiValue(sample, ids());
  if (r.kind !== "ok") throw new Error(r.message);
  const [rust, weather, old] = r.sessions;

  it("is recognised, imports every chat with its title and skips the empty one", () => {
    expect(isOpenWebUiShaped(sample)).toBe(true);
    expect(r.sessions.map((s) => s.session.title)).toEqual([
      "Rust lifetimes: returning a reference",
      "Weather in Lisbon",
      "Good morning in Portuguese",
    ]);
    expect(r.skipped).toEqual([{ title: "Empty chat", reason: "no messages" }]);
    expect(rust?.session.importedFrom).toBe("open-webui:4a0b1c2d-aaaa-4e5f-9a6b-7c8d9e0f1a2b");
    expect(rust?.session.createdAt).toBe(1767800000 * 1000);
  });

  it("keeps the history tree: two answers to the first question, each with its model; opens on currentId", () => {
    const all = messages(rust);
    const answers = all.filter((m) => m.parentId === all[0]?.id);
    expect(answers.map((m) => m.model)).toEqual(["llama3.1:8b", "qwen3:14b"]);
    const leaf = all.find((m) => m.id === rust?.session.leafId);
    expect(textOf(leaf)).toMatch(/^That works/);
    expect(leaf?.model).toBe("qwen3:14b");
  });

  it("turns the reasoning <details> into a thinking block labelled by its summary, the rest into text", () => {
    const reply = messages(rust).find((m) => m.model === "qwen3:14b");
    expect(reply?.content[0]).toEqual({
      type: "thinking",
      text: "The user asks about lifetimes.\nA local lives on the stack frame; returning &local would outlive it.",
      label: "Thought for 3 seconds",
    });
    expect(textOf(reply)).toMatch(/^The value lives in the function's stack frame/);
    expect(textOf(reply)).toContain("```rust\nfn bad() -> &String {");
    expect(textOf(reply)).not.toContain("<details");
  });

  it("brings the user's pasted image in as an image attachment (bytes stored by the import job)", () => {
    const first = messages(rust)[0];
    expect(first?.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
    const image = first?.content[1];
    expect(image?.type === "image" && rust?.images?.get(image.blobId)?.data).toMatch(/^iVBORw0KGgo/);
  });

  it("turns a tool_calls <details> into a tool call and its result", () => {
    const reply = messages(weather)[1];
    expect(reply?.content).toEqual([
      { type: "tool_call", id: "call_Xk29Pq", name: "get_current_weather", args: { city: "Lisbon", unit: "celsius" } },
      { type: "tool_result", callId: "call_Xk29Pq", text: "Lisbon: 17 °C, light rain", isError: false },
      { type: "text", text: "It's 17 °C with light rain in Lisbon." },
    ]);
  });

  it("reads an older chat that has only the flat message list", () => {
    expect(messages(old).map(textOf)).toEqual(["Translate 'good morning' to Portuguese.", "Bom dia."]);
    expect(messages(old)[1]?.model).toBe("mistral:7b");
  });

  it("reads the newer `output` items first: reasoning with its duration, function calls and their output", () => {
    const chat = {
      id: "n",
      title: "Newer",
      chat: {
        history: {
          currentId: "a",
          messages: {
            u: { id: "u", parentId: null, childrenIds: ["a"], role: "user", content: "15*17?", timestamp: 1 },
            a: {
              id: "a",
              parentId: "u",
              childrenIds: [],
              role: "assistant",
              model: "deepseek-r1",
              content: '<details type="reasoning"><summary>x</summary>stale</details>255',
              output: [
                { type: "reasoning", content: [{ type: "output_text", text: "150 + 105" }], duration: 3 },
                { type: "function_call", call_id: "c1", name: "calc", arguments: '{"expr":"15*17"}' },
                { type: "function_call_output", call_id: "c1", output: [{ type: "input_text", text: "255" }] },
                { type: "message", content: [{ type: "output_text", text: "255" }] },
              ],
            },
          },
        },
      },
    };
    const parsed = parseOpenWebUiValue([chat], ids());
    if (parsed.kind !== "ok") throw new Error(parsed.message);
    expect(messages(parsed.sessions[0])[1]?.content).toEqual([
      { type: "thinking", text: "150 + 105", label: "Thought for 3 seconds" },
      { type: "tool_call", id: "c1", name: "calc", args: { expr: "15*17" } },
      { type: "tool_result", callId: "c1", text: "255", isError: false },
      { type: "text", text: "255" },
    ]);
  });
});
