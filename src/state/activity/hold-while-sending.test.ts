import { afterEach, describe, expect, it, vi } from "vitest";
import type { EntryId, SessionId } from "../../core/session/ids";
import { useStreamStore } from "../reply/stream-store";
import { holdWhileSending } from "./hold-while-sending";
import { useHoldStore } from "./holds";

const hold = vi.fn<(held: boolean) => void>();

const chat = "s1" as SessionId;
const reply = (phase: "preparing" | "streaming" | "unsaved") => ({
  sessionId: chat,
  checkpointId: "d1" as EntryId,
  parentId: "p1" as EntryId,
  partial: { content: [], providerId: "mock", api: "openai-responses" as const, model: "m" },
  retry: null,
  phase,
  saveError: null,
});

afterEach(() => {
  useHoldStore.setState({ busy: {} });
  useStreamStore.setState({ replies: {} });
  hold.mockClear();
});

const told = (): boolean[] => hold.mock.calls.map(([held]) => held);

describe("holdWhileSending", () => {
  it("holds background work from the send to the reply's end, once each way", () => {
    const stop = holdWhileSending([hold]);
    useHoldStore.setState({ busy: { [chat]: 1 } });
    useStreamStore.setState({ replies: { [chat]: reply("preparing") } });
    useHoldStore.setState({ busy: {} });
    useStreamStore.setState({ replies: { [chat]: reply("streaming") } });
    expect(told()).toEqual([true]);
    useStreamStore.setState({ replies: {} });
    expect(told()).toEqual([true, false]);
    stop();
  });

  it("a reply kept on screen unsaved (disk full) does not hold background work", () => {
    const stop = holdWhileSending([hold]);
    useStreamStore.setState({ replies: { [chat]: reply("unsaved") } });
    expect(told()).toEqual([]);
    stop();
  });
});
