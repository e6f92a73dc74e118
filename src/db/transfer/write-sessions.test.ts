import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import { blobIdOf } from "../../core/attachments/blob-id";
import { type ExportedSession, exportGroveJson, parseGroveJson } from "../../core/export/grove-json";
import { isQuotaError } from "../../core/quota-error";
import { codeFilesData } from "../../core/session/code-files";
import type { Entry } from "../../core/session/entries";
import { asEntryId, type BlobId } from "../../core/session/ids";
import { storeBlob } from "../blobs";
import { readAllForExport, readSessionForExport } from "../export";
import { setLabel } from "../labels";
import { createSession, listSessions } from "../sessions";
import {
  assistantMessage,
  branchSummary,
  compaction,
  freshDatabase,
  getDb,
  makeSession,
  snapshot,
  userMessage,
} from "../testing/database";
import { findIdConflicts, ImportCancelledError, writeImportedSessions } from "./write-sessions";

/** A session with a branch, a compaction and a branch summary, `turns` user/assistant pairs long. */
function sampleSession(title: string, turns = 2): ExportedSession {
  const session = makeSession({ title, titleSource: "user" });
  const entries: Entry[] = [];
  let parent: Entry | null = null;
  for (let i = 0; i < turns; i++) {
    const u = userMessage(session.id, parent?.id ?? null, `${title} question ${i}`);
    const a = assistantMessage(session.id, u.id, `${title} answer ${i}`);
    entries.push(u, a);
    parent = a;
  }
  const first = entries[0]!;
  const sibling = userMessage(session.id, first.id, `${title} other branch`);
  const bs = branchSummary(session.id, parent!.id, sibling.id, "the other branch tried X");
  const c = { ...compaction(session.id, bs.id, "summary so far"), firstKeptEntryId: parent!.id };
  entries.push(sibling, bs, c);
  return { session: { ...session, leafId: c.id }, entries, labels: { [first.id]: "start" } };
}

async function counts() {
  const db = getDb();
  return { sessions: await db.sessions.count(), entries: await db.entries.count(), labels: await db.labels.count() };
}

beforeEach(() => freshDatabase());

describe("writeImportedSessions", () => {
  it("writes sessions, every entry and labels; exporting again gives the same text", async () => {
    const sessions = [sampleSession("Alpha"), sampleSession("Beta", 5)];
    const file = exportGroveJson(sessions);
    const parsed = parseGroveJson(file);
    if (parsed.kind !== "ok") throw new Error(parsed.message);
    await writeImportedSessions(parsed.sessions);

    expect(await counts()).toEqual({ sessions: 2, entries: 7 + 13, labels: 2 });
    const again = await Promise.all(sessions.map((s) => readSessionForExport(s.session.id)));
    expect(exportGroveJson(again.map((s) => s!))).toBe(file);
  });

  it("reports progress per chunk of entries, ending at the total", async () => {
    const sessions = [sampleSession("A", 3), sampleSession("B", 3), sampleSession("C", 3)];
    const seen: number[] = [];
    await writeImportedSessions(sessions, { batchEntries: 10, onProgress: (n) => seen.push(n) });
    expect(seen).toEqual([10, 20, 27]);
  });

  it("a Cancel while the only chunk is written still aborts: nothing is kept", async () => {
    const before = await snapshot();
    let cancel = false;
    getDb().entries.hook("creating", () => {
      cancel = true; // the user presses Cancel while the chunk is being written
    });
    const err = await writeImportedSessions([sampleSession("A")], { isCancelled: () => cancel }).catch((e) => e);
    expect(err).toBeInstanceOf(ImportCancelledError);
    expect(await snapshot()).toEqual(before);
  });

  it("quota exceeded in a later chunk: the one transaction aborts, the database is as before", async () => {
    const existing = sampleSession("Existing");
    await createSession(existing.session, existing.entries);
    await setLabel(existing.entries[0]!.id, "mine");
    const before = await snapshot();

    const sessions = [sampleSession("One", 3), sampleSession("Two", 3), sampleSession("Three", 3)];
    const poison = sessions[2]!.entries[4]!.id;
    getDb().entries.hook("creating", (_key, entry) => {
      if (entry.id === poison) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    });
    const progress: number[] = [];
    const err: unknown = await writeImportedSessions(sessions, {
      batchEntries: 9,
      onProgress: (n) => progress.push(n),
    }).catch((e) => e);

    expect(isQuotaError(err)).toBe(true);
    expect(progress).toEqual([9, 18]); // two chunks were written before the third failed
    expect(await snapshot()).toEqual(before);
  });

  it("cancelled between chunks: nothing is kept", async () => {
    const before = await snapshot();
    let batchesDone = 0;
    const err = await writeImportedSessions([sampleSession("A"), sampleSession("B")], {
      batchEntries: 1,
      onProgress: () => {
        batchesDone += 1;
      },
      isCancelled: () => batchesDone >= 1,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(ImportCancelledError);
    expect(batchesDone).toBe(1);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses to overwrite: an existing session id fails the import and changes nothing", async () => {
    const s = sampleSession("Dup");
    await createSession(s.session, s.entries);
    const before = await snapshot();
    await expect(writeImportedSessions([sampleSession("New"), s], { batchEntries: 5 })).rejects.toThrow();
    expect(await snapshot()).toEqual(before);
  });
});

describe("findIdConflicts", () => {
  it("names sessions whose id, or one of whose entry ids, is taken", async () => {
    const same = sampleSession("Same");
    const reused = sampleSession("Reused entry");
    await createSession(same.session, same.entries);
    const holder = makeSession();
    await createSession(holder, [{ ...reused.entries[0]!, sessionId: holder.id }]);
    const fresh = sampleSession("Fresh");

    const conflicts = await findIdConflicts([same, reused, fresh]);
    expect([...conflicts].sort()).toEqual([same.session.id, reused.session.id].sort());
  });
});

describe("readAllForExport", () => {
  it("every session, most recently updated first, with its labels", async () => {
    const a = sampleSession("Older");
    const b = sampleSession("Newer");
    await writeImportedSessions([
      { ...a, session: { ...a.session, updatedAt: 10 } },
      { ...b, session: { ...b.session, updatedAt: 20 } },
    ]);
    const all = await readAllForExport();
    expect(all.map((s) => s.session.title)).toEqual(["Newer", "Older"]);
    expect(Object.values(all[0]!.labels)).toEqual(["start"]);
    expect((await listSessions()).length).toBe(2);
  });
});

describe("attachments through export and import", () => {
  it("a chat's image comes back with its bytes: exported as base64, imported into the blobs table", async () => {
    const bytes = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
    const blobId = await storeBlob(bytes, "image/png");
    const session = makeSession({ title: "With an image" });
    const u = userMessage(session.id, null, "look");
    const withImage: Entry = { ...u, content: [...u.content, { type: "image", blobId, mimeType: "image/png" }] };
    await createSession({ ...session, leafId: withImage.id }, [withImage]);

    const exported = await readSessionForExport(session.id);
    expect(exported?.blobs).toEqual([{ id: blobId, mimeType: "image/png", data: "iVBORwECAw==" }]);
    const parsed = parseGroveJson(exportGroveJson([exported!]));
    if (parsed.kind !== "ok") throw new Error(parsed.message);

    freshDatabase();
    await writeImportedSessions(parsed.sessions);
    const row = await getDb().blobs.get(blobId);
    expect(row?.mimeType).toBe("image/png");
    expect(new Uint8Array(await row!.data.arrayBuffer())).toEqual(bytes);
    expect(await getDb().entries.get(withImage.id)).toEqual(withImage);
  });
});

describe("attachment bytes a file brings are addressed by their hash and typed by their bytes", () => {
  const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3]);
  const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

  function importing(blobs: { id: string; mimeType: string; bytes: Uint8Array }[]): ExportedSession {
    const session = makeSession({ title: "Hostile" });
    const u = userMessage(session.id, null, "look");
    const images = blobs.map((b) => ({ type: "image" as const, blobId: b.id as BlobId, mimeType: b.mimeType }));
    return {
      session: { ...session, leafId: u.id },
      entries: [{ ...u, content: [...u.content, ...images] }],
      labels: {},
      blobs: blobs.map((b) => ({ id: b.id as BlobId, mimeType: b.mimeType, data: toBase64(b.bytes) })),
    };
  }

  const imagesOf = async (s: ExportedSession) => {
    const e = await getDb().entries.get(s.entries[0]!.id);
    return e?.type === "message" ? e.content.filter((b) => b.type === "image") : [];
  };

  it("an import reusing a stored file's id with other bytes does not replace it (issue 24.2)", async () => {
    const stored = await storeBlob(PNG, "image/png");
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    const gif = new TextEncoder().encode("GIF89a-other-bytes");
    const s = importing([
      { id: stored, mimeType: "image/svg+xml", bytes: svg },
      { id: stored, mimeType: "image/png", bytes: gif },
    ]);
    await writeImportedSessions([s]);
    const row = await getDb().blobs.get(stored);
    expect(new Uint8Array(await row!.data.arrayBuffer())).toEqual(PNG);
    expect(row?.mimeType).toBe("image/png");
    // The GIF is stored under its own hash, typed by its bytes; the entry points there.
    const gifId = await blobIdOf(gif);
    expect((await getDb().blobs.get(gifId))?.mimeType).toBe("image/gif");
    expect((await imagesOf(s)).map((b) => b.type === "image" && [b.blobId, b.mimeType])).toContainEqual([
      gifId,
      "image/gif",
    ]);
  });

  it("HTML or SVG claimed as an image is never stored (issue 24.1)", async () => {
    const html = new TextEncoder().encode("<html><script>parent.pwned=1</script></html>");
    const s = importing([{ id: "a".repeat(64), mimeType: "image/png", bytes: html }]);
    await writeImportedSessions([s]);
    expect(await getDb().blobs.count()).toBe(0);
    expect(await getDb().blobs.get(await blobIdOf(html))).toBeUndefined();
  });

  it("a file only code execution produced (CSV, SVG) is kept as a download; the same bytes as an image are not", async () => {
    const csv = new TextEncoder().encode("month,total\nJan,3\n");
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    const [csvId, svgId] = [await blobIdOf(csv), await blobIdOf(svg)];
    const file = (blobId: BlobId, name: string) => ({
      key: `/${name}`,
      fileId: name,
      name,
      mimeType: "text/csv",
      size: 1,
      blobId,
    });
    const s = importing([
      { id: csvId, mimeType: "text/csv", bytes: csv },
      { id: svgId, mimeType: "image/svg+xml", bytes: svg },
    ]);
    const u = s.entries[0]!;
    if (u.type !== "message") throw new Error("importing() starts with a message");
    const record: Entry = {
      id: asEntryId("01900000-0000-7000-8000-00000000c0de"),
      sessionId: u.sessionId,
      parentId: u.id,
      createdAt: u.createdAt,
      type: "custom",
      ...codeFilesData([file(csvId, "totals.csv"), file(svgId, "chart.svg")]),
    };
    // The CSV only the record names; the SVG also an image block claims (it keeps that block empty).
    const withRecord = {
      ...s,
      entries: [{ ...u, content: u.content.filter((b) => b.type !== "image" || b.blobId === svgId) }, record],
    };
    await writeImportedSessions([withRecord]);
    const row = await getDb().blobs.get(csvId);
    expect(row?.mimeType).toBe("application/octet-stream");
    expect(new Uint8Array(await row!.data.arrayBuffer())).toEqual(csv);
    expect(await getDb().blobs.get(svgId)).toBeUndefined();
  });
});
