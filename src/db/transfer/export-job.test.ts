import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import { parseGroveJson } from "../../core/export/grove-json";
import { parsePiJsonl } from "../../core/export/pi/import";
import { asSessionId } from "../../core/session/ids";
import { setLabel } from "../labels";
import { createSession } from "../sessions";
import { setSetting } from "../settings";
import { saveConnection } from "../sync/sync-meta";
import { assistantMessage, freshDatabase, makeSession, userMessage } from "../testing/database";
import { runExport } from "./export-job";

const NOW = Date.UTC(2026, 10, 21, 12);

async function seedChat(title: string, updatedAt: number) {
  const session = makeSession({ title, titleSource: "user", updatedAt });
  const u = userMessage(session.id, null, `${title}: question`);
  const a = assistantMessage(session.id, u.id, `${title}: answer`);
  await createSession({ ...session, leafId: a.id }, [u, a]);
  await setLabel(a.id, "good one");
  return session.id;
}

const textOf = async (outcome: Awaited<ReturnType<typeof runExport>>) => {
  if (outcome.kind !== "ok") throw new Error(outcome.message);
  return { name: outcome.file.fileName, type: outcome.file.blob.type, text: await outcome.file.blob.text() };
};

const SYNC_PASSWORD = "couch-password-secret";
/** A sync connection kept here, its password beside the other settings (issue 30 item 6). */
const saveSyncPassword = () =>
  saveConnection({
    config: { url: "https://couch.example.com/grove", username: "me", password: SYNC_PASSWORD },
    dbUrl: "https://couch.example.com/grove",
    keys: {} as never,
    node: "n1",
  });

beforeEach(() => freshDatabase());

describe("runExport", () => {
  it("one chat as Grove JSON: its entries and labels, no settings or keys", async () => {
    const id = await seedChat("Trip: Alps/Dolomites?", 10);
    await seedChat("Other", 20);
    await setSetting("providers", [{ id: "anthropic", apiKey: "sk-ant-secret" }]);
    await saveSyncPassword();
    const file = await textOf(
      await runExport({ kind: "session", sessionId: id, format: "grove-json", allBranches: false, now: NOW }),
    );
    expect(file.name).toBe("Trip Alps Dolomites 2026-11-21.grove.json");
    expect(file.type).toBe("application/json;charset=utf-8");
    expect(file.text).not.toContain("sk-ant-secret");
    expect(file.text).not.toContain(SYNC_PASSWORD);
    const parsed = parseGroveJson(file.text);
    if (parsed.kind !== "ok") throw new Error(parsed.message);
    expect(parsed.sessions.map((s) => [s.session.title, s.entries.length, Object.values(s.labels)])).toEqual([
      ["Trip: Alps/Dolomites?", 2, ["good one"]],
    ]);
  });

  it("Export all: every chat, most recent first, named by the day; never the sync password", async () => {
    await seedChat("Older", 10);
    await seedChat("Newer", 20);
    await saveSyncPassword();
    const file = await textOf(await runExport({ kind: "all", now: NOW }));
    expect(file.text).not.toContain(SYNC_PASSWORD);
    expect(file.name).toBe("Grove chats 2026-11-21.grove.json");
    const parsed = parseGroveJson(file.text);
    expect(parsed.kind === "ok" && parsed.sessions.map((s) => s.session.title)).toEqual(["Newer", "Older"]);
  });

  it("Markdown, HTML and pi JSONL of the same chat", async () => {
    const id = await seedChat("Notes", 10);
    const request = (format: "markdown" | "html" | "pi-jsonl") =>
      runExport({ kind: "session", sessionId: id, format, allBranches: true, now: NOW });
    const md = await textOf(await request("markdown"));
    expect(md.name).toBe("Notes 2026-11-21.md");
    expect(md.text).toMatch(/^# Notes/);
    expect(md.text).toContain("Notes: answer");
    const html = await textOf(await request("html"));
    expect(html.name).toBe("Notes 2026-11-21.html");
    expect(html.text).toContain("Content-Security-Policy");
    const pi = await textOf(await request("pi-jsonl"));
    expect(pi.name).toBe("Notes 2026-11-21.jsonl");
    const back = parsePiJsonl(pi.text);
    expect(back.kind === "ok" && back.sessions[0]!.entries.length).toBe(2);
  });

  it("a chat that no longer exists is an error, not an empty file", async () => {
    const outcome = await runExport({
      kind: "session",
      sessionId: asSessionId("gone"),
      format: "markdown",
      allBranches: false,
      now: NOW,
    });
    expect(outcome).toEqual({ kind: "error", message: "the chat no longer exists" });
  });
});
