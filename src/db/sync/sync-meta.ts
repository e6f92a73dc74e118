/**
 * The sync connection as this device keeps it (syncMeta, never synced): server, credentials, the
 * derived keys (non-extractable CryptoKeys: the passphrase itself is never stored), this device's
 * clock id, the inbound checkpoint and documents waiting for their entries.
 */

import { getDb } from "../schema";
import type { SyncKeys } from "./crypto";
import type { SyncStateRow } from "./sync-rows";

export type SyncConfig = { url: string; username: string; password: string };

export type SyncConnection = {
  config: SyncConfig;
  /** The database URL the config resolved to. */
  dbUrl: string;
  keys: SyncKeys;
  /** This device's id in clock stamps. */
  node: string;
  /** Cancel pressed: stays stopped (also after a reload) until Sync now. */
  paused?: boolean;
  lastSyncedAt?: number;
};

export type InboundCheckpoint = { since: number | string; deferred: string[] };

const CONNECTION = "connection";
const INBOUND = "inbound";

export async function getConnection(): Promise<SyncConnection | undefined> {
  return (await getDb().syncMeta.get(CONNECTION))?.value as SyncConnection | undefined;
}

export async function saveConnection(c: SyncConnection): Promise<void> {
  await getDb().syncMeta.put({ key: CONNECTION, value: c });
}

export async function patchConnection(patch: Partial<SyncConnection>): Promise<void> {
  const db = getDb();
  await db.transaction("rw", db.syncMeta, async () => {
    const current = (await db.syncMeta.get(CONNECTION))?.value as SyncConnection | undefined;
    if (current) await db.syncMeta.put({ key: CONNECTION, value: { ...current, ...patch } });
  });
}

export async function getInbound(): Promise<InboundCheckpoint> {
  return ((await getDb().syncMeta.get(INBOUND))?.value as InboundCheckpoint | undefined) ?? { since: 0, deferred: [] };
}

export async function saveInbound(c: InboundCheckpoint): Promise<void> {
  await getDb().syncMeta.put({ key: INBOUND, value: c });
}

/** Forgets the connection and every exchange record; the app's own rows stay. */
export async function forgetSync(): Promise<void> {
  const db = getDb();
  await db.transaction("rw", db.syncMeta, db.syncState, async () => {
    await db.syncMeta.clear();
    await db.syncState.clear();
  });
}

export async function statesByDocId(docIds: readonly string[]): Promise<Map<string, SyncStateRow>> {
  const rows = await getDb()
    .syncState.where("docId")
    .anyOf([...docIds])
    .toArray();
  return new Map(rows.map((r) => [r.docId, r]));
}

export async function forgetStates(refs: readonly string[]): Promise<void> {
  await getDb().syncState.bulkDelete([...refs]);
}
