import { afterEach, describe, expect, it } from "vitest";
import type { EntryId, SessionId } from "../../core/session/ids";
import { beginMaintenance, endMaintenance } from "../maintenance/lock";
import { controllers } from "../reply/reply-lane";
import { type ActiveReply, useStreamStore } from "../reply/stream-store";
import { anyChatSending, chatActivity } from "./chat-activity";
import { holdSession } from "./holds";

const chat = "s1" as SessionId;
const other = "s2" as SessionId;

const reply = (phase: ActiveReply["phase"]): ActiveReply => ({
  sessionId: chat,
  checkpointId: "d1" as EntryId,
  parentId: "p1" as EntryId,
  partial: { content: [], providerId: "mock", api: "openai-responses", model: "m" },
  retry: null,
  phase,
  saveError: null,
});

afterEach(() => controllers.clear());

const answers = (id: SessionId = chat) => {
  const { idle, replying, sending } = chatActivity(id);
  return { idle, replying, sending };
};

describe("chatActivity: one answer to 'is this chat busy?'", () => {
  it("is idle with nothing running", () => {
    expect(answers()).toEqual({ idle: true, replying: false, sending: false });
    expect(anyChatSending()).toBe(false);
  });

  it("maintenance on this chat: not idle (a message queues), but not sending; on another chat: idle", () => {
    const ac = beginMaintenance(other, { kind: "compaction", reason: "manual" }, 0);
    expect(answers()).toEqual({ idle: true, replying: false, sending: false });
    expect(chatActivity(other)).toMatchObject({ maintaining: true, idle: false, sending: false });
    if (ac) endMaintenance(ac);
  });

  it("a send held from the Enter to the reply's end: not idle, sending", () => {
    const release = holdSession(chat);
    expect(answers()).toEqual({ idle: false, replying: false, sending: true });
    expect(anyChatSending()).toBe(true);
    release();
    expect(answers()).toEqual({ idle: true, replying: false, sending: false });
  });

  it("a reply shown before its request: sending; once requested: replying too", () => {
    useStreamStore.setState({ replies: { [chat]: reply("preparing") } });
    expect(answers()).toEqual({ idle: false, replying: false, sending: true });
    controllers.set(chat, new AbortController());
    useStreamStore.setState({ replies: { [chat]: reply("streaming") } });
    expect(answers()).toEqual({ idle: false, replying: true, sending: true });
  });

  it("a reply kept unsaved (disk full): replying (no maintenance), not sending (background work goes on), not idle", () => {
    useStreamStore.setState({ replies: { [chat]: reply("unsaved") } });
    expect(answers()).toEqual({ idle: false, replying: true, sending: false });
    expect(anyChatSending()).toBe(false);
  });
});
