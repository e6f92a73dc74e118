/**
 * The meter's kept readings (core/tokens/meter-reading.ts), one per context, in localStorage: read
 * synchronously, so a chat opened again shows its number in the first frame, and shared by tabs.
 * A cache only: a lost or unreadable store means "measure again", never an error.
 */

import type { Session } from "../../core/session/entries";
import { type MeterReading, type MeterSource, meterContextKey } from "../../core/tokens/meter-reading";
import { type ChatTarget, requestParams } from "../models/chat-target";
import type { Settings } from "../settings/settings-model";
import type { Measured } from "./measure";

const STORAGE_KEY = "grove.meterReadings.v1";
/** Contexts kept (oldest dropped first): far more than anyone revisits, small enough to stay cheap. */
const METER_READINGS_KEPT = 500;

type Stored = Record<string, [number, MeterSource]>;

let memory: Map<string, MeterReading> | null = null;

function load(): Map<string, MeterReading> {
  if (memory) return memory;
  memory = new Map();
  try {
    const raw = globalThis.localStorage?.getItem(STORAGE_KEY);
    const stored = raw ? (JSON.parse(raw) as Stored) : {};
    for (const [key, [tokens, source]] of Object.entries(stored)) memory.set(key, { tokens, source });
  } catch {
    // An unreadable store is an empty one.
  }
  return memory;
}

export function keptReading(key: string): MeterReading | undefined {
  return load().get(key);
}

export function keepReading(key: string, reading: MeterReading): void {
  const map = load();
  map.delete(key);
  map.set(key, reading);
  for (const [old] of map) {
    if (map.size <= METER_READINGS_KEPT) break;
    map.delete(old);
  }
  try {
    const stored: Stored = {};
    for (const [k, r] of map) stored[k] = [r.tokens, r.source];
    globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(stored));
  } catch {
    // Full or unavailable storage: the reading still holds for this tab.
  }
}

/** The key for the open chat's context, or null for a chat with nothing in it yet. */
export function meterKeyFor(session: Session | undefined, target: ChatTarget, settings: Settings): string | null {
  if (!session?.leafId) return null;
  const { maxOutputTokens, thinking } = requestParams(target, settings);
  return meterContextKey({
    sessionId: session.id,
    leafId: session.leafId,
    providerId: target.provider.id,
    baseUrl: target.provider.baseUrl,
    modelId: target.modelId,
    encoding: target.model.info.encoding,
    systemPrompt: target.systemPrompt,
    request: JSON.stringify({ maxOutputTokens, thinking }),
  });
}

/** What a measurement is, as a meter source. */
export function sourceOf(m: Measured): MeterSource {
  if (m.countedBy === "anthropic") return "anthropic";
  return m.exact ? "tokenizer" : "calibrated";
}
