/**
 * The end-to-end encryption of sync documents (Web Crypto only, so it runs in the sync worker and in
 * Node tests alike). One passphrase gives two keys through PBKDF2-SHA-256 (≥ 600,000 iterations,
 * OWASP 2023) over a random salt kept in a plain server document: AES-256-GCM for bodies and
 * HMAC-SHA-256 for document ids. The server sees opaque ids (an HMAC of the Grove record name, so
 * no session or entry id, nor how many records one session has, can be read off an id), revisions
 * and sizes; never a title, a message or a model name.
 * Each body is bound to its document id (GCM additional data), so a server cannot swap bodies; the
 * ids inside a body are checked against the same document id by whoever opens it (inbound-check.ts).
 * The derivation's strength is the app's, never the server's: a salt document asking for another
 * algorithm or an iteration count outside [KDF_ITERATIONS, KDF_MAX_ITERATIONS] is refused.
 */
import { z } from "zod";
import { base64ToBytes, bytesToBase64 } from "./base64";

/** The iterations a new salt document gets, and the least a server's may ask for (OWASP 2023). */
export const KDF_ITERATIONS = 600_000;
/**
 * The most a server's salt document may ask for: room for a later Grove to raise the count, while
 * a server naming a billion iterations cannot hang the connect (2M is a few seconds in a browser).
 */
export const KDF_MAX_ITERATIONS = 2_000_000;
const SALT_BYTES = 16;
export const SALT_DOC_ID = "grove-sync-salt";
export const CHECK_DOC_ID = "grove-sync-check";
/** The known plaintext whose decryption proves the passphrase (the check document). */
const CHECK_TEXT = "Grove sync key check v1";

/** The plain salt document: parameters only, nothing secret. */
export type SaltDoc = { _id: string; _rev?: string; kdf: "PBKDF2-SHA-256"; iterations: number; salt: string };

/** An encrypted document as stored in PouchDB/CouchDB: everything but the id is ciphertext. */
export type Envelope = { _id: string; _rev?: string; _deleted?: boolean; g: 1; iv: string; ct: string };

export type SyncKeys = { readonly enc: CryptoKey; readonly mac: CryptoKey };

/** What the keys are derived with: the salt (base64) and the iteration count, checked. */
type KdfParams = { readonly salt: string; readonly iterations: number };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function newSaltDoc(iterations = KDF_ITERATIONS): SaltDoc {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return { _id: SALT_DOC_ID, kdf: "PBKDF2-SHA-256", iterations, salt: bytesToBase64(salt) };
}

const saltDocSchema = z.object({
  kdf: z.literal("PBKDF2-SHA-256"),
  iterations: z.number().int().min(KDF_ITERATIONS).max(KDF_MAX_ITERATIONS),
  salt: z
    .string()
    .regex(/^[A-Za-z0-9+/]+={0,2}$/)
    .refine((s) => decodedLength(s) >= SALT_BYTES),
});

function decodedLength(base64: string): number {
  try {
    return base64ToBytes(base64).length;
  } catch {
    return 0;
  }
}

/**
 * The key-derivation parameters of the server's salt document, or why they are refused (the
 * document is the server's to write: nothing in it is trusted beyond the salt's randomness).
 */
export function readKdfParams(doc: unknown): { ok: true; params: KdfParams } | { ok: false; message: string } {
  const parsed = saltDocSchema.safeParse(doc);
  if (parsed.success) return { ok: true, params: { salt: parsed.data.salt, iterations: parsed.data.iterations } };
  const raw = typeof doc === "object" && doc !== null ? (doc as Partial<Record<keyof SaltDoc, unknown>>) : {};
  const asked =
    raw.kdf !== undefined && raw.kdf !== "PBKDF2-SHA-256"
      ? `the algorithm ${JSON.stringify(raw.kdf).slice(0, 40)}`
      : raw.iterations !== undefined && !saltDocSchema.shape.iterations.safeParse(raw.iterations).success
        ? `${JSON.stringify(raw.iterations) ?? String(raw.iterations)} iterations (Grove uses ${KDF_ITERATIONS.toLocaleString("en-US")} to ${KDF_MAX_ITERATIONS.toLocaleString("en-US")})`
        : "a key derivation Grove does not recognize";
  return {
    ok: false,
    message: `The server's sync settings ask for ${asked}: Grove does not use them, as they would weaken or stall the encryption of your chats. Nothing was changed on this device.`,
  };
}

/** The two keys, non-extractable (they may be stored in IndexedDB but never read back as bytes). */
export async function deriveKeys(passphrase: string, salt: KdfParams): Promise<SyncKeys> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(passphrase), "PBKDF2", false, ["deriveBits"]);
  const bits = new Uint8Array(
    await crypto.subtle.deriveBits(
      { name: "PBKDF2", hash: "SHA-256", salt: base64ToBytes(salt.salt), iterations: salt.iterations },
      material,
      512,
    ),
  );
  const enc = await crypto.subtle.importKey("raw", bits.slice(0, 32), "AES-GCM", false, ["encrypt", "decrypt"]);
  const mac = await crypto.subtle.importKey("raw", bits.slice(32), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  bits.fill(0);
  return { enc, mac };
}

/** The opaque document id of a record name (`e:<entry id>`): 128 bits of its HMAC, hex. */
export async function docIdFor(keys: SyncKeys, ref: string): Promise<string> {
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", keys.mac, encoder.encode(ref)));
  let hex = "g";
  for (const b of sig.subarray(0, 16)) hex += b.toString(16).padStart(2, "0");
  return hex;
}

export async function seal(keys: SyncKeys, id: string, value: unknown): Promise<Envelope> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(id) },
    keys.enc,
    encoder.encode(JSON.stringify(value)),
  );
  return { _id: id, g: 1, iv: bytesToBase64(iv), ct: bytesToBase64(new Uint8Array(ct)) };
}

/** The value sealed in `doc`. @throws DecryptError (wrong key, or a body tampered with or moved). */
export async function open(keys: SyncKeys, doc: Pick<Envelope, "_id" | "iv" | "ct">): Promise<unknown> {
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: base64ToBytes(doc.iv), additionalData: encoder.encode(doc._id) },
      keys.enc,
      base64ToBytes(doc.ct),
    );
  } catch {
    throw new DecryptError(doc._id);
  }
  return JSON.parse(decoder.decode(plain));
}

export class DecryptError extends Error {
  constructor(readonly docId: string) {
    super(`Document ${docId} could not be decrypted with this passphrase`);
    this.name = "DecryptError";
  }
}

export const isEnvelope = (doc: unknown): doc is Envelope =>
  typeof doc === "object" && doc !== null && (doc as Envelope).g === 1 && typeof (doc as Envelope).ct === "string";

export const sealCheck = (keys: SyncKeys): Promise<Envelope> => seal(keys, CHECK_DOC_ID, { check: CHECK_TEXT });

/** Whether `keys` open the check document: the passphrase is the one the data was written with. */
export async function keysMatch(keys: SyncKeys, check: Envelope): Promise<boolean> {
  try {
    const value = (await open(keys, check)) as { check?: unknown };
    return value.check === CHECK_TEXT;
  } catch (e) {
    if (e instanceof DecryptError) return false;
    throw e;
  }
}
