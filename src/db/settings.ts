/**
 * Key/value settings. API keys live here and nowhere else: never log a value read from this table.
 * Values are stored as given (structured clone); the caller owns their shape (`getSetting<T>` does
 * not validate; validate at the edge in state/ if a value may come from an older app version).
 */
import { getDb } from "./schema";

export async function getSetting<T>(key: string): Promise<T | undefined> {
  const row = await getDb().settings.get(key);
  return row?.value as T | undefined;
}

export async function setSetting(key: string, value: unknown): Promise<void> {
  await getDb().settings.put({ key, value });
}

export async function deleteSetting(key: string): Promise<void> {
  await getDb().settings.delete(key);
}

export async function getAllSettings(): Promise<Record<string, unknown>> {
  const rows = await getDb().settings.toArray();
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}
