/**
 * One run of sync over one connection (engine.ts starts one per connect, resume or Sync now, and
 * stops it on cancel or disconnect): everything that exists only while connected lives here, set
 * once. A run starts with a one-shot pull, so a device joining an existing server finds the
 * documents its own rows map to already there (no duplicate revisions of immutable entries). Before
 * that, nothing changes here until the server passes the handshake (handshake.ts): while it cannot
 * be reached the run retries it, and a server that answers as something else ends the run with the
 * reason. Then three loops:
 * - outbound: Dexie rows not yet exchanged (outbound.ts) → sealed envelopes → local PouchDB;
 * - replication: PouchDB's own live sync with retry (checkpoints: it resumes after a reload or an
 *   outage where it stopped);
 * - inbound: the local PouchDB's changes feed → Dexie (inbound-feed.ts).
 * Every request is bounded in time (remote.ts boundedFetch) and aborted when the run stops. Writes
 * the server refuses are said and sent again by the next run (refused-writes.ts).
 * Once stopped, every loop of the run ends at its next step and says nothing more.
 */
import { Dexie } from "dexie";
import PouchDB, { type PouchDoc, type SyncChange } from "pouchdb-browser";
import { errorText } from "../../core/session/message-error";
import { HybridClock } from "../../core/sync/hlc";
import { docIdFor, seal } from "./crypto";
import { attempt, HANDSHAKE_TIMEOUT_MS, type HandshakeFailure, resumeHandshake } from "./handshake";
import { INBOUND_BATCH, InboundFeed } from "./inbound-feed";
import { entryOutgoing, markSent, type Outgoing, pendingOutbound, readBlobRecords, readEntries } from "./outbound";
import { RefusedWrites } from "./refused-writes";
import { describeServerError, remoteDb } from "./remote";
import { forgetStates, patchConnection, type SyncConnection } from "./sync-meta";
import type { SyncStateRow } from "./sync-rows";
import type { SyncEvents, SyncStatus } from "./sync-status";

const ENTRY_BATCH = 250;
const BLOB_BATCH = 10;
/** How long local changes gather before they are sealed and stored (ms). */
const OUTBOUND_DELAY_MS = 300;
/**
 * How long one request to the server may go unanswered (a download or upload batch; a change feed's
 * headers) before it fails with a message and replication retries (ms).
 */
const REQUEST_TIMEOUT_MS = 60_000;
/** Handshake retries while the server cannot be reached: 1 s, 2 s, 4 s, then every 8 s. */
const HANDSHAKE_RETRY_FIRST_MS = 1_000;
const HANDSHAKE_RETRY_MAX_MS = 8_000;

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
  /** Aborts every request of the run (and its waits) when it stops. */
  private readonly abort = new AbortController();
  private live: { cancel(): void } | undefined;
  private replication: { cancel(): void } | undefined;
  private outboundTimer: ReturnType<typeof setTimeout> | undefined;
  private stopMutationWatch: (() => void) | undefined;
  /** Received documents → Dexie; counts what it skipped (said once caught up). */
  private readonly inbound: InboundFeed;
  private readonly refused = new RefusedWrites();
  private lastSyncedAt: number | undefined;

  constructor(
    private readonly connection: SyncConnection,
    /** This device's replica (it outlives runs). */
    private readonly local: PouchDB,
    private readonly host: RunHost,
  ) {
    this.clock = new HybridClock(connection.node);
    this.remote = remoteDb(connection.dbUrl, connection.config, this.abort.signal, REQUEST_TIMEOUT_MS);
    this.lastSyncedAt = connection.lastSyncedAt;
    this.inbound = new InboundFeed(local, connection.keys, this.clock, {
      stopped: () => this.stopped,
      status: (st) => this.status(st),
      leafConflicts: (ids) => this.host.leafConflicts(ids),
    });
  }

  /**
   * The handshake, the first exchange (pull, apply, send, what the server refused before), then live
   * replication and the watch for local changes.
   */
  async start(): Promise<void> {
    this.status({ kind: "connecting" });
    if (!(await this.handshake())) return;
    await this.serial(async () => {
      let downloaded = 0;
      try {
        downloaded = await this.pullOnce();
      } catch {
        // Offline or the server is down: the live replication below retries.
      }
      await this.inbound.drain(downloaded > 0);
      await this.pushLocal(true);
      if (this.stopped) return;
      await this.refused.retry(this.local, this.remote, (r) => {
        this.replication = r;
      });
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
    this.abort.abort();
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

  /**
   * Until the server passes the handshake: while it cannot be reached (or does not answer in time)
   * the run says so and tries again; when it answers as something else, the run ends with the reason
   * (Sync now tries again). False when the run ends here.
   */
  private async handshake(): Promise<boolean> {
    const { dbUrl, config, keys } = this.connection;
    for (let delay = HANDSHAKE_RETRY_FIRST_MS; ; delay = Math.min(delay * 2, HANDSHAKE_RETRY_MAX_MS)) {
      if (this.stopped) return false;
      const outcome = await attempt(
        (signal) => resumeHandshake(remoteDb(dbUrl, config, signal, HANDSHAKE_TIMEOUT_MS), keys, dbUrl, config),
        this.abort.signal,
        HANDSHAKE_TIMEOUT_MS,
      );
      if (this.stopped || outcome.kind === "cancelled") return false;
      const result: { ok: true } | HandshakeFailure =
        outcome.kind === "timeout"
          ? {
              ok: false,
              failure: "offline",
              message: `The sync server at ${dbUrl} did not answer within ${HANDSHAKE_TIMEOUT_MS / 1000} seconds.`,
            }
          : outcome.value;
      if (result.ok) return true;
      if (result.failure === "refused") {
        this.status({ kind: "error", message: result.message });
        return false;
      }
      this.status({ kind: "offline", message: result.message, lastSyncedAt: this.lastSyncedAt });
      await this.pause(delay);
    }
  }

  /** Waits `ms`, or less if the run stops meanwhile. */
  private pause(ms: number): Promise<void> {
    const { signal } = this.abort;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
    });
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
    const { dbUrl, config } = this.connection;
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
        void this.serial(() => this.inbound.drain(false));
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
        this.status({
          kind: "offline",
          message: describeServerError(err, dbUrl, config),
          lastSyncedAt: this.lastSyncedAt,
        });
        return;
      }
      // Caught up: wait for the inbound copy to finish, then say so (after checking the server
      // answers: PouchDB can report a pause without an error while it cannot reach it).
      void this.serial(async () => {
        await this.inbound.drain(false);
        try {
          await remote.info();
        } catch (e) {
          if (!this.stopped) {
            this.status({
              kind: "offline",
              message: describeServerError(e, dbUrl, config),
              lastSyncedAt: this.lastSyncedAt,
            });
          }
          return;
        }
        const lastSyncedAt = Date.now();
        this.lastSyncedAt = lastSyncedAt;
        this.host.synced(lastSyncedAt);
        await patchConnection({ lastSyncedAt });
        if (this.stopped) return;
        await this.refused.save();
        if (this.stopped) return;
        const problem = this.refused.message() ?? this.inbound.skippedMessage();
        this.status(problem ? { kind: "error", message: problem } : { kind: "idle", lastSyncedAt });
      });
    });
    live.on("denied", (info: { direction?: string; doc?: unknown }) => {
      if (this.stopped || info.direction !== "push") return;
      this.refused.note(info.doc);
      this.status({ kind: "error", message: this.refused.message() ?? "" });
    });
    live.on("error", (err: unknown) => {
      if (!this.stopped) this.status({ kind: "error", message: describeServerError(err, dbUrl, config) });
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
