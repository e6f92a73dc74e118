import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Entry } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { getEntries } from "../../db/entries";
import { getSession } from "../../db/sessions";
import { freshDatabase } from "../../db/testing/database";
import { resetStores } from "../app/store-registry";
import { useUiStore } from "../app/ui-store";
import { useStreamStore } from "../reply/stream-store";
import { DEFAULT_SETTINGS } from "../settings/settings-model";
import { useSettingsStore } from "../settings/settings-store";
import { REFUSED_ENDPOINT } from "../testing/settings";
import { useQueueStore } from "./queue-store";
import { startQueueFlusher } from "./queued-message";
import { sendMessage, sendQueuedMessage } from "./send";

// send.ts loads the reply engine on demand; loaded here first, so a test waits on the send, not on
// transforming that module graph the first time.
await import("../maintenance/triggers");

let stopFlusher = () => {};

beforeEach(() => {
  freshDatabase();
  resetStores();
  // A keyless custom provider on a plain-http host nobody confirmed: every reply is an error entry
  // written at once (the endpoint is refused before any network).
  useSettingsStore.setState({ settings: REFUSED_ENDPOINT, loaded: true });
  stopFlusher = startQueueFlusher(sendQueuedMessage);
});
afterEach(() => {
  stopFlusher();
  resetStores();
});

const text = (e: Entry) => (e.type === "message" ? e.content.map((b) => ("text" in b ? b.text : "")).join("") : "");

describe("a message sent while the reply to the previous one is pending", () => {
  it("is queued at once, then sent as the child of that reply: one branch, no fork", async () => {
    const first = sendMessage("First");
    // The chat is busy from the first instant: the reply placeholder is shown before anything is read.
    const second = sendMessage("Second");
    const sessionId = (await first) as SessionId;
    expect(await second).toBe(sessionId);
    expect(useUiStore.getState().sessionId).toBe(sessionId);

    await vi.waitFor(
      async () => {
        const entries = await getEntries(sessionId);
        expect(entries).toHaveLength(4);
        expect(useQueueStore.getState().queued[sessionId]).toBeUndefined();
        expect(useStreamStore.getState().replies[sessionId]).toBeUndefined();
      },
      { timeout: 5_000, interval: 10 },
    );
    const entries = await getEntries(sessionId);
    const byId = new Map(entries.map((e) => [e.id, e]));
    // A single chain: user "First" → its reply → user "Second" → its reply.
    const chain: Entry[] = [];
    let id = (await getSession(sessionId))?.leafId ?? null;
    while (id) {
      const e = byId.get(id);
      if (!e) break;
      chain.unshift(e);
      id = e.parentId;
    }
    expect(chain).toHaveLength(4);
    expect(chain.map((e) => (e.type === "message" ? e.role : e.type))).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(text(chain[0]!)).toBe("First");
    expect(text(chain[2]!)).toBe("Second");
  });
});

describe("a send without a key", () => {
  it("stores and sends nothing, and says what to do instead of blaming the provider", async () => {
    useSettingsStore.setState({ settings: DEFAULT_SETTINGS, loaded: true });
    expect(await sendMessage("Hello")).toBeNull();
    expect(useUiStore.getState().sessionId).toBeNull();
    const notice = useUiStore.getState().notices.at(-1)?.text ?? "";
    expect(notice).toContain("Nothing was sent: there is no Anthropic API key yet");
    expect(notice).not.toMatch(/rejected/);
  });
});
