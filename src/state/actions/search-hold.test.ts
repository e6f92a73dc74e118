import { afterEach, describe, expect, it, vi } from "vitest";
import type { EntryId, SessionId } from "../../core/session/ids";
import { useMaintenanceStore, useStreamStore } from "../stores";
import { holdSearchWhileSending } from "./search";

const holdIndexing = vi.fn();
vi.mock("../../db/search/client", () => ({ holdIndexing: (held: boolean) => holdIndexing(held) }));

const chat = "s1" as SessionId;
const reply = (phase: "preparing" | "streaming" | "unsaved") => ({
  sessionId: chat,
  draftId: "d1" as EntryId,
  parentId: "p1" as EntryId,
  partial: { content: [], providerId: "mock", api: "openai-responses" as const, model: "m" },
  retry: null,
  phase,
  saveError: null,
});

afterEach(() => {
  useMaintenanceStore.setState({ busy: {} });
  useStreamStore.setState({ replies: {} });
  holdIndexing.mockClear();
});

/** The holds the search worker was told of, once the lazily loaded client has them. */
async function told(): Promise<boolean[]> {
  await vi.dynamicImportSettled();
  return holdIndexing.mock.calls.map(([held]) => held as boolean);
}

describe("holdSearchWhileSending", () => {
  it("holds indexing from the send to the reply's end, once each way", async () => {
    const stop = holdSearchWhileSending();
    useMaintenanceStore.setState({ busy: { [chat]: 1 } });
    useStreamStore.setState({ replies: { [chat]: reply("preparing") } });
    useMaintenanceStore.setState({ busy: {} });
    useStreamStore.setState({ replies: { [chat]: reply("streaming") } });
    expect(await told()).toEqual([true]);
    useStreamStore.setState({ replies: {} });
    expect(await told()).toEqual([true, false]);
    stop();
  });

  it("a reply kept on screen unsaved (disk full) does not hold indexing", async () => {
    const stop = holdSearchWhileSending();
    useStreamStore.setState({ replies: { [chat]: reply("unsaved") } });
    expect(await told()).toEqual([]);
    stop();
  });
});
