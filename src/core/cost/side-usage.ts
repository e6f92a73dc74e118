/**
 * Usage of maintenance requests (compaction, branch summary, handoff, memory check): summed per
 * model as providers report it, so each model's tokens are priced at its own rate. Pure.
 */
import type { ModelUsage, Usage } from "../session/entries";

const plus = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);

function sum(a: Usage, b: Usage): Usage {
  const cacheRead = plus(a.cacheRead, b.cacheRead);
  const cacheWrite = plus(a.cacheWrite, b.cacheWrite);
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    ...(cacheRead !== undefined ? { cacheRead } : {}),
    ...(cacheWrite !== undefined ? { cacheWrite } : {}),
  };
}

/** `list` with `usage` of one request to `model` added to that model's sum (a new list). */
export function withModelUsage(list: readonly ModelUsage[], model: string, usage: Usage): ModelUsage[] {
  const at = list.findIndex((u) => u.model === model);
  if (at < 0) return [...list, { model, usage: { ...usage } }];
  return list.map((u, i) => (i === at ? { model, usage: sum(u.usage, usage) } : u));
}
