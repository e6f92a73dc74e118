import { describe, expect, it } from "vitest";
import { thinking } from "../testing/entries";
import type { ContextMessage } from "./context";
import {
  isThinkingReplayable,
  LEADING_USER_PLACEHOLDER,
  MERGE_DELIMITER,
  normalizeMessages,
} from "./normalize-messages";

const t = (text: string) => ({ type: "text" as const, text });

describe("normalizeMessages", () => {
  it("merges adjacent user messages into one text block with the delimiter", () => {
    const out = normalizeMessages(
      [
        { role: "user", content: [t("a")] },
        { role: "user", content: [t("b"), t("c")] },
      ],
      "openai-chat",
    );
    expect(out).toEqual([{ role: "user", content: [t(`a${MERGE_DELIMITER}b`), t("c")] }]);
  });

  it("keeps blocks apart across a thinking block when merging assistant messages", () => {
    const sig = thinking("why", { signature: "s", signedBy: "anthropic-messages" });
    const out = normalizeMessages(
      [
        { role: "user", content: [t("q")] },
        { role: "assistant", content: [t("one")] },
        { role: "assistant", content: [sig, t("two")] },
      ],
      "anthropic-messages",
    );
    expect(out[1]).toEqual({ role: "assistant", content: [t("one"), sig, t("two")] });
  });

  it("re-merges users that become adjacent after an assistant message is removed", () => {
    const foreign = thinking("x", { signedBy: "openai-chat" });
    const out = normalizeMessages(
      [
        { role: "user", content: [t("1")] },
        { role: "assistant", content: [foreign] },
        { role: "user", content: [t("2")] },
      ],
      "anthropic-messages",
    );
    expect(out).toEqual([{ role: "user", content: [t(`1${MERGE_DELIMITER}2`)] }]);
  });

  it("inserts the placeholder user message before a leading assistant message", () => {
    const out = normalizeMessages([{ role: "assistant", content: [t("hi")] }], "openai-chat");
    expect(out).toEqual([
      { role: "user", content: [t(LEADING_USER_PLACEHOLDER)] },
      { role: "assistant", content: [t("hi")] },
    ]);
  });

  it("does not mutate its input", () => {
    const input: ContextMessage[] = [
      { role: "user", content: [t("a")] },
      { role: "user", content: [t("b")] },
    ];
    const before = structuredClone(input);
    normalizeMessages(input, "openai-chat");
    expect(input).toEqual(before);
  });
});

describe("isThinkingReplayable", () => {
  it("needs the signing api, and for Anthropic a signature or redacted payload", () => {
    expect(isThinkingReplayable(thinking("t", { signedBy: "openai-chat" }), "openai-chat")).toBe(true);
    expect(isThinkingReplayable(thinking("t", { signedBy: "openai-chat" }), "anthropic-messages")).toBe(false);
    expect(isThinkingReplayable(thinking("t"), "openai-chat")).toBe(false);
    expect(isThinkingReplayable(thinking("t", { signedBy: "anthropic-messages" }), "anthropic-messages")).toBe(false);
    expect(
      isThinkingReplayable(thinking("", { signedBy: "anthropic-messages", signature: "s" }), "anthropic-messages"),
    ).toBe(true);
    expect(
      isThinkingReplayable(thinking("", { signedBy: "anthropic-messages", redactedData: "r" }), "anthropic-messages"),
    ).toBe(true);
  });
});
