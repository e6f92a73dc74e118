import { afterEach, describe, expect, it, vi } from "vitest";

// pouchdb-browser (imported by remote.ts) reads `self` when loaded; Node has none.
vi.hoisted(() => {
  (globalThis as { self?: unknown }).self ??= globalThis;
});

import { CHECK_DOC_ID, deriveKeys, newSaltDoc, SALT_DOC_ID, sealCheck } from "./crypto";
import { attempt, connectHandshake, resumeHandshake } from "./handshake";

const DB = "https://couch.example.com/grove";
const config = { url: DB, username: "me", password: "hunter2-secret" };
const info = { db_name: "grove", doc_count: 2, update_seq: 2 };

/** A server holding `docs`; `answer` replaces every answer (a hostile or broken one). */
function server(docs: Record<string, object> = {}, answer?: () => Promise<never>) {
  const puts: string[] = [];
  const remote = {
    info: () => answer?.() ?? Promise.resolve(info),
    get: async (id: string) => {
      if (answer) return answer();
      const doc = docs[id];
      if (!doc) throw Object.assign(new Error("missing"), { status: 404 });
      return { _id: id, _rev: "1-a", ...doc };
    },
    put: async (doc: { _id: string }) => {
      if (answer) return answer();
      puts.push(doc._id);
      docs[doc._id] = doc;
      return { ok: true, id: doc._id, rev: "1-a" };
    },
  };
  return { remote: remote as never, puts };
}

const fastKeys = () => deriveKeys("correct horse", { salt: btoa("0123456789abcdef"), iterations: 1_000 });

describe("the connect handshake", () => {
  it("an empty server gets the salt and check documents; the passphrase opens them next time", async () => {
    const docs: Record<string, object> = {};
    const first = server(docs);
    const result = await connectHandshake(first.remote, "correct horse", DB, config);
    expect(result.ok).toBe(true);
    expect(first.puts).toEqual([SALT_DOC_ID, CHECK_DOC_ID]);
    expect(await connectHandshake(server(docs).remote, "correct horse", DB, config)).toMatchObject({ ok: true });
    expect(await connectHandshake(server(docs).remote, "wrong horse", DB, config)).toEqual({
      ok: false,
      failure: "refused",
      message: expect.stringMatching(/^Wrong sync passphrase: .*Nothing was changed on this device\.$/),
    });
  }, 60_000); // three real derivations at the app's strength

  it.each([1, 1_000_000_000, "600000"])(
    "a salt document asking for %j iterations is refused at once, before any key is derived or document written",
    async (iterations) => {
      const { remote, puts } = server({ [SALT_DOC_ID]: { ...newSaltDoc(), iterations } });
      const started = Date.now();
      const result = await connectHandshake(remote, "correct horse", DB, config);
      expect(result).toEqual({
        ok: false,
        failure: "refused",
        message: expect.stringMatching(/^The server's sync settings ask for .*iterations/),
      });
      expect(puts).toEqual([]);
      // Deriving with 1e9 iterations would take many minutes: refused before any derivation.
      expect(Date.now() - started).toBeLessThan(20_000);
    },
  );

  it("a server answering a web page to everything is refused in plain words, and nothing is written", async () => {
    const html = () => Promise.reject(new SyntaxError(`Unexpected token '<', "<!doctype html>" is not valid JSON`));
    const { remote, puts } = server({}, html);
    expect(await connectHandshake(remote, "correct horse", DB, config)).toEqual({
      ok: false,
      failure: "refused",
      message: `The server at ${DB} does not answer as a CouchDB database (it sent a web page or other text). Check the server URL. Nothing was changed on this device.`,
    });
    expect(puts).toEqual([]);
    // One answering JSON that is not a database's ({} to everything) is refused the same way.
    const empty = { ...(server().remote as object), info: async () => ({}) } as never;
    expect(await connectHandshake(empty, "correct horse", DB, config)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/does not answer as a CouchDB database/),
    });
  });

  it("no answer is offline; an error quoting the password shows it redacted", async () => {
    const down = server({}, () => Promise.reject(new TypeError("Failed to fetch")));
    expect(await connectHandshake(down.remote, "p", DB, config)).toMatchObject({ ok: false, failure: "offline" });
    const quoting = server({}, () =>
      Promise.reject(Object.assign(new Error(`bad credentials me:${config.password}`), { status: 500 })),
    );
    const result = await connectHandshake(quoting.remote, "p", DB, config);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).not.toContain(config.password);
      expect(result.message).toContain("[redacted]");
    }
  });

  it("an error answered to the database's info (PouchDB passes it on as info) is said with its reason, redacted", async () => {
    const answering = (body: object) => ({ ...(server().remote as object), info: async () => body }) as never;
    const quoting = answering({ error: "unknown_error", reason: `authentication failed for me:${config.password}` });
    expect(await connectHandshake(quoting, "p", DB, config)).toEqual({
      ok: false,
      failure: "offline",
      message: `Cannot reach the sync server at ${DB}: authentication failed for me:[redacted]. Nothing was changed on this device.`,
    });
    expect(
      await connectHandshake(
        answering({ error: "unauthorized", reason: "Name or password is incorrect." }),
        "p",
        DB,
        config,
      ),
    ).toEqual({
      ok: false,
      failure: "refused",
      message: "The server refused the username or password. Nothing was changed on this device.",
    });
    expect(
      await resumeHandshake(answering({ error: "not_found", reason: "missing" }), {} as never, DB, config),
    ).toMatchObject({
      ok: false,
      message: `There is no database at ${DB}: ask the server's admin to create it for this user.`,
    });
  });
});

describe("a run's handshake", () => {
  it("goes on only while the server holds the check document the stored keys open", async () => {
    const keys = await fastKeys();
    const check = await sealCheck(keys);
    expect(await resumeHandshake(server({ [CHECK_DOC_ID]: check }).remote, keys, DB, config)).toEqual({ ok: true });
    expect(await resumeHandshake(server({}).remote, keys, DB, config)).toMatchObject({
      ok: false,
      failure: "refused",
      message: expect.stringMatching(/no longer holds this sync's data/),
    });
    const other = await sealCheck(await deriveKeys("another", { salt: btoa("0123456789abcdef"), iterations: 1_000 }));
    expect(await resumeHandshake(server({ [CHECK_DOC_ID]: other }).remote, keys, DB, config)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/encrypted with another passphrase/),
    });
    const html = server({}, () => Promise.reject(new SyntaxError("Unexpected token '<'")));
    expect(await resumeHandshake(html.remote, keys, DB, config)).toMatchObject({ ok: false, failure: "refused" });
  });
});

describe("an attempt bounded in time and cancellable", () => {
  afterEach(() => vi.useRealTimers());

  const stalled = () => {
    const seen: { signal?: AbortSignal } = {};
    const work = (signal: AbortSignal) => {
      seen.signal = signal;
      return new Promise<string>(() => {});
    };
    return { seen, work };
  };

  it("ends with a timeout when the work never answers, and aborts its requests", async () => {
    vi.useFakeTimers();
    const { seen, work } = stalled();
    const result = attempt(work, new AbortController().signal, 30_000);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(seen.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toEqual({ kind: "timeout" });
    expect(seen.signal?.aborted).toBe(true);
  });

  it("ends at once when cancelled", async () => {
    const { seen, work } = stalled();
    const cancel = new AbortController();
    const result = attempt(work, cancel.signal, 30_000);
    cancel.abort();
    expect(await result).toEqual({ kind: "cancelled" });
    expect(seen.signal?.aborted).toBe(true);
  });

  it("gives the work's value when it ends first", async () => {
    expect(await attempt(async () => 7, new AbortController().signal, 30_000)).toEqual({ kind: "done", value: 7 });
  });
});
