/**
 * Writes the server refused (issue 30 item 2): CouchDB's validation answers 403 per document in a
 * `_bulk_docs`, and PouchDB's replication reports it as `denied` and moves its checkpoint past the
 * document, so it would never be sent again and sync would say "Up to date". A run notes each
 * refusal here; the status says so ("The server refused 3 changes: …"), never "Up to date"; the
 * ids are kept (sync-meta.ts) and sent again at the start of the next run (Sync now, a reload).
 */
import PouchDB from "pouchdb-browser";
import { getRefused, saveRefused } from "./sync-meta";

/** How much of the server's reason is shown (a hostile server could send pages of it). */
const MAX_REASON = 200;

/** PouchDB's `denied` payload: the per-document error of `_bulk_docs`. */
type Denial = { id?: unknown; reason?: unknown; message?: unknown; name?: unknown };

export class RefusedWrites {
  private readonly byId = new Map<string, string>();

  /** A `denied` event's document error. */
  note(denial: unknown): void {
    const d = (typeof denial === "object" && denial !== null ? denial : {}) as Denial;
    const id = typeof d.id === "string" ? d.id : `unnamed-${this.byId.size}`;
    const reason = [d.reason, d.message, d.name].find((r): r is string => typeof r === "string" && r.trim() !== "");
    this.byId.set(id, (reason ?? "no reason given").slice(0, MAX_REASON));
  }

  get count(): number {
    return this.byId.size;
  }

  /** The sentence for the status, or undefined when nothing was refused. */
  message(): string | undefined {
    if (this.byId.size === 0) return undefined;
    const reasons = [...new Set(this.byId.values())];
    const n = this.byId.size;
    return `The server refused ${n} ${n === 1 ? "change" : "changes"}: ${reasons.slice(0, 2).join("; ")}${reasons.length > 2 ? "; …" : ""}. Press Sync now to send ${n === 1 ? "it" : "them"} again.`;
  }

  /** Keeps the refused ids for the next run (the checkpoint is past them). */
  async save(): Promise<void> {
    await saveRefused([...this.byId.keys()].filter((id) => !id.startsWith("unnamed-")));
  }

  /**
   * Sends the documents refused in an earlier run again (from the start, with no checkpoint of its
   * own, so none is skipped); those refused again are noted. Offline, they stay for the next run.
   */
  async retry(local: PouchDB, remote: PouchDB, track: (r: { cancel(): void } | undefined) => void): Promise<void> {
    const ids = await getRefused();
    if (ids.length === 0) return;
    const replication = PouchDB.replicate(local, remote, { doc_ids: ids, since: 0, checkpoint: false });
    track(replication);
    replication.on("denied", (denial: unknown) => this.note(denial));
    try {
      await replication;
    } catch {
      return; // the server could not be reached: the stored ids wait for the next run
    } finally {
      track(undefined);
    }
    await this.save();
  }
}
