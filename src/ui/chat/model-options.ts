/**
 * The model picker's list (ModelPicker): per provider, its models with a friendly name, context
 * size and price; providers with a key first (their models work now); filtered by the words typed.
 * Pure: no React.
 */

import { priceOf } from "../../core/cost/cost";
import type { ModelRef } from "../../core/session/entries";
import { findModel } from "../../core/tokens/models";
import type { ProviderConfig } from "../../providers/types";
import { normalizeForSearch } from "../settings/settings-search";

export type ModelOption =
  | { kind: "model"; value: string; ref: ModelRef; label: string; detail: string }
  /** "Other <provider> model id…": opens the id field. */
  | { kind: "other"; value: string; providerId: string; label: string; detail: string };

export type ModelGroup = { providerId: string; name: string; options: ModelOption[] };

const compactTokens = (n: number): string =>
  n >= 1_000_000 ? `${(n / 1_000_000).toLocaleString()}M` : `${Math.round(n / 1000).toLocaleString()}k`;
const dollars = (n: number): string => `$${n.toLocaleString(undefined, { maximumFractionDigits: 2 })}`;

/** "claude-sonnet-4-5 · 200k context · $3 / $15 per M tokens"; the id alone for a model Grove does not know. */
export function modelDetail(modelId: string): string {
  const info = findModel(modelId);
  const price = priceOf(modelId);
  return [
    modelId,
    info && `${compactTokens(info.contextWindow)} context`,
    price && `${dollars(price.input)} / ${dollars(price.output)} per M tokens`,
  ]
    .filter(Boolean)
    .join(" · ");
}

/** The friendly name ("Claude Sonnet 4.5"), or the id itself. */
export const modelLabel = (modelId: string): string => findModel(modelId)?.label ?? modelId;

const hasKey = (p: ProviderConfig): boolean => !p.builtIn || Boolean(p.apiKey);

export function modelGroups(
  providers: readonly ProviderConfig[],
  idsOf: (p: ProviderConfig) => string[],
  current: ModelRef,
): ModelGroup[] {
  const ordered = [...providers.filter(hasKey), ...providers.filter((p) => !hasKey(p))];
  return ordered.map((p) => {
    const ids = idsOf(p);
    if (p.id === current.providerId && !ids.includes(current.modelId)) ids.unshift(current.modelId);
    return {
      providerId: p.id,
      name: hasKey(p) ? p.name : `${p.name} (no key yet)`,
      options: [
        ...ids.map(
          (modelId): ModelOption => ({
            kind: "model",
            value: `${p.id}::${modelId}`,
            ref: { providerId: p.id, modelId },
            label: modelLabel(modelId),
            detail: modelDetail(modelId),
          }),
        ),
        {
          kind: "other",
          value: `other::${p.id}`,
          providerId: p.id,
          label: `Other ${p.name} model id…`,
          detail: "Any id the provider serves",
        },
      ],
    };
  });
}

const words = (text: string): string[] =>
  normalizeForSearch(text)
    .split(/[^\p{L}\p{N}.]+/u)
    .filter(Boolean);

/** The groups keeping options whose name, id or provider has a word starting with each word typed. */
export function filterModelGroups(groups: readonly ModelGroup[], query: string): ModelGroup[] {
  const typed = words(query);
  if (typed.length === 0) return [...groups];
  return groups
    .map((g) => ({
      ...g,
      options: g.options.filter((o) => {
        const own = [
          ...words(o.label),
          ...words(o.detail),
          ...words(g.name),
          normalizeForSearch(o.detail.split(" · ")[0] ?? ""),
        ];
        return typed.every((t) => own.some((w) => w.startsWith(t)));
      }),
    }))
    .filter((g) => g.options.length > 0);
}
