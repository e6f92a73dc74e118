/**
 * The sync engine (runs in the sync worker): Dexie stays the app's source of truth; a local PouchDB
 * ("grove-sync", IndexedDB adapter) holds the encrypted documents and replicates continuously with
 * the user's CouchDB. Three loops:
 * - outbound: Dexie rows not yet exchanged (outbound.ts) → sealed envelopes → local PouchDB;
 * - replication: PouchDB's own live sync with retry (checkpoints: it resumes after a reload or an
 *   outage where it stopped);
 * - inbound: the local PouchDB's changes feed → decrypt → resolve conflicting revisions by clock
 *   stamp (the losers are deleted, so every device converges on the same revision) → Dexie.
 * A run starts with a one-shot pull, so a device joining an existing server finds the documents its
 * own rows map to already there (no duplicate revisions of immutable entries).
 */
import { Dexie } from "dexie";
import PouchDB, { type ChangeRow, type PouchDoc, type SyncChange } from "pouchdb-browser";
import type { EntryId, SessionId } from "../../core/session/ids";
import { errorText } from "../../core/session/message-error";
import { HybridClock } from "../../core/sync/hlc";
import { pickWinner } from "../../core/sync/lww";
import type { SyncRecord } from "../../core/sync/records";
import {
  CHECK_DOC_ID,
  DecryptError,
  deriveKeys,
  docIdFor,
  type Envelope,
  isEnvelope,
  keysMatch,
  newSaltDoc,
  open,
  SALT_DOC_ID,
  type SaltDoc,
  type SyncKeys,
  seal,
  sealCheck,
} from "./crypto";
import { applyIncoming, type Incoming } from "./inbound";
import { entryOutgoing, markSent, type Outgoing, pendingOutbound, readBlobRecords, readEntries } from "./outbound";
import {
  forgetStates,
  forgetSync,
  getConnection,
  getInbound,
  patchConnection,
  type SyncConfig,
  type SyncConnection,
  saveConnection,
  saveInbound,
  statesByDocId,
} from "./sync-meta";
import type { SyncStateRow } from "./sync-rows";

export type SyncPhase = "Downloading" | "Decrypting" | "Encrypting" | "Uploading";

export type SyncStatus =
  | { kind: "off" }
  | { kind: "connecting" }
  | { kind: "progress"; phase: SyncPhase; done: number; total: number }
  | { kind: "syncing"; lastSyncedAt?: number }
  | { kind: "idle"; lastSyncedAt: number }
  | { kind: "paused"; lastSyncedAt?: number }
  | { kind: "offline"; message: string; lastSyncedAt?: number }
  | { kind: "error"; message: string };

export type SyncEvents = {
  status(s: SyncStatus): void;
  /** Sessions whose shown branch changed because another device's concurrent one won. */
  leafConflicts(ids: SessionId[]): void;
};

export type ConnectResult = { ok: true } | { ok: false; message: string };

export const LOCAL_DB_NAME = "grove-sync";
const ENTRY_BATCH = 250;
const BLOB_BATCH = 10;
const INBOUND_BATCH = 200;
const SPECIAL_IDS = new Set([SALT_DOC_ID, CHECK_DOC_ID]);

/** The database URL for what the user typed: a server URL alone means its `grove` database. */
export function databaseUrl(url: string): string {
  const parsed = new URL(url.trim());
  if (parsed.pathname === "/" || parsed.pathname === "") parsed.pathname = "/grove";
  return parsed.toString().replace(/\/$/, "");
}

/**
 * The server's database. With a username, Grove never tries to create it: on CouchDB a user's
 * database is made by the admin (README "Sync"), and the attempt itself fails or, on pouchdb-server,
 * crashes the server. Without one (a server open to all, e.g. a local test server) it is created.
 */
function remoteDb(dbUrl: string, config: SyncConfig): PouchDB {
  const auth = config.username ? { auth: { username: config.username, password: config.password } } : {};
  return new PouchDB(dbUrl, { ...auth, skip_setup: Boolean(config.username) });
}

/** A PouchDB/fetch failure in the user's words. */
export function describeServerError(e: unknown, dbUrl: string): string {
  const status = (e as { status?: number }).status;
  if (status === 401 || status === 403) return "The server refused the username or password.";
  if (status === 404) return `There is no database at ${dbUrl}: ask the server's admin to create it for this user.`;
  const message = e instanceof Error ? e.message : String((e as { message?: unknown }).message ?? e);
  return `Cannot reach the sync server at ${dbUrl}: ${message || "no answer"}.`;
}

async function getOrCreate<T extends PouchDoc>(db: PouchDB, id: string, make: () => Promise<T> | T): Promise<T> {
  try {
    return (await db.get(id)) as T;
  } catch (e) {
    if ((e as { status?: number }).status !== 404) throw e;
  }
  try {
    await db.put(await make());
  } catch (e) {
    // Another device created it at the same moment: use theirs.
    if ((e as { status?: number }).status !== 409) throw e;
  }
  return (await db.get(id)) as T;
}

export class SyncEngine {
  private connection: SyncConnection | undefined;
  private clock: HybridClock | undefined;
  private local: PouchDB | undefined;
  private remote: PouchDB | undefined;
  private live: { cancel(): void } | undefined;
  private replication: { cancel(): void } | undefined;
  /** Bumped by cancel/disconnect: every loop of an older run stops at its next step. */
  private runId = 0;
  private chain: Promise<unknown> = Promise.resolve();
  private outboundTimer: ReturnType<typeof setTimeout> | undefined;
  private lastStatus: SyncStatus = { kind: "off" };
  private undecryptable = 0;
  private stopMutationWatch: (() => void) | undefined;

  constructor(private readonly events: SyncEvents) {}

  private status(s: SyncStatus): void {
    this.lastStatus = s;
    this.events.status(s);
  }

  currentStatus(): SyncStatus {
    return this.lastStatus;
  }

  /**
   * Checks the server and the passphrase, then starts syncing. A wrong passphrase (the server's
   * check document does not open) writes nothing here.
   */
  async connect(config: SyncConfig, passphrase: string, iterations?: number): Promise<ConnectResult> {
    await this.stop();
    let dbUrl: string;
    try {
      dbUrl = databaseUrl(config.url);
    } catch {
      return { ok: false, message: "The server URL is not a valid address (e.g. https://couch.example.com/grove)." };
    }
    if (passphrase.length === 0) return { ok: false, message: "Enter the sync passphrase." };
    this.status({ kind: "connecting" });
    const remote = remoteDb(dbUrl, config);
    let keys: SyncKeys;
    try {
      await remote.info();
      const salt = await getOrCreate<SaltDoc & PouchDoc>(remote, SALT_DOC_ID, () => newSaltDoc(iterations));
      keys = await deriveKeys(passphrase, salt);
      const check = await getOrCreate<Envelope & PouchDoc>(remote, CHECK_DOC_ID, () => sealCheck(keys));
      if (!(await keysMatch(keys, check))) {
        this.status({ kind: "off" });
        return {
          ok: false,
          message:
            "Wrong sync passphrase: the data on this server was encrypted with a different one. Nothing was changed on this device.",
        };
      }
    } catch (e) {
      this.status({ kind: "off" });
      return { ok: false, message: describeServerError(e, dbUrl) };
    }
    await forgetSync();
    const connection: SyncConnection = { config, dbUrl, keys, node: crypto.randomUUID().slice(0, 8) };
    await saveConnection(connection);
    void this.start(connection);
    return { ok: true };
  }

  /** Continues a stored connection (at startup). Returns whether there was one. */
  async resume(): Promise<boolean> {
    const connection = await getConnection();
    if (!connection) {
      this.status({ kind: "off" });
      return false;
    }
    if (connection.paused) {
      this.connection = connection;
      this.status({ kind: "paused", lastSyncedAt: connection.lastSyncedAt });
      return true;
    }
    void this.start(connection);
    return true;
  }

  /** Sync now: sends local changes at once and restarts replication (also after Cancel). */
  async syncNow(): Promise<void> {
    const connection = this.connection ?? (await getConnection());
    if (!connection) return;
    await patchConnection({ paused: false });
    await this.stop();
    void this.start({ ...connection, paused: false });
  }

  /** Cancel: stops where it is; the checkpoints keep what was done. Sync now continues. */
  async cancel(): Promise<void> {
    await this.stop();
    await patchConnection({ paused: true });
    this.status({ kind: "paused", lastSyncedAt: this.connection?.lastSyncedAt });
  }

  /** Stops syncing and forgets the connection; every chat stays on this device. */
  async disconnect(): Promise<void> {
    await this.stop();
    const local = this.local ?? new PouchDB(LOCAL_DB_NAME);
    this.local = undefined;
    await local.destroy();
    await forgetSync();
    this.connection = undefined;
    this.status({ kind: "off" });
  }

  /** Local rows changed (this or another context): send them shortly, batched. */
  localChanged(): void {
    if (!this.connection || this.connection.paused || this.outboundTimer !== undefined) return;
    const run = this.runId;
    this.outboundTimer = setTimeout(() => {
      this.outboundTimer = undefined;
      this.serial(run, () => this.pushLocal(run, false));
    }, 300);
  }

  private async stop(): Promise<void> {
    this.runId++;
    this.live?.cancel();
    this.replication?.cancel();
    this.live = undefined;
    this.replication = undefined;
    this.stopMutationWatch?.();
    this.stopMutationWatch = undefined;
    if (this.outboundTimer !== undefined) clearTimeout(this.outboundTimer);
    this.outboundTimer = undefined;
    await this.chain.catch(() => {});
  }

  /** Runs `job` after the previous one, unless the run was stopped meanwhile. */
  private serial(run: number, job: () => Promise<void>): Promise<void> {
    const next = this.chain.then(async () => {
      if (run !== this.runId) return;
      try {
        await job();
      } catch (e) {
        if (run === this.runId) this.status({ kind: "error", message: `Sync failed: ${errorText(e)}` });
      }
    });
    this.chain = next;
    return next;
  }

  private async start(connection: SyncConnection): Promise<void> {
    const run = ++this.runId;
    this.connection = connection;
    this.clock = new HybridClock(connection.node);
    this.local ??= new PouchDB(LOCAL_DB_NAME, { auto_compaction: true });
    this.remote = remoteDb(connection.dbUrl, connection.config);
    this.undecryptable = 0;
    this.status({ kind: "connecting" });
    await this.serial(run, async () => {
      let downloaded = 0;
      try {
        downloaded = await this.pullOnce(run);
      } catch {
        // Offline or the server is down: the live replication below retries.
      }
      await this.drainInbound(run, downloaded > 0);
      await this.pushLocal(run, true);
    });
    if (run !== this.runId) return;
    const onMutation = () => this.localChanged();
    Dexie.on("storagemutated", onMutation);
    this.stopMutationWatch = () => Dexie.on.storagemutated.unsubscribe(onMutation);
    await this.startLive(run);
  }

  /** Downloads what the server has and this replica lacks; returns how many documents came. */
  private async pullOnce(run: number): Promise<number> {
    const local = this.local!;
    const remote = this.remote!;
    const [remoteInfo, localInfo] = await Promise.all([remote.info(), local.info()]);
    const total = Math.max(0, remoteInfo.doc_count - localInfo.doc_count);
    if (total === 0 || run !== this.runId) return 0;
    this.status({ kind: "progress", phase: "Downloading", done: 0, total });
    const replication = PouchDB.replicate(remote, local, { batch_size: INBOUND_BATCH });
    this.replication = replication;
    replication.on("change", (info: { docs_written: number }) => {
      if (run === this.runId) {
        this.status({ kind: "progress", phase: "Downloading", done: Math.min(info.docs_written, total), total });
      }
    });
    const result = await replication;
    this.replication = undefined;
    return result.docs_written;
  }

  /** Applies everything the local replica received since the checkpoint, in batches. */
  private async drainInbound(run: number, withProgress: boolean): Promise<void> {
    const local = this.local!;
    const checkpoint = await getInbound();
    let since = checkpoint.since;
    let deferred = checkpoint.deferred;
    const info = withProgress ? await local.info() : undefined;
    const total =
      info && typeof info.update_seq === "number" && typeof since === "number" ? info.update_seq - since : 0;
    let done = 0;
    for (;;) {
      if (run !== this.runId) return;
      const page = await local.changes({ since, include_docs: true, conflicts: true, limit: INBOUND_BATCH });
      if (page.results.length === 0 && deferred.length === 0) break;
      const retry =
        deferred.length > 0
          ? (await local.allDocs({ keys: deferred, include_docs: true, conflicts: true })).rows.flatMap((r) =>
              r.doc ? [{ id: r.id, seq: 0, doc: r.doc } satisfies ChangeRow] : [],
            )
          : [];
      const fresh = new Set(page.results.map((r) => r.id));
      const rows = [...retry.filter((r) => !fresh.has(r.id)), ...page.results];
      const outcome = await this.applyRows(rows);
      deferred = outcome.deferred;
      since = page.last_seq;
      await saveInbound({ since, deferred });
      done += page.results.length;
      if (withProgress && total > 200) {
        this.status({ kind: "progress", phase: "Decrypting", done: Math.min(done, total), total });
      }
      if (page.results.length === 0) break;
    }
  }

  private async applyRows(rows: readonly ChangeRow[]): Promise<{ deferred: string[] }> {
    const keys = this.connection!.keys;
    const local = this.local!;
    const relevant = rows.filter((r) => !SPECIAL_IDS.has(r.id) && !r.id.startsWith("_") && r.doc && !r.doc._deleted);
    const states = await statesByDocId(relevant.map((r) => r.id));
    const incoming: Incoming[] = [];
    for (const row of relevant) {
      const doc = row.doc!;
      const conflicts = doc._conflicts ?? [];
      if (conflicts.length === 0 && states.get(row.id)?.rev === doc._rev) continue;
      if (!isEnvelope(doc)) continue;
      const versions: Array<{ rev: string; record: SyncRecord }> = [];
      for (const version of [doc, ...(await Promise.all(conflicts.map((rev) => local.get(row.id, { rev }))))]) {
        try {
          const record = (await open(keys, version as unknown as Envelope)) as SyncRecord;
          this.clock!.receiveIfStamped(record);
          versions.push({ rev: version._rev!, record });
        } catch (e) {
          if (!(e instanceof DecryptError)) throw e;
          this.undecryptable++;
        }
      }
      if (versions.length === 0) continue;
      versions.sort((a, b) => (a.rev < b.rev ? -1 : a.rev > b.rev ? 1 : 0));
      const winner =
        pickWinner(
          versions.map((v) => ({
            ...v,
            hlc: "hlc" in v.record ? v.record.hlc : "",
            final: v.record.kind === "session" && v.record.final ? true : undefined,
          })),
        ) ?? versions[0]!;
      if (conflicts.length > 0) {
        // Delete every other revision: deletion stubs are deterministic, so each device resolving
        // the same conflict writes the same revisions and they converge without a new conflict.
        const losers = [doc._rev!, ...conflicts].filter((rev) => rev !== winner.rev);
        await local.bulkDocs(losers.map((rev) => ({ _id: row.id, _rev: rev, _deleted: true })));
      }
      const losingLeafIds = versions
        .filter((v) => v !== winner && v.record.kind === "leaf")
        .map((v) => (v.record as { leafId: EntryId | null }).leafId);
      incoming.push({ docId: row.id, rev: winner.rev, record: winner.record, losingLeafIds });
    }
    if (incoming.length === 0) return { deferred: [] };
    const outcome = await applyIncoming(incoming);
    if (outcome.leafConflicts.length > 0) this.events.leafConflicts(outcome.leafConflicts);
    return { deferred: outcome.deferred };
  }

  /** Seals and stores what changed here; replication takes it to the server. */
  private async pushLocal(run: number, withProgress: boolean): Promise<void> {
    const out = await pendingOutbound(() => this.clock!.next());
    const total = out.entryIds.length;
    const report = (done: number) => {
      if (withProgress && total > 0) this.status({ kind: "progress", phase: "Encrypting", done, total });
    };
    report(0);
    for (let i = 0; i < out.entryIds.length; i += ENTRY_BATCH) {
      if (run !== this.runId) return;
      const entries = await readEntries(out.entryIds.slice(i, i + ENTRY_BATCH));
      await this.writeOutgoing(entries.map(entryOutgoing));
      report(Math.min(i + ENTRY_BATCH, total));
    }
    for (let i = 0; i < out.blobIds.length; i += BLOB_BATCH) {
      if (run !== this.runId) return;
      await this.writeOutgoing(await readBlobRecords(out.blobIds.slice(i, i + BLOB_BATCH)));
    }
    if (run !== this.runId) return;
    // Settings before positions, so a leaf arrives after its session's settings.
    const order = { session: 0, leaf: 1, label: 2, entry: 3, blob: 3 } as const;
    await this.writeOutgoing([...out.other].sort((a, b) => order[a.record.kind] - order[b.record.kind]));
    if (out.purge.length > 0) await this.purge(out.purge);
  }

  private async writeOutgoing(items: readonly Outgoing[]): Promise<void> {
    if (items.length === 0) return;
    const keys = this.connection!.keys;
    const local = this.local!;
    const ids = await Promise.all(items.map((i) => docIdFor(keys, i.ref)));
    const existing = (await local.allDocs({ keys: ids })).rows;
    const docs: PouchDoc[] = [];
    const pending: Array<{ item: Outgoing; docId: string }> = [];
    const sent: SyncStateRow[] = [];
    for (const [index, item] of items.entries()) {
      const docId = ids[index]!;
      const current = existing[index]?.value;
      const state = stateOf(item, docId);
      if ((item.record.kind === "entry" || item.record.kind === "blob") && current && !current.deleted) {
        sent.push({ ...state, rev: current.rev }); // already there (received, or sent before a reload)
        continue;
      }
      const envelope = (await seal(keys, docId, item.record)) as unknown as PouchDoc;
      if (current) envelope._rev = current.rev;
      docs.push(envelope);
      pending.push({ item, docId });
    }
    const results = docs.length > 0 ? await local.bulkDocs(docs) : [];
    results.forEach((result, index) => {
      const { item, docId } = pending[index]!;
      // A conflict (the document changed meanwhile) stays unsent: the next scan tries again.
      if (result.rev && !result.error) sent.push({ ...stateOf(item, docId), rev: result.rev });
    });
    await markSent(sent);
  }

  /** Deletes the documents of a deleted session's records, so no ciphertext of it stays on the server. */
  private async purge(rows: readonly SyncStateRow[]): Promise<void> {
    const local = this.local!;
    const existing = (await local.allDocs({ keys: rows.map((r) => r.docId) })).rows;
    const stubs = existing.flatMap((r) =>
      r.value && !r.value.deleted ? [{ _id: r.id, _rev: r.value.rev, _deleted: true } as PouchDoc] : [],
    );
    if (stubs.length > 0) await local.bulkDocs(stubs);
    await forgetStates(rows.map((r) => r.ref));
  }

  private async startLive(run: number): Promise<void> {
    const local = this.local!;
    const remote = this.remote!;
    // What the server holds against what this replica holds: the upload progress. Unknown while the
    // server cannot be reached; read again when replication becomes active.
    let remoteStart = 0;
    let localCount = 0;
    const readCounts = async () => {
      try {
        [remoteStart, localCount] = await Promise.all([
          remote.info().then((i) => i.doc_count),
          local.info().then((i) => i.doc_count),
        ]);
        base = written;
      } catch {
        localCount = 0;
      }
    };
    // docs_written counts from the start of this live replication; `base` is its value when counted.
    let written = 0;
    let base = 0;
    const pushed = () => written - base;
    await readCounts();
    if (run !== this.runId) return;
    const uploading = () => localCount > remoteStart && remoteStart + pushed() < localCount;
    const live = local.sync(remote, {
      live: true,
      retry: true,
      batch_size: ENTRY_BATCH,
      // Retry soon after an outage (PouchDB's default waits up to ten minutes).
      back_off_function: (delay) => (delay === 0 ? 1000 : Math.min(delay * 2, 8000)),
    });
    this.live = live;
    const last = () => this.connection?.lastSyncedAt;
    live.on("change", (info: SyncChange) => {
      if (run !== this.runId) return;
      if (info.direction === "pull") {
        this.serial(run, () => this.drainInbound(run, false));
      } else {
        written = info.change.docs_written;
        if (uploading()) {
          this.status({ kind: "progress", phase: "Uploading", done: remoteStart + pushed(), total: localCount });
        }
      }
    });
    live.on("active", async () => {
      if (run !== this.runId) return;
      if (localCount === 0) await readCounts();
      if (uploading()) {
        this.status({ kind: "progress", phase: "Uploading", done: remoteStart + pushed(), total: localCount });
      } else this.status({ kind: "syncing", lastSyncedAt: last() });
    });
    live.on("paused", (err: unknown) => {
      if (run !== this.runId) return;
      if (err) {
        this.status({
          kind: "offline",
          message: describeServerError(err, this.connection!.dbUrl),
          lastSyncedAt: last(),
        });
        return;
      }
      // Caught up: wait for the inbound copy to finish, then say so (after checking the server
      // answers: PouchDB can report a pause without an error while it cannot reach it).
      this.serial(run, async () => {
        await this.drainInbound(run, false);
        try {
          await remote.info();
        } catch (e) {
          if (run === this.runId) {
            this.status({
              kind: "offline",
              message: describeServerError(e, this.connection!.dbUrl),
              lastSyncedAt: last(),
            });
          }
          return;
        }
        const lastSyncedAt = Date.now();
        if (this.connection) this.connection = { ...this.connection, lastSyncedAt };
        await patchConnection({ lastSyncedAt });
        if (run !== this.runId) return;
        if (this.undecryptable > 0) {
          this.status({
            kind: "error",
            message: `${this.undecryptable} documents on the server could not be decrypted with this passphrase and were skipped.`,
          });
        } else this.status({ kind: "idle", lastSyncedAt });
      });
    });
    live.on("denied", (err: unknown) => {
      if (run === this.runId)
        this.status({ kind: "error", message: `The server refused a document: ${errorText(err)}` });
    });
    live.on("error", (err: unknown) => {
      if (run === this.runId) {
        this.status({ kind: "error", message: describeServerError(err, this.connection!.dbUrl) });
      }
    });
  }
}

function stateOf(item: Outgoing, docId: string): SyncStateRow {
  const row: SyncStateRow = { ref: item.ref, docId };
  if (item.sessionId !== undefined) row.sessionId = item.sessionId;
  if ("hlc" in item.record) row.hlc = item.record.hlc;
  if (item.digest !== undefined) row.digest = item.digest;
  if (item.record.kind === "session" && item.record.final) row.gone = true;
  return row;
}
