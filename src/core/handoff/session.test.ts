import { describe, expect, it } from "vitest";
import type { Session } from "../session/entries";
import { asEntryId, asSessionId } from "../session/ids";
import { handoffTitle, newHandoffSession } from "./session";

const from: Session = {
  id: asSessionId("old"),
  title: "CSV parser",
  titleSource: "user",
  createdAt: 1,
  updatedAt: 5,
  leafId: asEntryId("leaf"),
  systemPrompt: "Be terse.",
  model: { providerId: "anthropic", modelId: "claude-opus-4-7" },
};

describe("newHandoffSession", () => {
  it("starts with one handoff entry, links back, and inherits model and system prompt", () => {
    const { session, entry } = newHandoffSession({
      from,
      document: "## Goal\nParse CSV.",
      fromEntryId: asEntryId("leaf"),
      defaultModel: { providerId: "openai", modelId: "gpt-5" },
      now: 100,
    });
    expect(entry).toMatchObject({
      type: "handoff",
      sessionId: session.id,
      parentId: null,
      document: "## Goal\nParse CSV.",
      fromSessionId: "old",
      fromEntryId: "leaf",
      createdAt: 100,
    });
    expect(session).toMatchObject({
      leafId: entry.id,
      parentSessionId: "old",
      parentEntryId: "leaf",
      systemPrompt: "Be terse.",
      model: { providerId: "anthropic", modelId: "claude-opus-4-7" },
      title: "CSV parser (part 2)",
      titleSource: "auto",
      createdAt: 100,
      updatedAt: 100,
    });
    expect(session.id).not.toBe(from.id);
    expect(session.model).not.toBe(from.model); // a copy, not shared
  });

  it("freezes the model the old session used when it followed the default, and keeps following the global prompt", () => {
    const { session } = newHandoffSession({
      from: { ...from, model: undefined, systemPrompt: undefined },
      document: "D",
      fromEntryId: asEntryId("leaf"),
      defaultModel: { providerId: "openai", modelId: "gpt-5" },
      now: 1,
    });
    expect(session.model).toEqual({ providerId: "openai", modelId: "gpt-5" });
    expect("systemPrompt" in session).toBe(false);
  });
});

describe("handoffTitle", () => {
  it("numbers the parts of a chain of handoffs", () => {
    expect(handoffTitle("Plan")).toBe("Plan (part 2)");
    expect(handoffTitle("Plan (part 2)")).toBe("Plan (part 3)");
    expect(handoffTitle("Plan (part 9)")).toBe("Plan (part 10)");
    expect(handoffTitle("  ")).toBe("Chat (part 2)");
  });
});
