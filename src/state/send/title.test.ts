import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import type { Entry, Session } from "../../core/session/entries";
import { titleFromText } from "../../core/session/title";
import { createSession, getSession, renameSession } from "../../db/sessions";
import { assistantMessage, freshDatabase, makeSession, userMessage } from "../../db/testing/database";
import type { SummarizeRequest } from "../../worker/client";
import { resetStores } from "../app/store-registry";
import { DEFAULT_SETTINGS } from "../settings/settings-model";
import { useSettingsStore } from "../settings/settings-store";
import { nameChatWithModel } from "./title";

async function chat(reply: Partial<Entry> = {}): Promise<Session> {
  const session = makeSession({
    title: titleFromText("How do I keep a sourdough starter alive on holiday?"),
    model: { providerId: "openai", modelId: "gpt-4o" },
  });
  const u = userMessage(session.id, null, "How do I keep a sourdough starter alive on holiday?");
  const a = { ...assistantMessage(session.id, u.id, "Feed it, then refrigerate it."), ...reply } as Entry;
  await createSession({ ...session, leafId: a.id }, [u, a]);
  return session;
}

function fakeSummarizer(answer: string | Error) {
  const requests: SummarizeRequest[] = [];
  const summarize = async (req: SummarizeRequest) => {
    requests.push(req);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { summarize, requests };
}

beforeEach(() => {
  freshDatabase();
  resetStores();
  const providers = DEFAULT_SETTINGS.providers.map((p) => ({ ...p, apiKey: `key-${p.id}` }));
  useSettingsStore.setState({ settings: { ...DEFAULT_SETTINGS, providers, modelTitles: true } });
});

describe("nameChatWithModel", () => {
  it("asks the summary model with the first exchange and applies the cleaned title", async () => {
    useSettingsStore.setState((s) => ({
      settings: { ...s.settings, summaryModel: { providerId: "anthropic", modelId: "claude-haiku-4-5" } },
    }));
    const s = await chat();
    const fake = fakeSummarizer('"Sourdough Starter on Holiday."');
    expect(await nameChatWithModel(s.id, fake)).toBe("Sourdough Starter on Holiday");
    expect((await getSession(s.id))?.title).toBe("Sourdough Starter on Holiday");
    const [req] = fake.requests;
    expect(req?.provider.id).toBe("anthropic");
    expect(req?.model).toBe("claude-haiku-4-5");
    expect(req?.prompt).toContain("How do I keep a sourdough starter alive on holiday?");
    expect(req?.prompt).toContain("Feed it, then refrigerate it.");
    expect(req?.prompt).toContain("3 to 6 words");
    expect(req?.system).toContain("You name conversations");
  });

  it("asks while the title is still the first words: a retried first reply after a naming asks nothing", async () => {
    const s = await chat();
    const fake = fakeSummarizer("Sourdough care");
    expect(await nameChatWithModel(s.id, fake)).toBe("Sourdough care");
    expect(await nameChatWithModel(s.id, fake)).toBeNull();
    expect(fake.requests).toHaveLength(1);
    expect((await getSession(s.id))?.title).toBe("Sourdough care");
  });

  it("without a summary model, the chat's own model names it", async () => {
    const s = await chat();
    const fake = fakeSummarizer("Sourdough care");
    await nameChatWithModel(s.id, fake);
    expect(fake.requests[0]?.model).toBe("gpt-4o");
  });

  it("does nothing when off, when the user renamed the chat, or without a complete reply", async () => {
    const fake = fakeSummarizer("Never used");
    useSettingsStore.setState((st) => ({ settings: { ...st.settings, modelTitles: false } }));
    const off = await chat();
    expect(await nameChatWithModel(off.id, fake)).toBeNull();
    useSettingsStore.setState((st) => ({ settings: { ...st.settings, modelTitles: true } }));

    const renamed = await chat();
    await renameSession(renamed.id, "My bread");
    expect(await nameChatWithModel(renamed.id, fake)).toBeNull();
    expect((await getSession(renamed.id))?.title).toBe("My bread");

    const failed = await chat({ status: "error" });
    expect(await nameChatWithModel(failed.id, fake)).toBeNull();
    expect(fake.requests).toHaveLength(0);
  });

  it("a failing call or an empty answer keeps the first-words title, silently", async () => {
    const s = await chat();
    expect(await nameChatWithModel(s.id, fakeSummarizer(new Error("401")))).toBeNull();
    expect(await nameChatWithModel(s.id, fakeSummarizer("  \n  "))).toBeNull();
    expect((await getSession(s.id))?.title).toBe(s.title);
  });
});
