import { describe, expect, it } from "vitest";
import {
  DecryptError,
  deriveKeys,
  docIdFor,
  KDF_ITERATIONS,
  KDF_MAX_ITERATIONS,
  keysMatch,
  newSaltDoc,
  open,
  readKdfParams,
  seal,
  sealCheck,
} from "./crypto";

// Few iterations keep the tests fast; the product's default is checked separately.
const salt = newSaltDoc(1_000);

describe("the encryption envelope", () => {
  it("uses PBKDF2-SHA-256 with at least 600,000 iterations by default and a random 16-byte salt", () => {
    const doc = newSaltDoc();
    expect(KDF_ITERATIONS).toBeGreaterThanOrEqual(600_000);
    expect(doc).toMatchObject({ kdf: "PBKDF2-SHA-256", iterations: KDF_ITERATIONS });
    expect(atob(doc.salt)).toHaveLength(16);
    expect(newSaltDoc().salt).not.toBe(doc.salt);
  });

  it("round-trips a record, and the stored envelope contains none of its text", async () => {
    const keys = await deriveKeys("correct horse", salt);
    // Markers with characters base64 never has (space, "-"), so random ciphertext cannot contain them by chance.
    const record = { kind: "entry", entry: { id: "entry-one", content: [{ type: "text", text: "my secret plan" }] } };
    const envelope = await seal(keys, "gdoc", record);
    expect(JSON.stringify(envelope)).not.toContain("secret plan");
    expect(JSON.stringify(envelope)).not.toContain("entry-one");
    expect(await open(keys, envelope)).toEqual(record);
    // A fresh IV each time: equal records do not give equal ciphertexts.
    expect((await seal(keys, "gdoc", record)).ct).not.toBe(envelope.ct);
  });

  it("refuses a wrong passphrase, a tampered body and a body moved to another document", async () => {
    const keys = await deriveKeys("correct horse", salt);
    const wrong = await deriveKeys("wrong horse", salt);
    const envelope = await seal(keys, "gdoc", { a: 1 });
    await expect(open(wrong, envelope)).rejects.toBeInstanceOf(DecryptError);
    const bytes = Uint8Array.from(atob(envelope.ct), (c) => c.charCodeAt(0));
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    await expect(open(keys, { ...envelope, ct: btoa(String.fromCharCode(...bytes)) })).rejects.toBeInstanceOf(
      DecryptError,
    );
    await expect(open(keys, { ...envelope, _id: "gother" })).rejects.toBeInstanceOf(DecryptError);
  });

  it("the check document tells the right passphrase from a wrong one", async () => {
    const keys = await deriveKeys("correct horse", salt);
    const check = await sealCheck(keys);
    expect(await keysMatch(keys, check)).toBe(true);
    expect(await keysMatch(await deriveKeys("Correct horse", salt), check)).toBe(false);
    // Another salt is another key, even with the same passphrase.
    expect(await keysMatch(await deriveKeys("correct horse", newSaltDoc(1_000)), check)).toBe(false);
  });

  it("document ids are opaque, stable per key and differ between keys", async () => {
    const keys = await deriveKeys("correct horse", salt);
    const id = await docIdFor(keys, "e:0190a0a0-0000-7000-8000-000000000010");
    expect(id).toMatch(/^g[0-9a-f]{32}$/);
    expect(await docIdFor(keys, "e:0190a0a0-0000-7000-8000-000000000010")).toBe(id);
    expect(await docIdFor(keys, "e:0190a0a0-0000-7000-8000-000000000011")).not.toBe(id);
    expect(await docIdFor(await deriveKeys("other", salt), "e:0190a0a0-0000-7000-8000-000000000010")).not.toBe(id);
  });
});

describe("the key-derivation parameters a server's salt document asks for", () => {
  const doc = (patch: Record<string, unknown>) => ({ ...newSaltDoc(), ...patch });

  it("accepts this app's own and a stronger count up to the bound", () => {
    const own = newSaltDoc();
    expect(readKdfParams(own)).toEqual({ ok: true, params: { salt: own.salt, iterations: KDF_ITERATIONS } });
    expect(readKdfParams(doc({ iterations: KDF_MAX_ITERATIONS }))).toMatchObject({ ok: true });
    expect(KDF_MAX_ITERATIONS).toBeLessThanOrEqual(5_000_000);
  });

  it.each([
    ["1 (a check document brute-forced in milliseconds)", 1],
    ["below the floor", KDF_ITERATIONS - 1],
    ["1,000,000,000 (hangs the connect)", 1_000_000_000],
    ['the string "600000"', "600000"],
    ["a fraction", 600_000.5],
    ["NaN", Number.NaN],
    ["missing", undefined],
  ])("refuses iterations %s, in plain words", (_what, iterations) => {
    const result = readKdfParams(doc({ iterations }));
    expect(result).toEqual({ ok: false, message: expect.stringMatching(/^The server's sync settings ask for/) });
    if (!result.ok) expect(result.message).toMatch(/Nothing was changed on this device\.$/);
  });

  it.each([
    ["another algorithm", { kdf: "PBKDF2-SHA-1" }],
    ["a salt that is not base64", { salt: "<html>" }],
    ["a salt shorter than 16 bytes", { salt: btoa("short") }],
  ])("refuses %s", (_what, patch) => {
    expect(readKdfParams(doc(patch))).toMatchObject({ ok: false });
  });

  it("refuses what is not a salt document at all (an HTML page, nothing)", () => {
    for (const value of ["<html><body>Welcome</body></html>", null, 42, []]) {
      expect(readKdfParams(value)).toMatchObject({ ok: false });
    }
  });
});
