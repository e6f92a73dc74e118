/**
 * One run of sync over one connection (engine.ts starts one per connect, resume or Sync now, and
 * stops it on cancel or disconnect): everything that exists only while connected lives here, set
 * once. A run starts with a one-shot pull, so a device joining an existing server finds the
 * documents its own rows map to already there (no duplicate revisions of immutable entries); then
 * three loops:
 * - outbound: Dexie rows not yet exchanged (outbound.ts) → sealed envelopes → local PouchDB;
 * - replication: PouchDB's own live sync with retry (checkpoints: it resumes after a reload or an
 *   outage where it stopped);
 * - inbound: the local PouchDB's changes feed → decrypt → the winner of conflicting revisions
 *   (core/sync/conflict.ts; the losers are deleted, so every device converges) → Dexie (inbound.ts).
 * Once stopped, every loop of the run ends at its next step and says nothing more.
 */
import { Dexie } from "dexie";
import PouchDB, { type ChangeRow, type PouchDoc, type SyncChange } from "pouchdb-browser";
import { errorText } from "../../core/session/message-error";
import { chooseVersion, type DocVersion } from "../../core/sync/conflict";
import { HybridClock } from "../../core/sync/hlc";
import type { SyncRecord } from "../../core/sync/records";
import { CHECK_DOC_ID, DecryptError, docIdFor, type Envelope, isEnvelope, open, SALT_DOC_ID, seal } from "./crypto";
import { applyIncoming, type Incoming } from "./inbound";
import { entryOutgoing, markSent, type Outgoing, pendingOutbound, readBlobRecords, readEntries } from "./outbound";
import { describeServerError, remoteDb } from "./remote";
import {
  forgetStates,
  getInbound,
  patchConnection,
  type SyncConnection,
  saveInbound,
  statesByDocId,
} from "./sync-meta";
import type { SyncStateRow } from "./sync-rows";
import type { SyncEvents, SyncStatus } from "./sync-status";

const ENTRY_BATCH = 250;
const BLOB_BATCH = 10;
const INBOUND_BATCH = 200;
/** How long local changes gather before they are sealed and stored (ms). */
const OUTBOUND_DELAY_MS = 300;
const SPECIAL_IDS = new Set([SALT_DOC_ID, CHECK_DOC_ID]);

/** What a run needs from its engine. */
export type RunHost = SyncEvents & {
  /** Runs `job` after every job queued before it (this run's and earlier runs'). */
  enqueue(job: () => Promise<void>): Promise<void>;
  /** The run caught up with the server at `at` (ms). */
  synced(at: number): void;
};

export class SyncRun {
  private readonly clock: HybridClock;
  private readonly remote: PouchDB;
  private stopped = false;
  private live: { cancel(): void } | undefined;
  private replication: { cancel(): void } | undefined;
  private outboundTimer: ReturnType<typeof setTimeout> | undefined;
  private stopMutationWatch: (() => void) | undefined;
  /** Documents this run could not decrypt (another passphrase's): said once caught up. */
  private undecryptable = 0;
  private lastSyncedAt: number | undefined;

  constructor(
    private readonly connection: SyncConnection,
    /** This device's replica (it outlives runs). */
    private readonly local: PouchDB,
    private readonly host: RunHost,
  ) {
    this.clock = new HybridClock(connection.node);
    this.remote = remoteDb(connection.dbUrl, connection.config);
    this.lastSyncedAt = connection.lastSyncedAt;
  }

  /** The first exchange (pull, apply, send), then live replication and the watch for local changes. */
  async start(): Promise<void> {
    this.status({ kind: "connecting" });
    await this.serial(async () => {
      let downloaded = 0;
      try {
        downloaded = await this.pullOnce();
      } catch {
        // Offline or the server is down: the live replication below retries.
      }
      await this.drainInbound(downloaded > 0);
      await this.pushLocal(true);
    });
    if (this.stopped) return;
    const onMutation = () => this.localChanged();
    Dexie.on("storagemutated", onMutation);
    this.stopMutationWatch = () => Dexie.on.storagemutated.unsubscribe(onMutation);
    await this.startLive();
  }

  /** Ends every loop at its next step; the jobs already queued find the run stopped. */
  stop(): void {
    this.stopped = true;
    this.live?.cancel();
    this.replication?.cancel();
    this.live = undefined;
    this.replication = undefined;
    this.stopMutationWatch?.();
    this.stopMutationWatch = undefined;
    if (this.outboundTimer !== undefined) clearTimeout(this.outboundTimer);
    this.outboundTimer = undefined;
  }

  private status(s: SyncStatus): void {
    this.host.status(s);
  }

  /** Local rows changed (this or another context): send them shortly, batched. */
  private localChanged(): void {
    if (this.stopped || this.outboundTimer !== undefined) return;
    this.outboundTimer = setTimeout(() => {
      this.outboundTimer = undefined;
      void this.serial(() => this.pushLocal(false));
    }, OUTBOUND_DELAY_MS);
  }

  /** Runs `job` after the previous one, unless the run was stopped meanwhile. */
  private serial(job: () => Promise<void>): Promise<void> {
    return this.host.enqueue(async () => {
      if (this.stopped) return;
      try {
        await job();
      } catch (e) {
        if (!this.stopped) this.status({ kind: "error", message: `Sync failed: ${errorText(e)}` });
      }
    });
  }

  /** Downloads what the server has and this replica lacks; returns how many documents came. */
  private async pullOnce(): Promise<number> {
    const { local, remote } = this;
    const [remoteInfo, localInfo] = await Promise.all([remote.info(), local.info()]);
    const total = Math.max(0, remoteInfo.doc_count - localInfo.doc_count);
    if (total === 0 || this.stopped) return 0;
    this.status({ kind: "progress", phase: "Downloading", done: 0, total });
    const replication = PouchDB.replicate(remote, local, { batch_size: INBOUND_BATCH });
    this.replication = replication;
    replication.on("change", (info: { docs_written: number }) => {
      if (!this.stopped) {
        this.status({ kind: "progress", phase: "Downloading", done: Math.min(info.docs_written, total), total });
      }
    });
    const result = await replication;
    this.replication = undefined;
    return result.docs_written;
  }

  /** Applies everything the local replica received since the checkpoint, in batches. */
  private async drainInbound(withProgress: boolean): Promise<void> {
    const { local } = this;
    const checkpoint = await getInbound();
    let since = checkpoint.since;
    let deferred = checkpoint.deferred;
    const info = withProgress ? await local.info() : undefined;
    const total =
      info && typeof info.update_seq === "number" && typeof since === "number" ? info.update_seq - since : 0;
    let done = 0;
    for (;;) {
      if (this.stopped) return;
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
    const { local } = this;
    const { keys } = this.connection;
    const relevant = rows.flatMap((r) =>
      !SPECIAL_IDS.has(r.id) && !r.id.startsWith("_") && r.doc && !r.doc._deleted ? [{ id: r.id, doc: r.doc }] : [],
    );
    const states = await statesByDocId(relevant.map((r) => r.id));
    const incoming: Incoming[] = [];
    for (const { id, doc } of relevant) {
      const conflicts = doc._conflicts ?? [];
      if (conflicts.length === 0 && states.get(id)?.rev === doc._rev) continue;
      if (!isEnvelope(doc)) continue;
      const versions: DocVersion[] = [];
      for (const version of [doc, ...(await Promise.all(conflicts.map((rev) => local.get(id, { rev }))))]) {
        if (version._rev === undefined) continue;
        try {
          const record = (await open(keys, version as unknown as Envelope)) as SyncRecord;
          this.clock.receiveIfStamped(record);
          versions.push({ rev: version._rev, record });
        } catch (e) {
          if (!(e instanceof DecryptError)) throw e;
          this.undecryptable++;
        }
      }
      const revs = [doc._rev, ...conflicts].filter((rev) => rev !== undefined);
      const choice = chooseVersion(revs, versions);
      if (!choice) continue;
      if (conflicts.length > 0) {
        // Every other revision deleted: deletion stubs are deterministic, so each device resolving
        // the same conflict writes the same revisions and they converge without a new conflict.
        await local.bulkDocs(choice.losingRevs.map((rev) => ({ _id: id, _rev: rev, _deleted: true })));
      }
      const { winner, losingLeafIds } = choice;
      incoming.push({ docId: id, rev: winner.rev, record: winner.record, losingLeafIds });
    }
    if (incoming.length === 0) return { deferred: [] };
    const outcome = await applyIncoming(incoming);
    if (outcome.leafConflicts.length > 0) this.host.leafConflicts(outcome.leafConflicts);
    return { deferred: outcome.deferred };
  }

  /** Seals and stores what changed here; replication takes it to the server. */
  private async pushLocal(withProgress: boolean): Promise<void> {
    const out = await pendingOutbound(() => this.clock.next());
    const total = out.entryIds.length;
    const report = (done: number) => {
      if (withProgress && total > 0) this.status({ kind: "progress", phase: "Encrypting", done, total });
    };
    report(0);
    for (let i = 0; i < out.entryIds.length; i += ENTRY_BATCH) {
      if (this.stopped) return;
      const entries = await readEntries(out.entryIds.slice(i, i + ENTRY_BATCH));
      await this.writeOutgoing(entries.map(entryOutgoing));
      report(Math.min(i + ENTRY_BATCH, total));
    }
    for (let i = 0; i < out.blobIds.length; i += BLOB_BATCH) {
      if (this.stopped) return;
      await this.writeOutgoing(await readBlobRecords(out.blobIds.slice(i, i + BLOB_BATCH)));
    }
    if (this.stopped) return;
    // Settings before positions, so a leaf arrives after its session's settings.
    const order = { session: 0, leaf: 1, label: 2, entry: 3, blob: 3 } as const;
    await this.writeOutgoing([...out.other].sort((a, b) => order[a.record.kind] - order[b.record.kind]));
    if (out.purge.length > 0) await this.purge(out.purge);
  }

  private async writeOutgoing(items: readonly Outgoing[]): Promise<void> {
    if (items.length === 0) return;
    const { local } = this;
    const { keys } = this.connection;
    const named = await Promise.all(items.map(async (item) => ({ item, docId: await docIdFor(keys, item.ref) })));
    const existing = (await local.allDocs({ keys: named.map((n) => n.docId) })).rows;
    const docs: PouchDoc[] = [];
    const pending: Array<{ item: Outgoing; docId: string }> = [];
    const sent: SyncStateRow[] = [];
    for (const [index, { item, docId }] of named.entries()) {
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
    pending.forEach(({ item, docId }, index) => {
      const result = results[index];
      // A conflict (the document changed meanwhile) stays unsent: the next scan tries again.
      if (result?.rev && !result.error) sent.push({ ...stateOf(item, docId), rev: result.rev });
    });
    await markSent(sent);
  }

  /** Deletes the documents of a deleted session's records, so no ciphertext of it stays on the server. */
  private async purge(rows: readonly SyncStateRow[]): Promise<void> {
    const { local } = this;
    const existing = (await local.allDocs({ keys: rows.map((r) => r.docId) })).rows;
    const stubs = existing.flatMap((r) =>
      r.value && !r.value.deleted ? [{ _id: r.id, _rev: r.value.rev, _deleted: true } as PouchDoc] : [],
    );
    if (stubs.length > 0) await local.bulkDocs(stubs);
    await forgetStates(rows.map((r) => r.ref));
  }

  private async startLive(): Promise<void> {
    const { local, remote } = this;
    const { dbUrl } = this.connection;
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
    if (this.stopped) return;
    const uploading = () => localCount > remoteStart && remoteStart + pushed() < localCount;
    const live = local.sync(remote, {
      live: true,
      retry: true,
      batch_size: ENTRY_BATCH,
      // Retry soon after an outage (PouchDB's default waits up to ten minutes).
      back_off_function: (delay) => (delay === 0 ? 1000 : Math.min(delay * 2, 8000)),
    });
    this.live = live;
    live.on("change", (info: SyncChange) => {
      if (this.stopped) return;
      if (info.direction === "pull") {
        void this.serial(() => this.drainInbound(false));
      } else {
        written = info.change.docs_written;
        if (uploading()) {
          this.status({ kind: "progress", phase: "Uploading", done: remoteStart + pushed(), total: localCount });
        }
      }
    });
    live.on("active", async () => {
      if (this.stopped) return;
      if (localCount === 0) await readCounts();
      if (uploading()) {
        this.status({ kind: "progress", phase: "Uploading", done: remoteStart + pushed(), total: localCount });
      } else this.status({ kind: "syncing", lastSyncedAt: this.lastSyncedAt });
    });
    live.on("paused", (err: unknown) => {
      if (this.stopped) return;
      if (err) {
        this.status({ kind: "offline", message: describeServerError(err, dbUrl), lastSyncedAt: this.lastSyncedAt });
        return;
      }
      // Caught up: wait for the inbound copy to finish, then say so (after checking the server
      // answers: PouchDB can report a pause without an error while it cannot reach it).
      void this.serial(async () => {
        await this.drainInbound(false);
        try {
          await remote.info();
        } catch (e) {
          if (!this.stopped) {
            this.status({ kind: "offline", message: describeServerError(e, dbUrl), lastSyncedAt: this.lastSyncedAt });
          }
          return;
        }
        const lastSyncedAt = Date.now();
        this.lastSyncedAt = lastSyncedAt;
        this.host.synced(lastSyncedAt);
        await patchConnection({ lastSyncedAt });
        if (this.stopped) return;
        if (this.undecryptable > 0) {
          this.status({
            kind: "error",
            message: `${this.undecryptable} documents on the server could not be decrypted with this passphrase and were skipped.`,
          });
        } else this.status({ kind: "idle", lastSyncedAt });
      });
    });
    live.on("denied", (err: unknown) => {
      if (!this.stopped) this.status({ kind: "error", message: `The server refused a document: ${errorText(err)}` });
    });
    live.on("error", (err: unknown) => {
      if (!this.stopped) this.status({ kind: "error", message: describeServerError(err, dbUrl) });
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
