// @vitest-environment jsdom
import "fake-indexeddb/auto";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NO_COST } from "../../core/cost/cost";
import type { Entry } from "../../core/session/entries";
import { buildTreeIndex } from "../../core/session/tree";
import { at } from "../../core/testing/entries";
import { getComposerDraft, saveComposerDraft } from "../../db/composer-drafts";
import { closeDb, freshDatabase } from "../../db/testing/database";
import { composerDraftKey } from "../../state/composer/composer-drafts";
import { RenderBoundary } from "../common/RenderBoundary";
import type { SessionView } from "../hooks";
import { DraftFailed } from "./DraftFailed";
import type { DisplayRow } from "./display-rows";
import { EntryView } from "./EntryView";

beforeEach(freshDatabase);
afterEach(() => {
  cleanup();
  closeDb();
  vi.restoreAllMocks();
});

const marker = at({ id: "m1" as Entry["id"], type: "model_change", provider: "openai", modelId: "gpt-5" }, null, 1);
// A row no renderer knows (a newer version's entry type, a hostile record): rendering it throws.
const alien = { ...at({ id: "x1" as Entry["id"], type: "custom", customType: "x" } as never, "m1", 2), type: "alien" };
const rowOf = (entry: Entry): DisplayRow =>
  ({ kind: "entry", entry, continuations: [], visibility: "shown", continuable: false, pruned: false }) as never;
const view: SessionView = {
  session: undefined,
  index: buildTreeIndex([marker]),
  cost: NO_COST,
  path: [marker],
  loaded: true,
  complete: true,
};

describe("a message whose render throws (issue 24.11)", () => {
  it("shows a plain error for that message, and the rest of the chat renders", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {}); // React reports the caught error
    render(
      <main>
        <EntryView row={rowOf(alien as unknown as Entry)} view={view} />
        <EntryView row={rowOf(marker)} view={view} />
      </main>,
    );
    // The error's view is a chunk of its own (lazy-chat.tsx): it comes once loaded.
    const failed = await screen.findByRole("article", { name: "Message that could not be shown" });
    expect(failed.textContent).toContain("This message could not be shown");
    expect(screen.getByRole("note", { name: /gpt-5/ })).toBeDefined();
  });
});

describe("a composer draft that cannot be shown (issue 24.11)", () => {
  function Breaks({ text }: { text: string }): never {
    throw new RangeError(`Maximum call stack size exceeded (${text.length} characters)`);
  }
  function Composer() {
    const [draft] = useState("```".repeat(300_000));
    return <Breaks text={draft} />;
  }

  it("says so with Discard draft, which drops the stored draft and gives the composer back", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    await saveComposerDraft(composerDraftKey(null), "a draft that breaks rendering");
    let breaks = true;
    function Maybe() {
      return breaks ? <Composer /> : <p>Empty composer</p>;
    }
    render(
      <RenderBoundary
        fallback={(error, retry) => (
          <DraftFailed
            sessionId={null}
            error={error}
            onDiscarded={() => {
              breaks = false;
              retry();
            }}
          />
        )}
      >
        <Maybe />
      </RenderBoundary>,
    );
    expect(screen.getByRole("alert").textContent).toContain("The draft in this chat could not be shown");
    fireEvent.click(screen.getByRole("button", { name: "Discard draft" }));
    await screen.findByText("Empty composer");
    await waitFor(async () => expect(await getComposerDraft(composerDraftKey(null))).toBe(""));
  });
});
