import "fake-indexeddb/auto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { checkSessionGraph, type ExportedSession, exportGroveJson } from "../../core/export/grove-json";
import type { Entry } from "../../core/session/entries";
import { readAllForExport, readSessionForExport } from "../export";
import { createSession, listSessions } from "../sessions";
import { assistantMessage, compaction, freshDatabase, makeSession, snapshot, userMessage } from "../testing/database";
import { COPY_SUFFIX, createImportJob, type ImportProgress } from "./import-job";

const FIXTURES = resolve(__dirname, "../../../../shared/fixtures/real-world");

function sample(title: string): ExportedSession {
  const session = makeSession({ title, titleSource: "user" });
  const u = userMessage(session.id, null, `${title}: hello`);
  const a = assistantMessage(session.id, u.id, "hi");
  const u2 = userMessage(session.id, a.id, "more");
  const c = { ...compaction(session.id, u2.id, "digest"), firstKeptEntryId: u2.id, keptUserTurnIds: [u.id] };
  const entries: Entry[] = [u, a, u2, c];
  return { session: { ...session, leafId: c.id }, entries, labels: { [a.id]: "answer" } };
}

const file = (text: string, name = "x.json") => ({ blob: new Blob([text]), name });

beforeEach(() => freshDatabase());

describe("import job", () => {
  it("a Grove JSON file into an empty database: read, checked, written, with progress; exporting again gives the same file", async () => {
    const text = exportGroveJson([sample("One"), sample("Two")]);
    const job = createImportJob();
    const progress: ImportProgress[] = [];
    const f = file(text, "backup.json");
    const analysis = await job.analyze(f.blob, f.name, (p) => progress.push(p));
    expect(analysis).toMatchObject({ kind: "ready", format: "grove-json", conflicts: [], totalEntries: 8 });
    expect(progress.at(-2)).toEqual({ phase: "reading", bytesRead: f.blob.size, totalBytes: f.blob.size });
    expect(progress.at(-1)).toEqual({ phase: "checking" });

    const outcome = await job.commit("keep-both", (p) => progress.push(p));
    expect(outcome).toMatchObject({ kind: "done", skipped: 0, entries: 8 });
    expect(progress.at(-1)).toEqual({ phase: "writing", entriesWritten: 8, totalEntries: 8 });
    const all = await readAllForExport();
    const byTitle = (t: string) => all.find((s) => s.session.title === t)!;
    expect(exportGroveJson([byTitle("One"), byTitle("Two")])).toBe(text);
  });

  it("a session that exists: Skip imports only the others, and leaves the existing one exactly as it was", async () => {
    const here = sample("Here");
    await createSession(here.session, here.entries);
    const before = await readSessionForExport(here.session.id);
    const job = createImportJob();
    const f = file(exportGroveJson([here, sample("New")]));
    const analysis = await job.analyze(f.blob, f.name, () => {});
    if (analysis.kind !== "ready") throw new Error(analysis.kind);
    expect(analysis.conflicts.map((c) => c.title)).toEqual(["Here"]);

    const outcome = await job.commit("skip", () => {});
    expect(outcome).toMatchObject({ kind: "done", skipped: 1 });
    expect((await listSessions()).map((s) => s.title).sort()).toEqual(["Here", "New"]);
    expect(await readSessionForExport(here.session.id)).toEqual(before);
  });

  it("Keep both: the copy has new ids everywhere, its references point into the copy, and the original is untouched", async () => {
    const here = sample("Here");
    await createSession(here.session, here.entries);
    const job = createImportJob();
    const f = file(exportGroveJson([here]));
    await job.analyze(f.blob, f.name, () => {});
    const outcome = await job.commit("keep-both", () => {});
    if (outcome.kind !== "done") throw new Error(outcome.kind);

    const copyId = outcome.imported[0]!.id;
    expect(copyId).not.toBe(here.session.id);
    const copy = (await readSessionForExport(copyId))!;
    expect(copy.session.title).toBe(`Here${COPY_SUFFIX}`);
    expect(checkSessionGraph([copy])).toBeNull();
    const oldIds = new Set(here.entries.map((e) => e.id));
    expect(copy.entries.filter((e) => oldIds.has(e.id))).toEqual([]);
    const c = copy.entries.find((e) => e.type === "compaction")!;
    if (c.type !== "compaction") throw new Error();
    const copyIds = new Set(copy.entries.map((e) => e.id));
    expect(copyIds.has(c.firstKeptEntryId!)).toBe(true);
    expect(c.keptUserTurnIds.every((id) => copyIds.has(id))).toBe(true);
    expect(copyIds.has(copy.session.leafId!)).toBe(true);
    expect(Object.keys(copy.labels).every((id) => copyIds.has(id as never))).toBe(true);
    expect(Object.values(copy.labels)).toEqual(["answer"]);
    expect(await readSessionForExport(here.session.id)).toMatchObject({ session: here.session });
  });

  it.each([
    ["not JSON", "hello there", "not valid JSON"],
    ["truncated", '{"format":"grove-session-export","version":1,"sessions":[', "truncated"],
    ["an unknown format", '{"format":"something-else"}', "Unknown file format"],
    ["a newer version", '{"format":"grove-session-export","version":9,"sessions":[]}', "version 9"],
    ["empty", "", "empty"],
    ["JSON of no known shape", '{"hello":1}', "Unknown file format"],
  ])("%s: a clear error and nothing written", async (_what, text, message) => {
    const existing = sample("Existing");
    await createSession(existing.session, existing.entries);
    const before = await snapshot();
    const job = createImportJob();
    const f = file(text);
    const analysis = await job.analyze(f.blob, f.name, () => {});
    expect(analysis.kind).toBe("error");
    if (analysis.kind === "error") expect(analysis.message).toContain(message);
    expect(await job.commit("keep-both", () => {})).toMatchObject({ kind: "error" });
    expect(await snapshot()).toEqual(before);
  });

  it("a file over the size limit is refused before it is read", async () => {
    const job = createImportJob();
    const huge = {
      size: 3 * 1024 ** 3,
      stream: () => {
        throw new Error("must not be read");
      },
    } as unknown as Blob;
    const analysis = await job.analyze(huge, "huge.json", () => {});
    expect(analysis).toEqual({ kind: "error", message: expect.stringContaining("up to 500.0 MB") });
  });

  it("the real ChatGPT export: one chat with every branch, written", async () => {
    const text = readFileSync(resolve(FIXTURES, "chatgpt-tree.json"), "utf8");
    const job = createImportJob();
    const f = file(text, "conversations.json");
    const analysis = await job.analyze(f.blob, f.name, () => {});
    expect(analysis).toMatchObject({ kind: "ready", format: "chatgpt", formatName: "a ChatGPT export" });
    const outcome = await job.commit("keep-both", () => {});
    if (outcome.kind !== "done") throw new Error(outcome.kind);
    const [s] = await readAllForExport();
    expect(s!.entries.length).toBe(analysis.kind === "ready" ? analysis.totalEntries : -1);
    expect(checkSessionGraph([s!])).toBeNull();
  });

  it("the real pi session with two compactions: written whole, the leaf and both compactions in place", async () => {
    const text = readFileSync(resolve(FIXTURES, "pi-session-v1-with-compactions.jsonl"), "utf8");
    const job = createImportJob();
    const f = file(text, "session.jsonl");
    const analysis = await job.analyze(f.blob, f.name, () => {});
    expect(analysis).toMatchObject({ kind: "ready", format: "pi-jsonl", conflicts: [] });
    const outcome = await job.commit("keep-both", () => {});
    if (outcome.kind !== "done") throw new Error(outcome.kind);
    const [s] = await readAllForExport();
    expect(checkSessionGraph([s!])).toBeNull();
    const compactions = s!.entries.filter((e) => e.type === "compaction");
    expect(compactions.map((c) => c.type === "compaction" && c.tokensBefore)).toEqual([175_004, 185_014]);
    const ids = new Set(s!.entries.map((e) => e.id));
    expect(compactions.every((c) => c.type === "compaction" && ids.has(c.firstKeptEntryId!))).toBe(true);
    expect(ids.has(s!.session.leafId!)).toBe(true);
  });

  it("the same ChatGPT export a second time is recognized: Skip keeps one copy, Keep both adds another", async () => {
    const text = readFileSync(resolve(FIXTURES, "chatgpt-tree.json"), "utf8");
    const once = createImportJob();
    const f = file(text, "conversations.json");
    await once.analyze(f.blob, f.name, () => {});
    await once.commit("keep-both", () => {});
    const [first] = await readAllForExport();
    expect(first?.session.importedFrom).toBe("chatgpt:d5dc5307-6807-41a0-8b04-4acee626eeb7");

    const again = createImportJob();
    const analysis = await again.analyze(f.blob, f.name, () => {});
    expect(analysis).toMatchObject({ kind: "ready", conflicts: [{ title: "Assist user with summary" }] });
    expect(await again.commit("skip", () => {})).toMatchObject({ kind: "done", imported: [], skipped: 1 });
    expect(await listSessions()).toHaveLength(1);

    const third = createImportJob();
    await third.analyze(f.blob, f.name, () => {});
    await third.commit("keep-both", () => {});
    expect((await listSessions()).map((s) => s.title).sort()).toEqual([
      "Assist user with summary",
      `Assist user with summary${COPY_SUFFIX}`,
    ]);
  });

  it("cancelled while writing: nothing is kept", async () => {
    const before = await snapshot();
    const job = createImportJob();
    const f = file(exportGroveJson([sample("A"), sample("B")]));
    await job.analyze(f.blob, f.name, () => {});
    job.cancel();
    // cancel() before commit applies to the next run only if it is called during it:
    const outcome = await job.commit("keep-both", (p) => {
      if (p.phase === "writing" && p.entriesWritten === 0) job.cancel();
    });
    expect(outcome).toEqual({ kind: "cancelled" });
    expect(await snapshot()).toEqual(before);
  });
});
