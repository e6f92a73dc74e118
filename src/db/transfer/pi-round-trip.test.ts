/**
 * A pi session through the whole pipeline (import job → IndexedDB → export job) gives pi the
 * same context at every leaf: images go to the blobs table under their SHA-256 and come back
 * byte for byte.
 */
import "fake-indexeddb/auto";
import { buildSessionContext } from "@mariozechner/pi-coding-agent";
import { beforeEach, describe, expect, it } from "vitest";
import { everyKindSession, PNG_BASE64, piEntries, piLeaves } from "../../core/export/pi/testing/pi-sessions";
import { readAllForExport } from "../export";
import { getDb } from "../schema";
import { freshDatabase } from "../testing/database";
import { runExport } from "./export-job";
import { createImportJob } from "./import-job";

beforeEach(() => freshDatabase());

async function importText(text: string) {
  const job = createImportJob();
  const analysis = await job.analyze(new Blob([text]), "session.jsonl", () => {});
  expect(analysis).toMatchObject({ kind: "ready", format: "pi-jsonl" });
  expect(await job.commit("keep-both", () => {})).toMatchObject({ kind: "done" });
}

describe("a pi session through Grove's database", () => {
  it("stores pi images as content-addressed blobs and exports them back: pi's context is unchanged", async () => {
    const original = everyKindSession();
    await importText(original);
    const blobs = await getDb().blobs.toArray();
    expect(blobs).toHaveLength(1); // the same picture twice is one blob
    const [blob] = blobs;
    const hash = new Uint8Array(
      await crypto.subtle.digest(
        "SHA-256",
        Uint8Array.from(atob(PNG_BASE64), (c) => c.charCodeAt(0)),
      ),
    );
    expect(blob?.id).toBe([...hash].map((b) => b.toString(16).padStart(2, "0")).join(""));
    expect(blob?.mimeType).toBe("image/png");

    const [stored] = await readAllForExport();
    if (!stored) throw new Error("nothing imported");
    const images = stored.entries
      .flatMap((e) => (e.type === "message" ? e.content : []))
      .filter((b) => b.type === "image");
    expect(images.map((b) => b.type === "image" && b.blobId)).toEqual([blob?.id, blob?.id]);

    const outcome = await runExport({
      kind: "session",
      sessionId: stored.session.id,
      format: "pi-jsonl",
      allBranches: true,
      now: 0,
    });
    if (outcome.kind !== "ok") throw new Error(outcome.message);
    const exported = await outcome.file.blob.text();
    const before = piEntries(original);
    const after = piEntries(exported);
    const afterIds = new Set(after.map((e) => e.id));
    const byId = new Map(before.map((e) => [e.id, e]));
    for (const leaf of piLeaves(before)) {
      let at: (typeof before)[number] | undefined = leaf;
      while (at && !afterIds.has(at.id)) at = at.parentId ? byId.get(at.parentId) : undefined;
      expect(buildSessionContext(after, at?.id)).toEqual(buildSessionContext(before, leaf.id));
    }
  });

  it("the same pi file again is recognized (Skip keeps one copy)", async () => {
    const text = everyKindSession();
    await importText(text);
    const job = createImportJob();
    const analysis = await job.analyze(new Blob([text]), "again.jsonl", () => {});
    expect(analysis).toMatchObject({ kind: "ready", conflicts: [expect.anything()] });
    expect(await job.commit("skip", () => {})).toMatchObject({ kind: "done", skipped: 1 });
    expect(await getDb().sessions.count()).toBe(1);
  });
});
