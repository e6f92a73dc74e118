import { afterEach, describe, expect, it } from "vitest";
import { resetStores } from "./store-registry";
import { clearFixedNotices, pushNotice, useUiStore } from "./ui-store";

afterEach(() => resetStores());

describe("notices", () => {
  it("the same words again are one notice with a count, moved to the end", () => {
    pushNotice("error", "No key");
    pushNotice("info", "Copied.");
    pushNotice("error", "No key");
    const notices = useUiStore.getState().notices;
    expect(notices.map((n) => [n.text, n.count])).toEqual([
      ["Copied.", 1],
      ["No key", 2],
    ]);
  });

  it("an error goes once its cause is fixed; others stay", () => {
    pushNotice("error", "No Anthropic key", { cause: { kind: "missing-key", providerId: "anthropic" } });
    pushNotice("error", "No OpenAI key", { cause: { kind: "missing-key", providerId: "openai" } });
    pushNotice("error", "Disk full");
    clearFixedNotices((cause) => cause.providerId === "anthropic");
    expect(useUiStore.getState().notices.map((n) => n.text)).toEqual(["No OpenAI key", "Disk full"]);
  });
});
