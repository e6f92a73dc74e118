/**
 * Typed, globally unique, sortable ids (UUIDv7). A SessionId can't be passed where an EntryId
 * is expected: the brands differ even though both are strings at runtime.
 * No I/O here.
 */
import { uuidv7 } from "uuidv7";

declare const brand: unique symbol;
export type Brand<T, B extends string> = T & { readonly [brand]: B };

export type SessionId = Brand<string, "SessionId">;
export type EntryId = Brand<string, "EntryId">;
export type BlobId = Brand<string, "BlobId">;

export const newSessionId = (): SessionId => uuidv7() as SessionId;
export const newEntryId = (): EntryId => uuidv7() as EntryId;
export const newBlobId = (): BlobId => uuidv7() as BlobId;

/** For ids that come from outside (URL, import, DB rows typed loosely). Validates nothing but shape. */
export const asSessionId = (s: string): SessionId => s as SessionId;
export const asEntryId = (s: string): EntryId => s as EntryId;
