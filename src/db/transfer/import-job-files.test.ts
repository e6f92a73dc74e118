import "fake-indexeddb/auto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { strToU8, zipSync } from "fflate";
import { beforeEach, describe, expect, it } from "vitest";
import { listSessions } from "../sessions";
import { freshDatabase, snapshot } from "../testing/database";
import { createImportJob } from "./import-job";

const FIXTURES = resolve(__dirname, "../../../../shared/fixtures/real-world");
const CLAUDE = resolve(__dirname, "../../core/testing/fixtures/claude-export.json");

/** The real-world ChatGPT conversation, given another id and title. */
function conversation(id: string, title: string): unknown {
  const [conv] = JSON.parse(readFileSync(resolve(FIXTURES, "chatgpt-tree.json"), "utf8")) as Record<string, unknown>[];
  return { ...conv, id, conversation_id: id, title };
}

beforeEach(() => freshDatabase());

describe("import job: several files, zips, Claude", () => {
  it("split ChatGPT files chosen together are one import, written in one go", async () => {
    const files = [
      new File([JSON.stringify([conversation("c1", "One"), conversation("c2", "Two")])], "conversations-000.json"),
      new File([JSON.stringify([conversation("c3", "Three")])], "conversations-001.json"),
    ];
    const job = createImportJob();
    expect(await job.analyze(files, "2 files", () => {})).toMatchObject({ kind: "ready", format: "chatgpt" });
    expect(await job.commit("keep-both", () => {})).toMatchObject({ kind: "done" });
    expect((await listSessions()).map((s) => s.title).sort()).toEqual(["One", "Three", "Two"]);
  });

  it("a malformed file among several: nothing is written, and the message names the file", async () => {
    const before = await snapshot();
    const files = [
      new File([JSON.stringify([conversation("c1", "One")])], "conversations-000.json"),
      new File([JSON.stringify([{ title: "Broken" }])], "conversations-001.json"),
    ];
    const analysis = await createImportJob().analyze(files, "2 files", () => {});
    expect(analysis.kind === "error" && analysis.message).toMatch(/^conversations-001\.json: Unknown file format/);
    expect(await snapshot()).toEqual(before);
  });

  it("a ChatGPT export .zip: its conversations files are imported, the rest ignored", async () => {
    const zip = zipSync({
      "conversations-000.json": strToU8(JSON.stringify([conversation("z1", "Zipped one")])),
      "conversations-001.json": strToU8(JSON.stringify([conversation("z2", "Zipped two")])),
      "chat.html": strToU8("<html></html>"),
    });
    const job = createImportJob();
    const analysis = await job.analyze(new Blob([zip]), "export.zip", () => {});
    expect(analysis).toMatchObject({ kind: "ready", sessions: [{ title: "Zipped one" }, { title: "Zipped two" }] });
    await job.commit("keep-both", () => {});
    expect(await listSessions()).toHaveLength(2);
  });

  it("a Claude export read twice is recognized by its conversation uuids (its empty conversation skipped each time)", async () => {
    const blob = new Blob([readFileSync(CLAUDE, "utf8")]);
    const once = createImportJob();
    expect(await once.analyze(blob, "conversations.json", () => {})).toMatchObject({
      kind: "ready",
      format: "claude",
      unreadable: [{ title: "Untitled draft", reason: "no messages" }],
    });
    await once.commit("keep-both", () => {});
    const again = createImportJob();
    const analysis = await again.analyze(blob, "conversations.json", () => {});
    expect(analysis.kind === "ready" && analysis.conflicts.length).toBe(2);
    expect(await again.commit("skip", () => {})).toMatchObject({
      kind: "done",
      imported: [],
      skipped: 2,
      unreadable: [{ title: "Untitled draft", reason: "no messages" }],
    });
    expect(await listSessions()).toHaveLength(2);
  });
});
