/**
 * The sync engine (runs in the sync worker): Dexie stays the app's source of truth; a local PouchDB
 * ("grove-sync", IndexedDB adapter) holds the encrypted documents and replicates continuously with
 * the user's CouchDB. The engine holds what outlives a connection (the stored connection, the
 * local replica, the last status, the queue every run's jobs take turns in) and checks a new
 * connection's server and passphrase; each connection's work is a run (sync-run.ts), started on
 * connect, resume or Sync now and stopped on Cancel or disconnect.
 */
import PouchDB from "pouchdb-browser";
import { type CoalescedReports, coalesceReports } from "../../worker-kit/coalesce-reports";
import { attempt, connectHandshake, HANDSHAKE_TIMEOUT_MS } from "./handshake";
import { databaseUrl, passwordProblem, remoteDb, serverUrlProblem } from "./remote";
import {
  forgetSync,
  getConnection,
  patchConnection,
  type SyncConfig,
  type SyncConnection,
  saveConnection,
} from "./sync-meta";
import { SyncRun } from "./sync-run";
import type { SyncEvents, SyncStatus } from "./sync-status";

export type ConnectResult = { ok: true } | { ok: false; message: string };

const LOCAL_DB_NAME = "grove-sync";

export class SyncEngine {
  /** The stored connection, while there is one (running or paused). */
  private connection: SyncConnection | undefined;
  /** This device's replica: opened by the first run, kept across runs, destroyed on disconnect. */
  private local: PouchDB | undefined;
  /** The run under way, if any. */
  private run: SyncRun | undefined;
  /** Every run's jobs, one after another: a stopped run's last job ends before the next run starts. */
  private chain: Promise<unknown> = Promise.resolve();
  private lastStatus: SyncStatus = { kind: "off" };
  /** Aborts the connect under way (Cancel while "Connecting…"). */
  private connecting: AbortController | undefined;

  /**
   * The page hears progress at most a few times a second (worker-kit/coalesce-reports.ts): a first
   * sync reported every batch, a message into every frame of a scroll meanwhile.
   */
  private readonly reports: CoalescedReports<SyncStatus>;

  constructor(private readonly events: SyncEvents) {
    this.reports = coalesceReports(
      (s) => this.events.status(s),
      (s) => s.kind === "progress",
    );
  }

  private status(s: SyncStatus): void {
    this.lastStatus = s;
    this.reports.report(s);
  }

  currentStatus(): SyncStatus {
    return this.lastStatus;
  }

  /**
   * Checks the server and the passphrase (handshake.ts), then starts syncing. Until the handshake
   * succeeds nothing is written here; it can be cancelled and ends after HANDSHAKE_TIMEOUT_MS.
   */
  async connect(config: SyncConfig, passphrase: string): Promise<ConnectResult> {
    await this.stop();
    const urlProblem = serverUrlProblem(config.url);
    if (urlProblem) return { ok: false, message: urlProblem };
    if (passphrase.length === 0) return { ok: false, message: "Enter the sync passphrase." };
    const dbUrl = databaseUrl(config.url);
    const insecure = passwordProblem(config, dbUrl);
    if (insecure) return { ok: false, message: insecure };
    this.connecting?.abort();
    const cancel = new AbortController();
    this.connecting = cancel;
    this.status({ kind: "connecting" });
    const outcome = await attempt(
      (signal) => connectHandshake(remoteDb(dbUrl, config, signal, HANDSHAKE_TIMEOUT_MS), passphrase, dbUrl, config),
      cancel.signal,
      HANDSHAKE_TIMEOUT_MS,
    );
    if (this.connecting === cancel) this.connecting = undefined;
    const result =
      outcome.kind === "done"
        ? outcome.value
        : {
            ok: false as const,
            message:
              outcome.kind === "cancelled"
                ? "Connecting was cancelled. Nothing was changed on this device."
                : `The sync server at ${dbUrl} did not answer within ${HANDSHAKE_TIMEOUT_MS / 1000} seconds. Nothing was changed on this device.`,
          };
    if (!result.ok) {
      this.status({ kind: "off" });
      return { ok: false, message: result.message };
    }
    await forgetSync();
    const connection: SyncConnection = { config, dbUrl, keys: result.keys, node: crypto.randomUUID().slice(0, 8) };
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

  /**
   * Cancel: a connect under way ends (nothing was changed); a run stops where it is (its requests
   * aborted), the checkpoints keep what was done, and Sync now continues.
   */
  async cancel(): Promise<void> {
    if (this.connecting) {
      this.connecting.abort();
      this.connecting = undefined;
      return;
    }
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

  /** Stops the run under way, and waits for its job in progress to end. */
  private async stop(): Promise<void> {
    this.run?.stop();
    this.run = undefined;
    await this.chain.catch(() => {});
  }

  private async start(connection: SyncConnection): Promise<void> {
    this.run?.stop();
    this.connection = connection;
    this.local ??= new PouchDB(LOCAL_DB_NAME, { auto_compaction: true });
    const run = new SyncRun(connection, this.local, {
      status: (s) => this.status(s),
      leafConflicts: (ids) => this.events.leafConflicts(ids),
      enqueue: (job) => {
        const next = this.chain.then(job);
        this.chain = next;
        return next;
      },
      synced: (lastSyncedAt) => {
        if (this.connection) this.connection = { ...this.connection, lastSyncedAt };
      },
    });
    this.run = run;
    await run.start();
  }
}
