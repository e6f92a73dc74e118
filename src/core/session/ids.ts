/**
 * Typed, globally unique, sortable ids (UUIDv7). A SessionId can't be passed where an EntryId
 * is expected: the brands differ even though both are strings at runtime.
 * No I/O here.
 */
import { uuidv7 } from "uuidv7";

declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

export type SessionId = Brand<string, "SessionId">;
export type EntryId = Brand<string, "EntryId">;
export type BlobId = Brand<string, "BlobId">;

export const newSessionId = (): SessionId => uuidv7() as SessionId;
export const newEntryId = (): EntryId => uuidv7() as EntryId;
export const newBlobId = (): BlobId => uuidv7() as BlobId;

/** For ids that come from outside (URL, import, DB rows typed loosely). Validates nothing but shape. */
export const asSessionId = (s: string): SessionId => s as SessionId;
export const asEntryId = (s: string): EntryId => s as EntryId;

/** Ids in their order (UUIDv7: creation order), for sorting. */
export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The smallest UUIDv7 of the millisecond `ms`: every entry id made at or after `ms` sorts at or
 * above it (ids are UUIDv7, so a primary-key range from it reads the entries made since then).
 */
export function firstEntryIdAt(ms: number): EntryId {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000` as EntryId;
}
