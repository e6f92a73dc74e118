import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ChatIndex } from "../../core/search/chat-index";
import { asSessionId } from "../../core/session/ids";
import { userMessage } from "../testing/database";
import { createIndexSaver } from "./index-saver";
import { saveSegments } from "./search-store";

vi.mock("./search-store", () => ({ saveSegments: vi.fn(async () => {}) }));

const DELAY = 4_000;
const chat = { id: asSessionId("chat-1"), title: "Bread", updatedAt: 1_000 };

function changedIndex(): ChatIndex {
  const index = ChatIndex.empty();
  index.putChat(chat, true);
  index.addEntries(chat.id, [userMessage(chat.id, null, "How do I make it tangy?")]);
  return index;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.mocked(saveSegments).mockClear();
});
afterEach(() => vi.useRealTimers());

describe("the index saver", () => {
  it("saves once things are quiet after the last change", async () => {
    const saver = createIndexSaver(changedIndex(), { delayMs: DELAY, stopped: () => false });
    saver.changed();
    await vi.advanceTimersByTimeAsync(DELAY - 100);
    saver.changed(); // a burst of writes: the wait starts again
    await vi.advanceTimersByTimeAsync(DELAY - 100);
    expect(saveSegments).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(200);
    expect(saveSegments).toHaveBeenCalledTimes(1);
    expect(vi.mocked(saveSegments).mock.calls[0]![0].put.length).toBeGreaterThan(0);
  });

  it("waits for quiet after the last query too", async () => {
    const saver = createIndexSaver(changedIndex(), { delayMs: DELAY, stopped: () => false });
    saver.changed();
    await vi.advanceTimersByTimeAsync(DELAY - 1_000);
    saver.queried();
    await vi.advanceTimersByTimeAsync(1_500);
    expect(saveSegments).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(DELAY);
    expect(saveSegments).toHaveBeenCalledTimes(1);
  });

  it("flush saves now; cancel drops a waiting save; a stopped saver writes nothing", async () => {
    const saver = createIndexSaver(changedIndex(), { delayMs: DELAY, stopped: () => false });
    saver.changed();
    const flushing = saver.flush();
    await vi.advanceTimersByTimeAsync(10);
    await flushing;
    expect(saveSegments).toHaveBeenCalledTimes(1);

    const cancelled = createIndexSaver(changedIndex(), { delayMs: DELAY, stopped: () => false });
    cancelled.changed();
    cancelled.cancel();
    await vi.advanceTimersByTimeAsync(3 * DELAY);
    expect(saveSegments).toHaveBeenCalledTimes(1);

    const stopped = createIndexSaver(changedIndex(), { delayMs: DELAY, stopped: () => true });
    const flushed = stopped.flush();
    await vi.advanceTimersByTimeAsync(10);
    await flushed;
    expect(saveSegments).toHaveBeenCalledTimes(1);
  });
});
