/**
 * The inbound loop of a run: the local replica's changes feed → decrypt → check (inbound-check.ts:
 * well-formed, its ids its document's) → the winner of conflicting revisions (core/sync/conflict.ts;
 * the losers are deleted, so every device converges) → Dexie (inbound.ts), one batch at a time from
 * the stored checkpoint. A document that cannot be used (another passphrase's, malformed, not
 * fitting what is here) is skipped and counted, never applied; the rest of its batch goes on.
 */
import type PouchDB from "pouchdb-browser";
import type { ChangeRow, PouchDoc } from "pouchdb-browser";
import type { SessionId } from "../../core/session/ids";
import { chooseVersion, type DocVersion } from "../../core/sync/conflict";
import type { HybridClock } from "../../core/sync/hlc";
import type { SyncRecord } from "../../core/sync/records";
import { CHECK_DOC_ID, DecryptError, type Envelope, isEnvelope, open, SALT_DOC_ID, type SyncKeys } from "./crypto";
import { applyIncoming, type Incoming } from "./inbound";
import { checkRecord } from "./inbound-check";
import { getInbound, saveInbound, statesByDocId } from "./sync-meta";
import type { SyncStatus } from "./sync-status";

export const INBOUND_BATCH = 200;
const SPECIAL_IDS = new Set([SALT_DOC_ID, CHECK_DOC_ID]);

type FeedHost = {
  stopped(): boolean;
  status(s: SyncStatus): void;
  leafConflicts(ids: SessionId[]): void;
};

/** "3 documents … were" / "1 document … was". */
const documents = (n: number) => (n === 1 ? "1 document on the server was" : `${n} documents on the server were`);

export class InboundFeed {
  /** Documents that could not be decrypted (another passphrase's). */
  private undecryptable = 0;
  /** Documents opened and refused (malformed, or not fitting their document or this device). */
  private invalid = 0;

  constructor(
    private readonly local: PouchDB,
    private readonly keys: SyncKeys,
    /** Learns from the stamps of checked records only. */
    private readonly clock: HybridClock,
    private readonly host: FeedHost,
  ) {}

  /** What was skipped from the server, in words (undefined: nothing). */
  skippedMessage(): string | undefined {
    const parts: string[] = [];
    if (this.undecryptable > 0) {
      parts.push(`${documents(this.undecryptable)} could not be decrypted with this passphrase and skipped.`);
    }
    if (this.invalid > 0) parts.push(`${documents(this.invalid)} not valid Grove records and skipped.`);
    return parts.length > 0 ? `${parts.join(" ")} Everything else is up to date.` : undefined;
  }

  /** Applies everything the local replica received since the checkpoint, in batches. */
  async drain(withProgress: boolean): Promise<void> {
    const { local } = this;
    const checkpoint = await getInbound();
    let since = checkpoint.since;
    let deferred = checkpoint.deferred;
    const info = withProgress ? await local.info() : undefined;
    const total =
      info && typeof info.update_seq === "number" && typeof since === "number" ? info.update_seq - since : 0;
    let done = 0;
    for (;;) {
      if (this.host.stopped()) return;
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
        this.host.status({ kind: "progress", phase: "Decrypting", done: Math.min(done, total), total });
      }
      if (page.results.length === 0) break;
    }
  }

  private async applyRows(rows: readonly ChangeRow[]): Promise<{ deferred: string[] }> {
    const { local } = this;
    const relevant = rows.flatMap((r) =>
      !SPECIAL_IDS.has(r.id) && !r.id.startsWith("_") && r.doc && !r.doc._deleted ? [{ id: r.id, doc: r.doc }] : [],
    );
    const states = await statesByDocId(relevant.map((r) => r.id));
    const incoming: Incoming[] = [];
    for (const { id, doc } of relevant) {
      const conflicts = doc._conflicts ?? [];
      if (conflicts.length === 0 && states.get(id)?.rev === doc._rev) continue;
      if (!isEnvelope(doc)) {
        this.invalid++; // a plain document among Grove's: not written by Grove
        continue;
      }
      const versions: DocVersion[] = [];
      for (const version of [doc, ...(await Promise.all(conflicts.map((rev) => local.get(id, { rev }))))]) {
        if (version._rev === undefined) continue;
        const record = await this.openRecord(id, version);
        if (record) versions.push({ rev: version._rev, record });
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
    this.invalid += outcome.invalid.length;
    if (outcome.leafConflicts.length > 0) this.host.leafConflicts(outcome.leafConflicts);
    return { deferred: outcome.deferred };
  }

  /**
   * One revision's record, decrypted and checked (inbound-check.ts), or undefined when it cannot be
   * used: counted, never applied. Only a checked record's clock stamp is learned from.
   */
  private async openRecord(docId: string, version: PouchDoc): Promise<SyncRecord | undefined> {
    const { keys } = this;
    let value: unknown;
    try {
      value = await open(keys, version as unknown as Envelope);
    } catch (e) {
      if (e instanceof DecryptError) this.undecryptable++;
      else if (e instanceof SyntaxError)
        this.invalid++; // sealed with the key, but not JSON
      else throw e;
      return undefined;
    }
    const checked = await checkRecord(keys, docId, value);
    if (!checked.ok) {
      this.invalid++;
      return undefined;
    }
    this.clock.receiveIfStamped(checked.record);
    return checked.record;
  }
}
