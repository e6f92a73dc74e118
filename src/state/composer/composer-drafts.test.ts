import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { newSessionId } from "../../core/session/ids";
import { getComposerDraft } from "../../db/composer-drafts";
import { closeDb, freshDatabase } from "../../db/testing/database";
import {
  COMPOSER_DRAFT_DEBOUNCE_MS,
  clearComposerDraft,
  composerDraftChanged,
  flushComposerDraft,
  loadComposerDraft,
} from "./composer-drafts";

beforeEach(freshDatabase);
afterEach(() => {
  vi.useRealTimers();
  closeDb();
});

describe("composer drafts", () => {
  it("are written once typing pauses, not per keystroke, and per chat", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const a = newSessionId();
    const b = newSessionId();
    for (const text of ["H", "He", "Hel", "Hello"]) composerDraftChanged(a, text);
    composerDraftChanged(b, "Other chat");
    expect(await getComposerDraft(a)).toBe("");
    // Before it is written, the chat's own pending text is what opening it shows.
    expect(await loadComposerDraft(a)).toBe("Hello");
    vi.advanceTimersByTime(COMPOSER_DRAFT_DEBOUNCE_MS);
    vi.useRealTimers();
    await vi.waitFor(async () => expect(await getComposerDraft(a)).toBe("Hello"));
    expect(await getComposerDraft(b)).toBe("Other chat");
  });

  it("leaving the chat writes it at once; sending clears it; the new-chat screen has its own", async () => {
    const a = newSessionId();
    composerDraftChanged(a, "Half a thought");
    composerDraftChanged(null, "A new chat's first words");
    await flushComposerDraft(a);
    await flushComposerDraft(null);
    expect(await loadComposerDraft(a)).toBe("Half a thought");
    expect(await loadComposerDraft(null)).toBe("A new chat's first words");
    await clearComposerDraft(a);
    expect(await loadComposerDraft(a)).toBe("");
    expect(await loadComposerDraft(null)).toBe("A new chat's first words");
  });
});
