import { describe, expect, it } from "vitest";
import type { MessageEntry } from "../../core/session/entries";
import { asEntryId, asSessionId } from "../../core/session/ids";
import type { DisplayRow } from "./display-rows";
import { estimateRowHeight, fillsFirstScreen, ROW_ESTIMATE_PX } from "./row-estimate";

const messageEntry = (text: string, id = "e1"): MessageEntry => ({
  id: asEntryId(id),
  sessionId: asSessionId("s"),
  parentId: null,
  createdAt: 1,
  type: "message",
  role: "assistant",
  content: [{ type: "text", text }],
  status: "complete",
});

const message = (text: string): DisplayRow => ({
  kind: "entry",
  key: "e1",
  entry: messageEntry(text),
  continuations: [],
  visibility: "sent",
  continuable: false,
});

describe("estimateRowHeight", () => {
  it("a one-line message gets the floor; a long answer with code gets several times that", () => {
    expect(estimateRowHeight(message("Hello there."))).toBe(ROW_ESTIMATE_PX);
    const code = Array.from({ length: 12 }, (_, i) => `const x${i} = compute(${i});`).join("\n");
    const long = `${"word ".repeat(200)}\n\n\`\`\`ts\n${code}\n\`\`\`\n\n${"more ".repeat(100)}`;
    const h = estimateRowHeight(message(long));
    // ~11 wrapped lines of prose, 14 of code, 2 blank: about 27 lines.
    expect(h).toBeGreaterThan(500);
    expect(h).toBeLessThan(900);
  });

  it("is bounded, and rows that are not messages get the flat estimate", () => {
    expect(estimateRowHeight(message("x".repeat(1_000_000)))).toBe(4_000);
    expect(estimateRowHeight(undefined)).toBe(ROW_ESTIMATE_PX);
  });
});

describe("fillsFirstScreen", () => {
  const entries = (n: number, text: string) => Array.from({ length: n }, (_, i) => messageEntry(text, `e${i}`));
  const long = "word ".repeat(1200); // ~63 lines: ~1,500 px each

  it("a chat of long answers is enough after a few entries, never fewer than four", () => {
    expect(fillsFirstScreen(entries(3, long), 800)).toBe(false);
    expect(fillsFirstScreen(entries(4, long), 800)).toBe(true);
    expect(fillsFirstScreen(entries(4, long), 4000)).toBe(false);
  });

  it("short messages need twice the window's height of them", () => {
    // 140 px each: 1,600 px is 11.4 of them.
    expect(fillsFirstScreen(entries(11, "Hi."), 800)).toBe(false);
    expect(fillsFirstScreen(entries(12, "Hi."), 800)).toBe(true);
  });
});
