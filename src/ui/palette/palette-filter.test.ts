import { describe, expect, it } from "vitest";
import { filterPalette } from "./palette-filter";

const COMMANDS = [
  { label: "New chat", keywords: ["start", "conversation"] },
  { label: "Search chats", keywords: ["find"] },
  { label: "Switch model…", keywords: ["claude", "gpt"] },
  { label: "Compact", keywords: ["summarize", "context"] },
  { label: "Show history graph", keywords: ["tree"] },
  { label: "Settings", keywords: ["preferences", "api key"] },
];
const labels = (q: string) => filterPalette(COMMANDS, q).map((c) => c.label);

describe("filterPalette", () => {
  it("an empty query lists every command in order", () => {
    expect(labels("")).toEqual(COMMANDS.map((c) => c.label));
  });
  it("matches word starts, case-insensitively", () => {
    expect(labels("GRA")).toEqual(["Show history graph"]);
    expect(labels("hist gr")).toEqual(["Show history graph"]);
    expect(labels("raph")).toEqual([]);
  });
  it("finds commands by keyword, after label matches", () => {
    expect(labels("tree")).toEqual(["Show history graph"]);
    expect(labels("s")).toEqual([
      "Search chats",
      "Switch model…",
      "Show history graph",
      "Settings",
      "New chat",
      "Compact",
    ]);
  });
  it("needs every word", () => {
    expect(labels("new graph")).toEqual([]);
  });
});
