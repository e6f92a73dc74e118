/**
 * The sync connection as this device keeps it (syncMeta, never synced): server, credentials, the
 * derived keys (non-extractable CryptoKeys: the passphrase itself is never stored), this device's
 * clock id, the inbound checkpoint and documents waiting for their entries, and the documents the
 * server refused (to send again).
 */

import { getDb } from "../schema";
import type { SyncKeys } from "./crypto";
import type { SyncStateRow } from "./sync-rows";

/**
 * What the user typed in Settings › Sync. The password is kept like an API key: here in this
 * browser's IndexedDB, sent only to this server, never exported, synced, logged or shown in an error.
 * `plainHttpOrigin`: the plain http:// origin the user confirmed sending the password to (remote.ts).
 */
export type SyncConfig = { url: string; username: string; password: string; plainHttpOrigin?: string };

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
const REFUSED = "refused";

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

/** Documents the server refused to store (its validation): sent again at the next run's start. */
export async function getRefused(): Promise<string[]> {
  return ((await getDb().syncMeta.get(REFUSED))?.value as string[] | undefined) ?? [];
}

export async function saveRefused(docIds: readonly string[]): Promise<void> {
  const db = getDb();
  if (docIds.length === 0) await db.syncMeta.delete(REFUSED);
  else await db.syncMeta.put({ key: REFUSED, value: [...docIds] });
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
