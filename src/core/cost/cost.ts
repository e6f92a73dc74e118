/**
 * What a reply cost, from the usage its provider reported and the price table (prices.ts). Pure.
 * A model without a price, or a reply without usage, has no cost: null, never a guess.
 */
import type { Entry, ModelUsage, Usage } from "../session/entries";
import { normalizeModelId } from "../tokens/models";
import { PRICES, type Price } from "./prices";

/** Prices found, by the id as entries carry it: a chat's total looks one up per reply. */
const priceById = new Map<string, Price | undefined>();

/** The price of `modelId` (dated snapshots and router prefixes resolve), or undefined. */
export function priceOf(modelId: string): Price | undefined {
  if (!priceById.has(modelId)) priceById.set(modelId, PRICES[normalizeModelId(modelId)]);
  return priceById.get(modelId);
}

/**
 * US dollars for one request. `usage.input` includes cache reads and writes (entries.ts), so they
 * are taken out of the plain input and priced at their own rates.
 */
export function costOf(usage: Usage, price: Price): number {
  const cacheRead = usage.cacheRead ?? 0;
  const cacheWrite = usage.cacheWrite ?? 0;
  const plainInput = Math.max(0, usage.input - cacheRead - cacheWrite);
  return (
    (plainInput * price.input +
      cacheRead * price.cacheRead +
      cacheWrite * price.cacheWrite +
      usage.output * price.output) /
    1_000_000
  );
}

/** The cost of an entry's request, or null when it reported no usage or its model has no price. */
export function entryCost(entry: Entry): number | null {
  const model = "model" in entry ? entry.model : undefined;
  const usage = "usage" in entry ? entry.usage : undefined;
  if (!usage || !model) return null;
  const price = priceOf(model);
  return price ? costOf(usage, price) : null;
}

/** A sum over many requests: the known part, and how many requests had usage but no price. */
export type CostTotal = { usd: number; priced: number; unknown: number };

export const NO_COST: CostTotal = { usd: 0, priced: 0, unknown: 0 };

export function addCost(total: CostTotal, entry: Entry): CostTotal {
  return withCosts(total, [entry]);
}

/** Each entry's cost once computed (entries never change, nor does the price table). */
const costByEntry = new WeakMap<Entry, number | null>();

/** Adds `entry`'s request to `total` in place. */
function addTo(total: CostTotal, entry: Entry): void {
  if (!("usage" in entry) || !entry.usage) return;
  let cost = costByEntry.get(entry);
  if (cost === undefined) {
    cost = entryCost(entry);
    costByEntry.set(entry, cost);
  }
  if (cost === null) total.unknown++;
  else {
    total.usd += cost;
    total.priced++;
  }
}

/** `total` plus what `entries` cost: one running sum, not a new total per entry (a tree can hold 20,000). */
export function withCosts(total: CostTotal, entries: Iterable<Entry>): CostTotal {
  const sum = { ...total };
  for (const e of entries) addTo(sum, e);
  return sum;
}

export const totalCost = (entries: Iterable<Entry>): CostTotal => withCosts(NO_COST, entries);

/** `total` plus what the requests of `usage` cost, each model at its own price (one priced request per model). */
export function modelUsageCost(total: CostTotal, usage: readonly ModelUsage[] | undefined): CostTotal {
  if (!usage || usage.length === 0) return total;
  const sum = { ...total };
  for (const { model, usage: u } of usage) {
    const price = priceOf(model);
    if (!price) sum.unknown++;
    else {
      sum.usd += costOf(u, price);
      sum.priced++;
    }
  }
  return sum;
}

/** What a maintenance entry's requests cost (its `sideUsage`, each model at its own price). */
export const sideUsageCost = (total: CostTotal, entry: Entry): CostTotal =>
  modelUsageCost(total, "sideUsage" in entry ? entry.sideUsage : undefined);

/** "$0.0123", "$1.24", "<$0.0001": enough digits to see a cheap reply, no false precision on big ones. */
export function formatUsd(usd: number): string {
  if (usd === 0) return "$0";
  if (usd < 0.0001) return "<$0.0001";
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 1) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}

/** A total in words: "$0.42", "$0.42 + 3 replies of unknown cost", "cost unknown". */
export function describeTotal(total: CostTotal, unit: "reply" | "request" = "reply"): string {
  if (total.priced === 0 && total.unknown === 0) return "$0";
  if (total.priced === 0) return "cost unknown";
  const known = formatUsd(total.usd);
  const units = unit === "reply" ? "replies" : "requests";
  return total.unknown === 0
    ? known
    : `${known} + ${total.unknown} ${total.unknown === 1 ? unit : units} of unknown cost`;
}
