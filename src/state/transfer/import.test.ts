import "fake-indexeddb/auto";
import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { exportGroveJson } from "../../core/export/grove-json";
import { createSession, listSessions } from "../../db/sessions";
import { assistantMessage, freshDatabase, makeSession, snapshot, userMessage } from "../../db/testing/database";
import { resetStores } from "../app/store-registry";
import { useUiStore } from "../app/ui-store";
import { cancelImport, dismissImport, importFile, resolveImportConflicts } from "./import";
import { useImportReportStore, useImportStore } from "./import-store";

function chatFile(title: string) {
  const session = makeSession({ title, titleSource: "user" });
  const u = userMessage(session.id, null, `${title}?`);
  const a = assistantMessage(session.id, u.id, `${title}!`);
  const exported = { session: { ...session, leafId: a.id }, entries: [u, a], labels: {} };
  return { exported, file: (name = "chats.json") => new File([exportGroveJson([exported])], name) };
}

const notices = () => useUiStore.getState().notices.map((n) => n.text);
const report = () => useImportReportStore.getState().report;
const fixture = (name: string) =>
  readFileSync(new URL(`../../core/export/testing/fixtures/${name}`, import.meta.url), "utf8");

beforeEach(() => {
  freshDatabase();
  resetStores();
  useImportStore.setState({ phase: "idle" }, true);
});

describe("importFile", () => {
  it("a new chat: written, the dialog closes, the report says what came in, and the chat opens", async () => {
    const { exported, file } = chatFile("Tea");
    await importFile(file());
    expect(useImportStore.getState()).toEqual({ phase: "idle" });
    expect(report()).toEqual({ text: "Imported “Tea” from a Grove JSON file.", unreadable: [] });
    expect(notices()).toEqual([]); // the report is beside the chat, not a notice over it
    expect(useUiStore.getState().sessionId).toBe(exported.session.id);
    expect((await listSessions()).map((s) => s.title)).toEqual(["Tea"]);
  });

  it("a chat that is already here: asks, then Skip writes nothing and says so", async () => {
    const { exported, file } = chatFile("Tea");
    await createSession(exported.session, exported.entries);
    const before = await snapshot();
    await importFile(file());
    const state = useImportStore.getState();
    expect(state.phase).toBe("confirm");
    if (state.phase === "confirm") expect(state.analysis.conflicts.map((c) => c.title)).toEqual(["Tea"]);
    await resolveImportConflicts("skip");
    expect(useImportStore.getState().phase).toBe("idle");
    expect(report()?.text).toBe("Nothing imported: every chat in the file is already here.");
    expect(await snapshot()).toEqual(before);
  });

  it("Keep both: a copy titled “… (imported)” is added and opened", async () => {
    const { exported, file } = chatFile("Tea");
    await createSession(exported.session, exported.entries);
    await importFile(file());
    await resolveImportConflicts("keep-both");
    const titles = (await listSessions()).map((s) => s.title).sort();
    expect(titles).toEqual(["Tea", "Tea (imported)"]);
    expect(useUiStore.getState().sessionId).not.toBe(exported.session.id);
  });

  it("a ChatGPT export with stub records: the rest comes in, the report counts and lists the skipped ones", async () => {
    await importFile(new File([fixture("chatgpt-2026-conversations.json")], "conversations.json"));
    expect(useImportStore.getState()).toEqual({ phase: "idle" });
    expect(report()).toEqual({
      text: 'Imported 5 chats from a ChatGPT export file · skipped 2 (no messages: "Corrupted entry", "Broken record").',
      unreadable: [
        { title: "Corrupted entry", reason: "no messages" },
        { title: "Broken record", reason: "no messages" },
      ],
    });
    expect(await listSessions()).toHaveLength(5);
    // The next import starts with no report of the last one.
    const { file } = chatFile("Tea");
    const next = importFile(file("tea.json"));
    expect(report()).toBeNull();
    await next;
  });

  it("Cancel at the question: nothing written, the dialog closes", async () => {
    const { exported, file } = chatFile("Tea");
    await createSession(exported.session, exported.entries);
    const before = await snapshot();
    await importFile(file());
    cancelImport();
    expect(useImportStore.getState()).toEqual({ phase: "idle" });
    await resolveImportConflicts("keep-both"); // too late: ignored
    expect(await snapshot()).toEqual(before);
  });

  it("a bad file: the error stays in the dialog until dismissed, and nothing is written", async () => {
    const before = await snapshot();
    await importFile(new File(['{"format":"grove-session-export","version":1,"sessions":['], "cut.json"));
    const state = useImportStore.getState();
    expect(state).toMatchObject({ phase: "error", fileName: "cut.json" });
    if (state.phase === "error") expect(state.message).toContain("truncated");
    dismissImport();
    expect(useImportStore.getState()).toEqual({ phase: "idle" });
    expect(await snapshot()).toEqual(before);
  });

  it("a file with no chats is an error, not a silent success", async () => {
    await importFile(new File(["[]"], "conversations.json"));
    expect(useImportStore.getState()).toMatchObject({ phase: "error", message: expect.stringContaining("no chats") });
  });
});
